/**
 * How a capture ends: a complete block becomes calls (or is released as
 * malformed), a capture that stops fitting a block is released as text, and
 * one that grows past the limit releases its opener and scanning resumes.
 */
import type { IToken } from 'chevrotain'
import { freshMarkdown, lineStateBefore } from '../lexer/context.js'
import { modes } from '../lexer/modes.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { buildCalls } from './block.js'
import type { Emitter } from './emitter.js'
import { flushRun, type Capture, type DriverOptions, type DriverState, type Restart } from './state.js'

/** The parts of the driver a capture outcome touches. */
export interface DriverCore {
  s: DriverState
  readonly out: Emitter
  readonly stats: SieveStats
  readonly opts: DriverOptions
  diagnostic(code: DiagnosticCode, message: string, start: number, end: number): void
}

export function completeBlock(d: DriverCore, cap: Capture): void {
  const s = d.s
  s.capture = null
  d.stats.blocksParsed++
  const outcome = buildCalls(cap.tokens, cap.start, d.opts)
  if (!outcome.ok) {
    d.out.text(cap.tokens.map((t) => t.image).join(''))
    // a call rejected by `onInvalid: 'reject'` says why in its own diagnostics
    if (outcome.diagnostics !== undefined) for (const e of outcome.diagnostics) d.out.event(e)
    // an empty wrapper (`<tool_calls></tool_calls>`) is a mention, not a broken call
    else if (cap.invokeSeen) d.diagnostic('malformed-block', `block released as text: ${outcome.reason}`, cap.start, cap.start + cap.length)
    return
  }
  s.sawSyntax = true
  for (const c of outcome.calls) {
    d.out.event(c)
    // a call emitted despite problems (`onInvalid: 'emit'`): each problem follows it as an event too
    if (c.diagnostics !== undefined) for (const e of c.diagnostics) d.out.event(e)
  }
}

export function releaseCapture(d: DriverCore, code: DiagnosticCode | null, why: string): void {
  const cap = d.s.capture!
  flushRun(cap)
  d.s.capture = null
  d.out.text(cap.tokens.map((t) => t.image).join(''))
  if (code !== null) d.diagnostic(code, `block released as text: ${why}`, cap.start, cap.start + cap.length)
}

/**
 * A capture went over the limit. Its opener goes out as text and scanning
 * resumes right after it, so a real block inside the released text is
 * still found — for a capture that began in such a rescan too (a wrapper
 * mention, then a bare invoke with an unclosed CDATA). A third link of that
 * chain is released whole up to the limit instead: each link costs up to
 * the limit again, and unbounded chains are quadratic.
 */
export function captureLimit(d: DriverCore, cap: Capture, text: string, tok: IToken): Restart {
  const s = d.s
  const limit = d.opts.captureLimit
  s.capture = null
  const end = cap.start + limit + 1
  const rest = text.substring(tok.startOffset + tok.image.length)
  if (cap.depth >= 2) {
    // the span and the cut are the first character over the limit: the same for every chunking
    d.diagnostic('capture-limit', `capture grew past ${limit} characters; released as text up to the limit`, cap.start, end)
    const captured = cap.tokens.map((t) => t.image).join('')
    d.out.text(captured.slice(0, limit + 1))
    return { text: captured.slice(limit + 1) + rest, base: end, mode: modes.prose, md: freshMarkdown(), lineState: lineStateBefore(captured, limit + 1, cap.lineState), carry: null }
  }
  d.diagnostic('capture-limit', `capture grew past ${limit} characters; its opener was released as text and scanning resumed after it`, cap.start, end)
  s.rescans.push({ end, depth: cap.depth })
  const opener = cap.tokens[0]!
  d.out.text(opener.image)
  const captured = cap.tokens.slice(1).map((t) => t.image).join('')
  // the opener's name ends the opener, so what follows starts mid-line
  return { text: captured + rest, base: cap.start + opener.image.length, mode: modes.prose, md: freshMarkdown(), lineState: cap.lineState, carry: null }
}
