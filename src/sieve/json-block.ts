/**
 * The walk's handlers for a block that ends with its JSON
 * (`Grammar.blocks.json`, mode `jsonBlock`, tokens of
 * `lexer/json-tokens.ts`): the text after the opener goes into the capture
 * token by token, each token's payload the scanner's state after it, until
 * the value ends (the block is complete: read whole, like a closed block),
 * breaks (text, `malformed-block`) or turns out to follow a mere mention of
 * the opener (text, read again as prose from right after the opener). An
 * optional closer's start right after the value (`json.close`) is held, as
 * the pending tail, until it is whole or is not one.
 */
import { lineStateBefore } from '../lexer/context.js'
import { modes } from '../lexer/modes.js'
import { completeBlock, passOverflow, releaseCapture, type DriverCore } from './capture.js'
import { initialScan, jsonBefore, phases, type JsonRun, type JsonScan } from '../lexer/json-scan.js'
import type { JsonPart } from '../lexer/json-tokens.js'
import { appendRun, flushRun, type Capture, type Restart } from './state.js'

/** A capture for a block that ends with its JSON, opened by `opener` at `start`. */
export function jsonCapture(start: number, opener: Capture['tokens'][number], frame: string, lineState: number): Capture {
  // a block read whole: its first token is a literal opener, which the checkpoint's rules count as its invoke
  return { start, tokens: [opener], length: opener.image.length, invokeSeen: true, wrapper: true, overflow: false, paramSeen: false, lastClose: 0, frame, run: null, lineState, json: initialScan() }
}

/** A run's scanner state for the block being read, if any (`LexContext.json`): a copy of the capture's, and the bound on what may come before the value. */
export function jsonRunOf(d: DriverCore): JsonRun | null {
  const cap = d.s.capture
  if (cap === null || cap.json === undefined) return null
  return { scan: { ...cap.json }, before: jsonBeforeOf(d, cap) }
}

/** How many characters may come before the value of the block `cap` (`JsonRun.before`). */
export function jsonBeforeOf(d: DriverCore, cap: Capture): number {
  return jsonBefore(d.opts.captureLimit, cap.tokens[0]?.image.length ?? 0)
}

/**
 * One token of the block (`json-tokens.ts`) but a mention, at the driver's
 * position: its text goes into the capture and `scan` (its payload's) is
 * the scanner's state now; `why`: a broken value's reason. Returns whether the block is over (what follows is
 * read as prose, or as a message's start).
 */
export function jsonToken(d: DriverCore, part: Exclude<JsonPart, 'mention'>, image: string, scan: JsonScan | undefined, why?: string): boolean {
  const s = d.s
  const cap = s.capture!
  take(d, cap, image)
  if (scan !== undefined) cap.json = scan
  if (part === 'value' || (part === 'end' && (d.lexer.grammar.blocks!.json!.close ?? []).length > 0)) return false
  if (part === 'broken') {
    if (s.capture === cap && !cap.overflow) releaseCapture(d, 'malformed-block', why ?? '')
    s.capture = null
    s.mode = modes.prose
  } else finish(d, cap)
  return true
}

/**
 * The opener was only mentioned (nothing JSON-like followed it): it is
 * text, and what followed it (the capture's text after it, then `rest`,
 * what the run had left) is read again as prose reads it.
 */
export function jsonMention(d: DriverCore, rest: string): Restart {
  const s = d.s
  const cap = s.capture!
  flushRun(cap)
  const after = cap.tokens.slice(1).map((t) => t.image).join('') + rest
  const o = cap.tokens[0]!
  s.capture = null
  d.calls?.finish('malformed-block')
  d.out.text(o.image)
  s.mode = modes.prose
  return { text: after, base: cap.start + o.image.length, mode: modes.prose, md: s.md, lineState: cap.lineState, carry: null }
}

/** The stream ended inside a block that ends with its JSON: what it holds is text (a value it ended stays a block). Returns the pending text left to read as prose. */
export function endJsonBlock(d: DriverCore): string {
  const s = d.s
  const cap = s.capture!
  const st = cap.json!
  const tail = s.pending
  s.pending = ''
  if (st.phase === phases.after) finish(d, cap)
  else releaseCapture(d, st.phase >= phases.value && !cap.overflow ? 'unterminated-block' : null, 'the stream ended inside the block')
  s.mode = modes.prose
  return tail
}

/** Appends `piece` to the capture (out as text past the limit) and moves the driver's position past it. */
function take(d: DriverCore, cap: Capture, piece: string): void {
  if (piece === '') return
  const s = d.s
  s.lineState = lineStateBefore(piece, piece.length, s.lineState)
  s.pos += piece.length
  if (cap.overflow) {
    d.out.text(piece)
    return
  }
  // a value in many small chunks is one token, made once (docs/STYLE.md §5: join once)
  appendRun(cap, d.lexer.typeByName.get(`${modes.jsonBlock}.Value`)!, piece)
  cap.length += piece.length
  if (cap.length > d.opts.captureLimit) {
    flushRun(cap)
    passOverflow(d, cap)
  }
}

/** The value ended (with its closer, if any): the block is read whole, or was text already (over the limit). */
function finish(d: DriverCore, cap: Capture): void {
  const s = d.s
  flushRun(cap)
  s.mode = modes.prose
  if (cap.overflow) s.capture = null
  // a block at the message start that gave calls: a separator and another value may go on with them (`{…}; {…}`)
  else if (completeBlock(d, cap) && cap.tokens[0]?.tokenType.name === anchorOpen && (d.lexer.grammar.blocks?.json?.anchored?.separator ?? []).length > 0) s.started = 'separator'
}

/** The type name of the opener of a block anchored at the message start (`lexer/start-tokens.ts`): empty, an optional opener, or a separator and blanks. */
export const anchorOpen = `${modes.jsonBlock}.AnchorOpen`
