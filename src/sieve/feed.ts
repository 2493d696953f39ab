/**
 * How the answer's chunks are read (`README.md` here draws it): a chunk's
 * first reading goes by what the last chunk's edge left in `DriverState`
 * (deferred attribute text, a carried run, a pending tail), and what a
 * fast-path answer leaves of it is read on as a chunk of its own, in one
 * loop, until the lexer takes the rest or nothing is left.
 */
import { modes, type ModeName } from '../lexer/modes.js'
import type { TailState } from '../lexer/tail.js'
import { extendCandidate } from '../lexer/line-cursor.js'
import { codeAt } from '../lexer/codes.js'
import type { Deferral } from './deferral.js'
import { settleAtBoundary, type BoundaryHost } from './boundary.js'
import { apply, lexed, type ApplyHost } from './apply.js'
import { atStart, json, startsOpen, type JsonReadHost } from './json-reading.js'
import { deferChunk, deferText, holdCandidateTail } from './chunk-edge.js'

/** What reading a chunk needs of the driver: the readings' hosts, the deferral, and where the pending tail stands. */
export interface FeedHost extends JsonReadHost, ApplyHost, Pick<BoundaryHost, 'guard'> {
  readonly deferral: Deferral
  /** Where the pending tail stands in the delimiters it may become (see `Driver.tail`). */
  readonly tail: TailState | null
}

/**
 * The answer's next chunk (after any reasoning): its first reading goes by
 * what the last chunk left (a deferred tag, a carried run, a pending
 * tail); what a fast-path answer leaves of it is a chunk of its own,
 * read in this loop (4,000 fence lines in one chunk are 4,000 turns of
 * it, never as many stack frames) until the lexer takes the rest or
 * nothing is left.
 */
export function feed(d: FeedHost, chunk: string): void {
  let rest = d.s.mode === modes.jsonBlock ? json(d, chunk) : startsOpen(d) ? atStart(d, chunk) : begin(d, chunk)
  while (rest !== null) {
    // at the message's start, or right after a block there: a value may open a block
    if (startsOpen(d)) {
      rest = atStart(d, rest)
      continue
    }
    // inside a block that ends with its JSON: its own run, whose end hands the rest back here
    if (d.s.mode === modes.jsonBlock) {
      rest = json(d, rest)
      continue
    }
    // a tag's span was lexed before `rest`, and left something for it to decide with: read as a chunk's start is
    if (d.s.pending !== '' || d.s.carry !== null) {
      rest = begin(d, rest)
      continue
    }
    const a = d.fast.chunk(rest)
    if (a === null) return void lexed(d, rest)
    const next = apply(d, a, rest)
    // every answer of `chunk` reads something (plain text, a token, a held tail); should one not, the lexer
    // takes the rest rather than the loop asking again forever
    if (next === rest) return void lexed(d, rest)
    rest = next
  }
}

/** The first reading of `chunk`; returns what is left of it to read as a chunk of its own, or null: nothing. */
function begin(d: FeedHost, chunk: string): string | null {
  const s = d.s
  if (s.capture !== null && s.carry === null && s.capture.length + s.pending.length + chunk.length <= d.opts.captureLimit) {
    // inside a tag's attributes: a chunk that cannot end or break the tag waits for one that can (see `deferral.ts`)
    const deferred = d.deferral.wait(s.mode, s.pending, s.deferred, chunk)
    if (deferred !== null) {
      deferChunk(d, chunk, deferred)
      return null
    }
    // the deferred tag can wait no longer: in its common shape it is read without the lexer
    if (s.deferred !== null && s.pending !== '') {
      const text = s.pending + chunk
      const a = d.fast.readTag(text)
      if (a !== null) return apply(d, a, text)
    }
  }
  // a carried run: a lexer run's boundary decides where it ends (`boundary.ts`). Outside captures and holds, one
  // that ended at the chunk's edge is decided there as a run's boundary would, and the chunk reads on as any
  // other; one that all of the chunk continues is carried on
  if (s.carry !== null) {
    if (s.hold !== null || s.capture !== null || s.pending !== '') return lexed(d, chunk)
    if (codeAt(chunk, 0) === s.carry.ch) return apply(d, d.fast.runGoesOn(chunk), chunk)
    settleAtBoundary(d, chunk, false)
  }
  if (s.pending === '') {
    const a = d.fast.chunk(chunk)
    return a === null ? lexed(d, chunk) : apply(d, a, chunk)
  }
  // a pending tail: the answers below read it and the chunk joined
  const text = s.pending + chunk
  const a = d.fast.extendTail(chunk, text)
  if (a !== null && a.then !== 'defer') return apply(d, a, text)
  if (a !== null && deferTag(d, a.deferMode!, text, a.end)) return null
  // the held candidate run's tag or autolink is still open after `chunk`: hold it too, without lexing
  const c = s.candidate
  if (c !== null && extendCandidate(c, chunk)) {
    holdCandidateTail(d, text)
    return null
  }
  // a tail the lexer held that the tail matcher cannot follow (line-start blanks or a list marker a fence might
  // have followed, a closer that spells another opener): the tail and the chunk are read as one chunk would be,
  // nothing pending, as the lexer reads them (a held tail is a chunk edge)
  if (c === null && s.deferred === null && d.tail === null) {
    // the fast path's chunk reading never reads `pending`; applying the answer clears it
    const b = d.fast.chunk(text)
    if (b !== null) return apply(d, b, text)
  }
  return lexed(d, chunk)
}

/** Hold `text`, an opening tag pushing `tagMode` whose name ends at `nameEnd`, unlexed if the rest can wait (`deferral.ts`). */
function deferTag(d: FeedHost, tagMode: ModeName, text: string, nameEnd: number): boolean {
  const s = d.s
  if (s.capture!.length + text.length > d.opts.captureLimit) return false
  const deferred = d.deferral.opener(s.mode, tagMode, text, nameEnd)
  if (deferred === null) return false
  deferText(d, text, deferred)
  return true
}
