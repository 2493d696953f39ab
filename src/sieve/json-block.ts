/**
 * The driver's reading of a block that ends with its JSON
 * (`Grammar.blocks.json`, mode `jsonBlock`): the text after the opener goes
 * through the scanner (`json-scan.ts`) as it comes, into the capture, until
 * the value ends (the block is complete: read whole, like a closed block),
 * breaks (text, `malformed-block`) or turns out to follow a mere mention of
 * the opener (text, read again as prose from right after the opener). An
 * optional closer right after the value (`json.close`) is held, as the
 * pending tail, until it is whole or is not one.
 */
import { lineStateBefore } from '../lexer/context.js'
import { modes } from '../lexer/modes.js'
import { completeBlock, passOverflow, releaseCapture, type DriverCore } from './capture.js'
import { initialScan, maxBefore, phases, scanCommitted, scanJson } from './json-scan.js'
import { appendRun, flushRun, type Capture, type Restart } from './state.js'

/** What is left after a piece of a JSON block's text: text to read on from the driver's position, a restart, or nothing. */
export type JsonStep = { rest: string } | { restart: Restart } | null

/** A capture for a block that ends with its JSON, opened by `opener` at `start`. */
export function jsonCapture(start: number, opener: Capture['tokens'][number], frame: string, lineState: number): Capture {
  // a block read whole: its first token is a literal opener, which the checkpoint's rules count as its invoke
  return { start, tokens: [opener], length: opener.image.length, invokeSeen: true, wrapper: true, overflow: false, paramSeen: false, lastClose: 0, frame, run: null, lineState, json: initialScan() }
}

/**
 * Reads `text`, which starts at the driver's position with the pending tail
 * (an optional closer's start) in it, in mode `jsonBlock`.
 */
export function readJsonText(d: DriverCore, text: string): JsonStep {
  const s = d.s
  const cap = s.capture!
  const st = cap.json!
  const spec = d.lexer.grammar.blocks!.json!
  s.pending = ''
  if (st.phase === phases.after) return closer(d, cap, text, spec.close ?? [])
  const opener = cap.tokens[0]?.image.length ?? 0
  // what comes before the value stays within the capture limit: only a value goes over it
  const before = Math.max(1, Math.min(maxBefore, d.opts.captureLimit - opener - 1))
  const r = scanJson(st, text, 0, spec, before)
  if (r.kind === 'more') {
    take(d, cap, text)
    return null
  }
  if (r.kind === 'text') {
    flushRun(cap)
    // a mention of the opener: it is text, and what followed it is read again as prose reads it
    const after = cap.tokens.slice(1).map((t) => t.image).join('') + text
    const o = cap.tokens[0]!
    s.capture = null
    d.calls?.finish('malformed-block')
    d.out.text(o.image)
    s.mode = modes.prose
    return { restart: { text: after, base: cap.start + o.image.length, mode: modes.prose, md: s.md, lineState: cap.lineState, carry: null } }
  }
  take(d, cap, text.slice(0, r.at))
  if (r.kind === 'broken') {
    if (s.capture === cap && !cap.overflow) releaseCapture(d, 'malformed-block', r.why)
    s.capture = null
    s.mode = modes.prose
  } else if ((spec.close ?? []).length === 0) finish(d, cap)
  const rest = text.slice(r.at)
  return rest === '' ? null : { rest }
}

/** The stream ended inside a block that ends with its JSON: what it holds is text (a value it ended stays a block). Returns the pending text left to read as prose. */
export function endJsonBlock(d: DriverCore): string {
  const s = d.s
  const cap = s.capture!
  const st = cap.json!
  const tail = s.pending
  s.pending = ''
  if (st.phase === phases.after) finish(d, cap)
  else releaseCapture(d, scanCommitted(st) && !cap.overflow ? 'unterminated-block' : null, 'the stream ended inside the block')
  s.mode = modes.prose
  return tail
}

/** After the value: one of `closers` right there is part of the block; anything else ends the block at the value and is read as prose. */
function closer(d: DriverCore, cap: Capture, text: string, closers: readonly string[]): JsonStep {
  const s = d.s
  if (text === '') return null
  let k = 0
  while (k < text.length && closers.some((c) => c.length > k && c.startsWith(text.slice(0, k + 1)))) {
    k++
    const whole = text.slice(0, k)
    if (closers.includes(whole)) {
      take(d, cap, whole)
      finish(d, cap)
      const rest = text.slice(k)
      return rest === '' ? null : { rest }
    }
  }
  if (k === text.length && k > 0) {
    // a closer's start the text ends in: held, undecided, as the lexer holds a tag's
    s.pending = text
    return null
  }
  finish(d, cap)
  return text === '' ? null : { rest: text }
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
  appendRun(cap, d.lexer.typeByName.get(`${modes.jsonBlock}.ValueText`)!, piece)
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

/** The type name of the opener of a block anchored at the message start (`lexer/tokens.ts`). */
const anchorOpen = `${modes.jsonBlock}.AnchorOpen`
