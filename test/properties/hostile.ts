/**
 * The hostile fuzz: documents built to make the sieve run a call the model
 * did not make, with the answer known by construction. Each document mixes
 * live blocks (`live_N`: a block at the top level after a blank line, which
 * must become a call) with examples (`ex_N`: the same markup inside every
 * kind of code CommonMark knows: fences, indented code after each kind of
 * line that may precede it, code spans, HTML comments, `<pre>`, inline
 * `<code>`, fences in list items and block quotes) and echoes (`q_N`: a live
 * block whose call the `quoted` text already shows, which must not run). Line
 * endings are LF, CR, CRLF or mixed, in every spelling family.
 *
 * The checks (plain functions that throw, shared by
 * `test/properties/hostile.test.ts` and `scripts/hostile-fuzz.ts`):
 * - exactly the live calls, in order; no example and no echo runs;
 * - no call starts inside a range micromark reads as code (a second opinion
 *   on the generator's own answer);
 * - conservation; any chunking (random, small then one over 1 KiB then
 *   small) gives the events of one chunk; checkpoints through JSON at random
 *   points change nothing; with `streamArguments`, each call's deltas are its
 *   arguments and the calls are those without it.
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'
import { CLOSED_SPELLINGS, block, invoke, type Spelling } from '../helpers/blocks.js'
import { referenceRanges } from '../commonmark/micromark.js'
import { checkConservation, fuzzProperty, merge, run, runResumed, type Merged } from './check.js'
import { chunkBy } from './generator.js'

/** One piece of a document and the calls it must give. */
interface Segment {
  text: string
  live: string[]
  /** A call-shaped text for `quoted` (the user's message showing the call the model then echoes). */
  quoted?: string
}

export interface HostileCase {
  input: string
  live: string[]
  quoted: string[]
  sizes: number[]
  /** Where the chunk over 1 KiB starts (mod input length). */
  bigAt: number
  stops: number[]
  streamArguments: boolean
}

const PATHS = ['src/a.ts', 'README.md', '你好.txt', 'a < b.md', 'x']
const spelling = fc.constantFrom(...CLOSED_SPELLINGS)
const path = fc.constantFrom(...PATHS)
/** Every line of `text` indented by `n` spaces. */
const indent = (text: string, n: number): string => text.split('\n').map((l) => ' '.repeat(n) + l).join('\n')

const prose = fc.constantFrom('Here is the plan.', 'Done: the file is read.', 'Use `npm test` then.', '- a list item', '1. first step', '# Heading', 'Some *emphasis* and a [link](x).', '> a quote')

/** The lines after which a four-space indent starts indented code (anything but a paragraph line). */
const beforeIndented = fc.constantFrom('\n\n', '\n\n***\n', '\n\n---\n', '\n\nTitle\n===\n', '\n\nTitle\n---\n', '\n\n<!-- note -->\n', '\n\n<pre>\nx\n</pre>\n', '\n\n> ***\n', '\n\n# Heading\n', '\n\n```\n- item\n```\n\n', '\n\n<!--\n- x\n-->\n\n', '\n\n~~~\ncode\n~~~\n')

/** A block with one call in `s`, its invokes on lines of their own (`sep`). */
const oneCall = (s: Spelling, name: string, p: string, sep = '\n'): string => block(s, [{ name, params: { path: p } }], sep)

function exampleSegment(n: number): fc.Arbitrary<Segment> {
  const name = `ex_${n}`
  return fc.oneof(
    // a fenced example: backticks or tildes, 0-3 spaces of indent, an info string or none
    fc.tuple(spelling, path, fc.constantFrom('```', '~~~', '````', '~~~~~'), fc.integer({ min: 0, max: 3 }), fc.constantFrom('', 'xml', ' dsml')).map(([s, p, f, i, info]) => ({
      // (an indented opener after a list item's blank line would be the item's: a container the guard reads only on its marker line)
      text: `\n\n${i > 0 ? 'End.\n\n' : ''}${' '.repeat(i)}${f}${info}\n${oneCall(s, name, p)}\n${' '.repeat(i)}${f}\n\n`,
      live: [],
    })),
    // indented code after a line that is not a paragraph's
    // (`End.` first: four spaces after a list item's blank line would continue the item, not start code)
    fc.tuple(spelling, path, beforeIndented).map(([s, p, before]) => ({ text: `\n\nEnd.\n${before}${indent(oneCall(s, name, p), 4)}\n\n`, live: [] })),
    // a code span in a sentence
    fc.tuple(spelling, path, fc.constantFrom('`', '``', '```')).map(([s, p, run]) => ({ text: `\n\nRun ${run}${oneCall(s, name, p, ' ')}${run} to read it.\n\n`, live: [] })),
    // raw HTML that hides markup
    fc.tuple(spelling, path, fc.constantFrom('<!--\n', '<pre>\n', '<script>\n', '<textarea>\n'), fc.nat()).map(([s, p, open, _]) => {
      const close = open === '<!--\n' ? '\n-->' : `\n</${open.slice(1, -2)}>`
      return { text: `\n\n${open}${oneCall(s, name, p)}${close}\n\n`, live: [] }
    }),
    fc.tuple(spelling, path).map(([s, p]) => ({ text: `\n\nThe <code>${oneCall(s, name, p, ' ')}</code> element.\n\n`, live: [] })),
    // a fence in a list item and in a block quote
    fc.tuple(spelling, path).map(([s, p]) => ({ text: `\n\n- item\n\n  \`\`\`\n${indent(oneCall(s, name, p), 2)}\n  \`\`\`\n\n`, live: [] })),
    fc.tuple(spelling, path).map(([s, p]) => ({ text: `\n\n> \`\`\`\n${indent(oneCall(s, name, p), 0).split('\n').map((l) => `> ${l}`).join('\n')}\n> \`\`\`\n\n`, live: [] })),
  )
}

function liveSegment(n: number): fc.Arbitrary<Segment> {
  const name = `live_${n}`
  return fc.tuple(spelling, path).map(([s, p]) => ({ text: `\n\n${oneCall(s, name, p)}\n\n`, live: [name] }))
}

/** A live block whose call the user's message shows in one of the shapes a user writes it. */
function echoSegment(n: number): fc.Arbitrary<Segment> {
  const name = `q_${n}`
  return fc.tuple(spelling, spelling, path, fc.nat({ max: 3 })).map(([live, quotedIn, p, shape]) => {
    const inv = invoke(quotedIn, { name, params: { path: p } })
    const quoted = [
      `What does \`${inv.replace(/\n/g, ' ')}\` do?`,
      `Try ${inv} and tell me.`,
      `${quotedIn.open(quotedIn.wrapper)}\n${invoke(quotedIn, { name: 'other', params: { path: 'y' } })}\nthen\n${inv}\n${quotedIn.close(quotedIn.wrapper)}`,
      `Example:\n\n\`\`\`\n${oneCall(quotedIn, name, p)}\n\`\`\``,
    ][shape]!
    return { text: `\n\n${oneCall(live, name, p)}\n\n`, live: [], quoted }
  })
}

const segment = (n: number): fc.Arbitrary<Segment> =>
  fc.oneof(
    { arbitrary: prose.map((t) => ({ text: `\n\n${t}\n`, live: [] as string[] })), weight: 2 },
    { arbitrary: exampleSegment(n), weight: 4 },
    { arbitrary: liveSegment(n), weight: 2 },
    { arbitrary: echoSegment(n), weight: 1 },
  )

export type Ending = 'lf' | 'cr' | 'crlf' | 'mixed'
function withEndings(text: string, ending: Ending, seed: number): string {
  if (ending === 'lf') return text
  if (ending === 'cr') return text.replace(/\n/g, '\r')
  if (ending === 'crlf') return text.replace(/\n/g, '\r\n')
  let i = seed
  let afterCr = false
  // a CR then an LF would be one CRLF line ending, not two: after a lone CR the next ending is never a lone LF
  return text.replace(/\n/g, () => {
    const pick = ['\n', '\r', '\r\n'][(i = (i * 1103515245 + 12345) >>> 0) % 3]!
    const ending = afterCr && pick === '\n' ? '\r\n' : pick
    afterCr = ending === '\r'
    return ending
  })
}

const ENDINGS: readonly Ending[] = ['lf', 'cr', 'crlf', 'mixed']

/** Hostile documents with line endings of `endings` (default every kind). */
export const hostileCase = (endings: readonly Ending[] = ENDINGS): fc.Arbitrary<HostileCase> => fc
  .record({
    kinds: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 7 }),
    ending: fc.constantFrom<Ending>(...endings),
    endingSeed: fc.nat(),
    sizes: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
    bigAt: fc.nat(),
    stops: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    streamArguments: fc.boolean(),
    lead: prose,
  })
  .chain((r) =>
    fc.tuple(...r.kinds.map((_, i) => segment(i))).map((segments) => {
      const input = withEndings(r.lead + segments.map((s) => s.text).join(''), r.ending, r.endingSeed)
      return {
        input,
        live: segments.flatMap((s) => s.live),
        quoted: segments.flatMap((s) => (s.quoted === undefined ? [] : [withEndings(s.quoted, r.ending, r.endingSeed)])),
        sizes: r.sizes,
        bigAt: r.bigAt,
        stops: r.stops,
        streamArguments: r.streamArguments,
      }
    }),
  )

/** Every chunk small, but one of at least 1 KiB starting at `at`. */
export function smallBigSmall(input: string, sizes: readonly number[], at: number): string[] {
  const start = input.length === 0 ? 0 : at % input.length
  const end = Math.min(input.length, start + 1100 + (at % 300))
  return [...chunkBy(input.slice(0, start), sizes), ...(end > start ? [input.slice(start, end)] : []), ...chunkBy(input.slice(end), sizes)]
}

/** The raw events of one run (the argument deltas are not in the merged ones). */
function runEvents(chunks: readonly string[], opts: SieveOptions): SieveEvent[] {
  const sieve = createSieve(opts)
  const events: SieveEvent[] = []
  for (const chunk of chunks) events.push(...sieve.push(chunk))
  events.push(...sieve.end())
  return events
}

/** Without the deltas (present only with `streamArguments`), for comparing runs with and without it. */
const callsOf = (events: readonly Merged[]) => events.filter((e) => e.type === 'tool-call')

/** Every hostile property on one case; throws on the first that fails. */
export function checkHostile(c: HostileCase): void {
  const opts: SieveOptions = { quoted: c.quoted, ...(c.streamArguments ? { streamArguments: true } : {}) }
  const rawEvents = runEvents([c.input], opts)
  const reference = merge(rawEvents)
  checkConservation(c.input, reference)
  const names = callsOf(reference).map((e) => (e as { name: string }).name)
  assert.deepEqual(names, c.live, 'the calls are exactly the live blocks, in order (no example, no echo)')
  const ranges = referenceRanges(c.input)
  const code = [...ranges.fenced, ...ranges.text, ...ranges.indented, ...ranges.html]
  for (const e of reference) {
    if (e.type !== 'tool-call') continue
    const inside = code.find((r) => r.start <= e.span.start && e.span.start < r.end)
    assert.equal(inside, undefined, `call ${e.name} at ${e.span.start} starts inside micromark's code ${JSON.stringify(inside)}`)
  }
  if (c.streamArguments) {
    const deltas = new Map<string, string>()
    for (const e of rawEvents) {
      if (e.type === 'tool-call-delta') deltas.set(e.id, (deltas.get(e.id) ?? '') + e.delta)
      else if (e.type === 'tool-call') assert.equal(deltas.get(e.id) ?? '', e.arguments, `the deltas of ${e.name} are its arguments`)
    }
    assert.deepEqual(callsOf(run([c.input], { quoted: c.quoted })), callsOf(reference), 'streamArguments changes no call')
  }
  const chunks = chunkBy(c.input, c.sizes)
  assert.deepEqual(run(chunks, opts), reference, 'random chunking differs from one chunk')
  assert.deepEqual(run(smallBigSmall(c.input, c.sizes, c.bigAt), opts), reference, 'small chunks, one over 1 KiB, small chunks differ from one chunk')
  const stops = new Set(c.stops.map((s) => s % (chunks.length + 1)))
  assert.deepEqual(runResumed(chunks, stops, opts), reference, `resuming from checkpoints after chunks [${[...stops].sort((a, b) => a - b)}] differs`)
}

export interface HostileResult {
  cases: number
  failed: boolean
  report: string | null
}

/** Runs {@link checkHostile} on `cases` random documents from `seed`; shrinks a failure. */
export function hostileFuzz(o: { cases: number; seed: number; timeLimitMs?: number; endings?: readonly Ending[] }): HostileResult {
  const { runs, failed, report } = fuzzProperty(hostileCase(o.endings), checkHostile, { runs: o.cases, seed: o.seed, timeLimitMs: o.timeLimitMs })
  return { cases: runs, failed, report }
}
