/**
 * How a capture ends: a complete block becomes calls (or is released as
 * malformed), a capture that stops fitting a block is released as text, one
 * that grows past the limit passes out as text to its closer, and one the
 * stream cuts keeps its complete invokes (the `unclosedWrapper` repair).
 */
import type { IToken } from 'chevrotain'
import { tagKey } from '../lexer/context.js'
import { readTagHead, stringFlagOf } from '../parser/tag-attributes.js'
import type { CategoryName } from '../lexer/kinds.js'
import { literalFrame } from '../lexer/tokens.js'
import { modes } from '../lexer/modes.js'
import { tagModeRole } from '../lexer/structure.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { categoryOf, tokenOf, unplaced } from '../lexer/token-instance.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { buildCalls, type BlockOutcome } from './calls.js'
import type { Emitter } from './emitter.js'
import type { CallStream } from './call-stream.js'
import { flushRun, type Capture, type DriverOptions, type DriverState } from './state.js'

/** The parts of the driver a capture outcome touches. */
export interface DriverCore {
  s: DriverState
  readonly out: Emitter
  readonly stats: SieveStats
  readonly opts: DriverOptions
  readonly lexer: CompiledLexer
  /** With `streamArguments`: the capture's calls as they are streamed; null without. */
  readonly calls: CallStream | null
  diagnostic(code: DiagnosticCode, message: string, start: number, end: number): void
}

/** The images of `tokens[from..to)`, joined. */
export function joined(tokens: readonly IToken[], from = 0, to = tokens.length): string {
  // concatenation, not map and join: a block is a few dozen short images, and V8 joins those lazily
  let out = ''
  for (let i = from; i < to; i++) out += tokens[i]!.image
  return out
}

/** The calls of a parsed block, each followed by the problems it was emitted despite; false: the block went out as text. */
function emitCalls(d: DriverCore, cap: Capture, tokens: readonly IToken[], text: string, outcome: BlockOutcome & { ok: true }): boolean {
  d.s.sawSyntax = true
  const quoted = d.opts.quoted
  if (quoted !== null && quoted.anyOf(outcome.calls)) {
    // the model repeating a block of the user's own message: an example, not a call
    d.calls?.finish('quoted-example')
    d.out.text(text)
    d.diagnostic('quoted-example', 'block released as text: a call in it is one of the calls in a quoted text', cap.start, cap.start + text.length)
    return false
  }
  if (d.calls !== null && !d.calls.complete(cap.start, tokens, outcome.calls)) {
    d.out.text(text)
    d.diagnostic('streamed-arguments-changed', 'block released as text: a call\'s arguments do not continue what was streamed of them (a parameter given twice?)', cap.start, cap.start + text.length)
    return false
  }
  d.opts.onBlock?.(outcome.calls)
  // the ids the calls took from their markup are the stream's now (a block that went out as text took none)
  if (outcome.modelIds !== undefined) {
    const given = (d.s.modelIds ??= [])
    for (const id of outcome.modelIds) given.push(id)
  }
  for (const c of outcome.calls) {
    d.out.event(c)
    // a call emitted despite problems (`onInvalid: 'emit'`): each problem follows it as an event too
    if (c.diagnostics !== undefined) for (const e of c.diagnostics) d.out.event(e)
  }
  return true
}

/** A block that did not become calls: its markup as text, and why. */
function emitFailed(d: DriverCore, cap: Capture, text: string, outcome: BlockOutcome & { ok: false }): void {
  d.calls?.finish(outcome.diagnostics?.[0]?.code ?? 'malformed-block', 0, outcome.diagnostics)
  d.out.text(text)
  // a call rejected by `onInvalid: 'reject'` says why in its own diagnostics
  if (outcome.diagnostics !== undefined) for (const e of outcome.diagnostics) d.out.event(e)
  // an empty wrapper (`<tool_calls></tool_calls>`) is a mention, not a broken call
  else if (cap.invokeSeen) d.diagnostic('malformed-block', `block released as text: ${outcome.reason}`, cap.start, cap.start + text.length)
}

export function completeBlock(d: DriverCore, cap: Capture): boolean {
  d.s.capture = null
  d.stats.blocksParsed++
  const text = joined(cap.tokens)
  const outcome = buildCalls(d.lexer, cap.tokens, text, cap.start, d.opts, d.calls?.known(cap.start, cap.tokens), d.s.modelIds)
  const called = outcome.ok && emitCalls(d, cap, cap.tokens, text, outcome)
  if (!outcome.ok) emitFailed(d, cap, text, outcome)
  // (every started call has ended by now: this only forgets the block)
  d.calls?.finish('malformed-block', outcome.ok ? outcome.calls.length : 0)
  const cut = cap.repairedCdata
  // the repair is reported with the calls it made; a block released as text (a quoted example) repaired nothing
  if (called && cut !== undefined) d.diagnostic('repaired-cdata', 'a CDATA section had no ]]> when the stream ended: it was cut at its parameter\'s closer', cut.start, cut.end)
  return called
}

/**
 * The stream ended inside a CDATA section of a plain value (`unclosedCdata`
 * repair): the section is cut at the first parameter closer in it, and what
 * follows that closer is returned, to be lexed as the rest of the block. Only
 * a block that then completes becomes calls. null: nothing to repair.
 */
export function cutCdata(d: DriverCore): { text: string; base: number } | null {
  const cap = d.s.capture
  const repairs = d.lexer.grammar.repairs as { unclosedCdata?: boolean } | undefined
  if (cap === null || cap.overflow || d.s.mode !== modes.cdata || repairs?.unclosedCdata === false) return null
  flushRun(cap)
  let k = cap.tokens.length - 1
  // (the stream's end may have added an Incomplete token for a held `]`: of the category's own type)
  while (k >= 0 && categoryOf(d.lexer, cap.tokens[k]!) !== 'CDataOpen') k--
  if (k < 0) return null
  const content = joined(cap.tokens, k + 1)
  let at = -1
  for (let i = content.indexOf('<'); i >= 0 && at < 0; i = content.indexOf('<', i + 1)) {
    for (const c of d.lexer.paramCloses) {
      c.sticky.lastIndex = i
      if (c.sticky.test(content)) {
        at = i
        break
      }
    }
  }
  if (at < 0) return null
  const kept = cap.tokens.slice(0, k + 1)
  const head = joined(kept).length
  const open = cap.start + head - kept[k]!.image.length
  // the section's tokens are rewritten from here: a streamed reading of them reads the new ones
  d.calls?.rewind(k + 1, cap.start + head)
  if (at > 0) kept.push(tokenOf(d.lexer.typeByName.get('CDataText')!, content.slice(0, at), unplaced))
  kept.push(tokenOf(d.lexer.typeByName.get('CDataClose')!, '', unplaced))
  cap.tokens = kept
  cap.length -= content.length - at
  cap.repairedCdata = { start: open, end: cap.start + cap.length }
  d.s.mode = modes.value
  return { text: content.slice(at), base: cap.start + cap.length }
}

/**
 * Failing from here on means a block broke, not that a tag was mentioned:
 * a wrapper with an invoke in it, or a bare invoke (the missing-wrapper
 * repair) with a parameter or its closer, or any capture over the limit.
 */
export function committed(cap: Capture): boolean {
  return cap.overflow || (cap.wrapper ? cap.invokeSeen : cap.paramSeen || cap.lastClose > 0)
}

/** The capture goes out as text (`head` alone: the rest is lexed again, `walk.ts`), with a diagnostic when `code` is given. */
export function releaseCapture(d: DriverCore, code: DiagnosticCode | null, why: string, head?: string): void {
  const cap = d.s.capture!
  flushRun(cap)
  d.s.capture = null
  d.s.raw = null
  d.calls?.finish(code ?? 'malformed-block')
  const text = head ?? joined(cap.tokens)
  d.out.text(text)
  if (code !== null) d.diagnostic(code, `block released as text: ${why}`, cap.start, cap.start + text.length)
}

const openers: ReadonlySet<CategoryName> = new Set<CategoryName>(['WrapperOpen', 'InvokeOpen', 'ParamOpen'])

/**
 * A capture went over the limit (or already had): the whole block is text.
 * What it holds goes out now, except the tokens of a tag still open (its
 * `string` attribute decides how its value is read); the capture goes on
 * following the block to its closer, so nothing inside it is ever scanned
 * as a block of its own, with memory bounded by the limit.
 */
export function passOverflow(d: DriverCore, cap: Capture): void {
  const limit = d.opts.captureLimit
  if (!cap.overflow) {
    cap.overflow = true
    cap.lastClose = 0
    d.calls?.finish('capture-limit')
    // the span is the first character over the limit: the same for every chunking
    d.diagnostic('capture-limit', `capture grew past ${limit} characters; the whole block is released as text`, cap.start, cap.start + limit + 1)
  }
  const tokens = cap.tokens
  let keep = tokens.length
  // inside an opening tag a capture over the limit keeps the tag's tokens until its end
  if (tagModeRole.has(d.s.mode)) {
    keep = tokens.length - 1
    while (keep > 0 && !openers.has(categoryOf(d.lexer, tokens[keep]!))) keep--
  }
  let kept = 0
  for (let i = keep; i < tokens.length; i++) kept += tokens[i]!.image.length
  // a tag longer than the limit by itself: out it goes too, and its value is read as any other
  if (kept > limit) {
    keep = tokens.length
    kept = 0
  }
  if (keep === 0) return
  d.out.text(joined(tokens, 0, keep))
  cap.tokens = keep === tokens.length ? [] : tokens.slice(keep)
  cap.length = kept
}

/**
 * The `string` attribute of the parameter tag the capture's last tokens
 * are (from its opener to its end): its opener's {@link tagKey} when the
 * attribute says `true` or `false` (the value is DeepSeek-native and read
 * exactly), else null. The tag is read as the block parser reads it
 * (`readTagHead`): a value a chunk edge split into two words is one.
 */
export function stringValueKey(d: DriverCore, tokens: IToken[]): string | null {
  const i = lastParamOpen(d, tokens)
  if (i < 0) return null
  if (d.opts.values.rawValues === true) return tagKey(tokens[i]!.image)
  const attrs = readTagHead(d.lexer, tokens, i, tokens.length, 'ParamOpen')
  return attrs !== null && stringFlagOf(attrs, d.opts.values.stringAttr) !== null ? tagKey(tokens[i]!.image) : null
}

/** Index in `tokens` of the last parameter opener, or -1. */
export function lastParamOpen(d: { lexer: CompiledLexer }, tokens: readonly IToken[]): number {
  let i = tokens.length - 1
  while (i >= 0 && categoryOf(d.lexer, tokens[i]!) !== 'ParamOpen') i--
  return i
}

/**
 * The stream ended inside a block. A capture over the limit already went
 * out; otherwise its complete invokes become calls (`unclosed-wrapper`)
 * and the unfinished rest is text (`unterminated-block`), or the whole
 * capture is text when there is no complete invoke.
 */
export function endCapture(d: DriverCore): void {
  const cap = d.s.capture!
  flushRun(cap)
  const repair = (d.lexer.grammar.repairs as { unclosedWrapper?: boolean } | undefined)?.unclosedWrapper !== false
  if (repair && !cap.overflow && cap.json === undefined && d.opts.readWhole?.endsCalls === true && d.lexer.infoByIdx[cap.tokens[0]!.tokenTypeIdx]?.frame === literalFrame && endWhole(d, cap)) return
  // a cut CDATA repairs only a block that is otherwise complete
  if (cap.overflow || cap.lastClose === 0 || !repair || cap.repairedCdata !== undefined) {
    const why = 'the stream ended inside the block'
    return releaseCapture(d, !cap.overflow && (cap.wrapper || committed(cap)) ? 'unterminated-block' : null, why)
  }
  d.s.capture = null
  d.s.raw = null
  d.stats.blocksParsed++
  const done = cap.tokens.slice(0, cap.lastClose)
  // the closer the stream never brought, as an empty token: the raw markup of the calls stays exactly the input's
  done.push(tokenOf(d.lexer.typeByName.get('WrapperClose')!, '', unplaced))
  const head = joined(done)
  const outcome = buildCalls(d.lexer, done, head, cap.start, d.opts, d.calls?.known(cap.start, done), d.s.modelIds)
  if (!outcome.ok) {
    emitFailed(d, cap, head, outcome)
  } else {
    emitCalls(d, cap, done, head, outcome)
    // the invoke the stream cut, if it had started, ends here
    d.calls?.finish('unterminated-block', outcome.calls.length)
    // an empty span where the wrapper's closer is missing: the calls' own spans cover their markup
    const at = cap.start + head.length
    d.diagnostic('unclosed-wrapper', 'the stream ended before the block closed: its complete invokes became calls', at, at)
  }
  const rest = joined(cap.tokens, cap.lastClose)
  if (rest === '') return
  d.out.text(rest)
  if (rest.trim() !== '') d.diagnostic('unterminated-block', 'the stream ended inside the block: its unfinished rest was released as text', cap.start + head.length, cap.start + head.length + rest.length)
}

/**
 * The stream ended inside a block read whole (`unclosedWrapper` repair, as
 * for a tag block's complete invokes): when the pack's reader reads it with
 * one of the grammar's closers after it, its calls go out, with an empty
 * `unclosed-wrapper` span where the closer is missing (a Hermes call whose
 * JSON is whole, the stop token cut off). Arguments the stream cut do not
 * read, and the block is text as before. false: not read.
 */
function endWhole(d: DriverCore, cap: Capture): boolean {
  const text = joined(cap.tokens)
  for (const close of d.lexer.grammar.blocks?.close ?? []) {
    const outcome = buildCalls(d.lexer, cap.tokens, text + close, cap.start, d.opts, d.calls?.known(cap.start, cap.tokens), d.s.modelIds)
    if (!outcome.ok) continue
    // the closer was never in the input: the last call's markup ends where the input did
    const last = outcome.calls[outcome.calls.length - 1]!
    last.raw = last.raw.slice(0, last.raw.length - close.length)
    last.span = { start: last.span.start, end: last.span.end - close.length }
    d.s.capture = null
    d.s.raw = null
    d.stats.blocksParsed++
    emitCalls(d, cap, cap.tokens, text, outcome)
    d.calls?.finish('unterminated-block', outcome.calls.length)
    const at = cap.start + text.length
    d.diagnostic('unclosed-wrapper', 'the stream ended before the block closed: the calls it holds became calls', at, at)
    return true
  }
  return false
}
