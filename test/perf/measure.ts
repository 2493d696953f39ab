/**
 * What the work bounds measure: an input streamed through a fresh sieve in
 * a given chunking, the sieve's counters (`stats()`), and that every input
 * character came out once (a bound on a reader that drops text proves
 * nothing). Counts only, never times.
 */
import { createSieve, defaultGrammar } from '../../src/index.js'
import { fixedChunks, tokenChunks } from '../../bench/chunks.js'
import { chunkings, prng, randomSplit, seedOf } from '../helpers/chunking.js'
import type { Chunking } from '../helpers/chunking.js'
import type { FrameSequence, Grammar } from '../../src/grammar/types.js'
import type { SieveOptions, SieveStats } from '../../src/types.js'

/** Blanks a closing tag may have between its name and its end (the grammar's bound on all drift). */
const CLOSER_BLANKS = 4

/**
 * The longest tag delimiter `grammar` admits, read from the grammar, not
 * from a reader, so it bounds any reader of it: an opener at its repetition
 * bounds with the longest local name, plus the one character after the name
 * that completes it; a closer (a whole tag) likewise, plus its blanks and
 * the frame's longest end. A tail longer than this is no possible delimiter
 * and need not be held.
 */
export function longestDelimiter(grammar: Grammar): number {
  const names = Object.values(grammar.roles).flat().map((n) => (typeof n === 'string' ? n : n.name))
  const longestName = Math.max(...names.map((n) => n.length))
  const length = (seq: FrameSequence): number =>
    seq.reduce((sum, part) => sum + ('name' in part ? longestName : (part.max ?? 1) * Math.max(...part.lit.map((l) => l.length))), 0)
  return Math.max(
    ...grammar.frames.flatMap((f) => {
      const end = Math.max(...f.end.map(length))
      return [...f.open.map((seq) => length(seq) + 1), ...f.close.map((seq) => length(seq) + CLOSER_BLANKS + end)]
    }),
  )
}

export const LONGEST_DELIMITER = longestDelimiter(defaultGrammar)

export interface Run {
  stats: SieveStats
  pushes: number
  /** Characters out as text, reasoning (and its tags) and call `raw`s. */
  out: number
  calls: number
  /**
   * What the pushes may re-read of what came before: at each push, the
   * characters in but not yet out (held), at most the longest delimiter
   * each. Past that length held text is no tail but a capture or a hold,
   * which a reader keeps without reading it again on every push.
   */
  rereadAllowance: number
  /** At each push, everything held (in but not yet out), summed: what a reader re-reading all it holds would read again. */
  heldTotal: number
  /** Pushes that found more held than a delimiter's length (a block being captured, a tag held): what a reader parsing what it holds on every push would parse. */
  pushesHoldingMore: number
}

/** Streams `chunks` through a fresh sieve and ends it. */
export function run(chunks: readonly string[], opts: SieveOptions = {}): Run {
  const sieve = createSieve(opts)
  let out = 0
  let calls = 0
  const take = (events: ReturnType<typeof sieve.push>): void => {
    for (const e of events) {
      if (e.type === 'tool-call') calls++, (out += e.raw.length)
      else if (e.type === 'text' || e.type === 'reasoning') out += e.text.length
      else if (e.type === 'reasoning-start' || e.type === 'reasoning-end') out += e.raw.length
    }
  }
  let read = 0
  let rereadAllowance = 0
  let heldTotal = 0
  let pushesHoldingMore = 0
  for (const chunk of chunks) {
    rereadAllowance += Math.min(read - out, LONGEST_DELIMITER)
    heldTotal += read - out
    if (read - out > LONGEST_DELIMITER) pushesHoldingMore++
    read += chunk.length
    take(sieve.push(chunk))
  }
  rereadAllowance += Math.min(read - out, LONGEST_DELIMITER)
  take(sieve.end())
  return { stats: sieve.stats(), pushes: chunks.length, out, calls, rereadAllowance, heldTotal, pushesHoldingMore }
}

/** Inputs up to this length run through the whole chunking matrix of `test/helpers/chunking.ts`. */
export const FULL_MATRIX_LIMIT = 2000

/**
 * The chunkings a work bound is checked in. Short inputs: the whole matrix
 * (whole, one unit at a time, every split point, random splits, a large
 * chunk among small ones). Long ones, where each run costs the input's
 * length: the shapes that differ in work (whole, one unit, 4 and 4096
 * units, token-sized, two random splits, small chunks around one large
 * one), not every split into two.
 */
export function* workChunkings(input: string): Generator<Chunking> {
  if (input.length <= FULL_MATRIX_LIMIT) {
    yield* chunkings(input)
    return
  }
  const seed = seedOf(input)
  yield { name: 'whole', chunks: [input] }
  yield { name: 'one unit at a time', chunks: [...Array(input.length).keys()].map((i) => input.charAt(i)) }
  yield { name: '4 units', chunks: fixedChunks(input, 4) }
  yield { name: '4096 units', chunks: fixedChunks(input, 4096) }
  yield { name: 'token-sized', chunks: tokenChunks(input, seed) }
  const random = prng(seed)
  for (let k = 0; k < 2; k++) yield { name: `random #${k}`, chunks: randomSplit(input, random) }
  const mid = Math.floor(input.length / 2)
  yield { name: 'small chunks, 1100 at the middle, small chunks', chunks: [...randomSplit(input.slice(0, mid), random), input.slice(mid, mid + 1100), ...randomSplit(input.slice(mid + 1100), random)] }
}

/** The few chunkings a long family is measured in at each size (the doubling bounds): one unit, 4 units, token-sized, whole. */
export function scalingChunkings(input: string): Chunking[] {
  return [
    { name: 'one unit at a time', chunks: [...Array(input.length).keys()].map((i) => input.charAt(i)) },
    { name: '4 units', chunks: fixedChunks(input, 4) },
    { name: 'token-sized', chunks: tokenChunks(input, seedOf(input)) },
    { name: 'whole', chunks: [input] },
  ]
}

/**
 * Reads of the input a reader streamed in small pieces (at most
 * {@link SMALL_PUSH} units a push, as a model streams) needs, besides the
 * tail each push re-reads: a paragraph is read at most three times (read;
 * read again from a tag it held once the paragraph decides; a third time
 * from a later halt, after which no tag before that end is held: see
 * `src/sieve/README.md`, "The states of a hold"). Measured at most 1.4 on
 * the corpus: re-reading what is held is mostly the tail each push re-reads.
 */
export const READS_STREAMED = 3
/** The largest push {@link READS_STREAMED} is checked for. */
export const SMALL_PUSH = 16

/**
 * Reads of the input in any chunking, pushed whole included: the three
 * reads of a paragraph, and what a reader reading a large push ahead in
 * pieces reads past the point where it must go back and then reads again.
 * That read-ahead is bounded per going-back, so it weighs most on the
 * shortest paragraphs that hold a tag and release it (11 to 25 characters:
 * 6.62 reads per character measured, `` `<invoke>``<invoke>\n\n `` pushed
 * whole); on everything else in the corpus at most 4.93. Seven is that
 * measure rounded up: a reader whose read-ahead after going back doubles
 * (128 characters instead of 64) reads those paragraphs 9.6 times and
 * fails it, and any re-read that grows with the text (a paragraph or a
 * capture read again on every push or every going-back) fails it by far.
 */
export const READS_ANY_PUSH = 7

/** The most `stats().charsLexed` may be for `input` read in `r`'s pushes, `reads` reads of it besides the re-read tails. */
export function lexedBound(input: string, r: Run, reads: number): number {
  return reads * input.length + r.rereadAllowance
}

/** Mentions of a wrapper's or an invoke's name: every block opener spells one (the repair reads an invoke without its wrapper as a block). */
export function blockNameMentions(input: string): number {
  return (input.match(/invoke|calls/gi) ?? []).length
}

/** What work may grow by past the length ratio: windows and chunk boundaries do not fall alike at both sizes. */
const UNEVEN = 1.125

/**
 * The most a count may be for an input `ratio` times as long as one it was
 * `small` for: `ratio` times as much, an eighth more, a delimiter's length,
 * and an eighth of `slackLength` (the larger input's length for counts of
 * characters and tokens: where a reader hardly lexes a text at all, a few
 * runs where chunk ends fall on a construct, which pieces it lexes depends
 * on the chunking, not on the size; 0 for blocks).
 */
export function scaledBound(small: number, ratio: number, slackLength: number): number {
  return ratio * UNEVEN * small + slackLength / 8 + LONGEST_DELIMITER
}
