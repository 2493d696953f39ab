/**
 * What a restored checkpoint state can be, beyond its shape
 * (`checkpoint-shape.ts`): ranges, enums, and the fields agreeing with each
 * other and with the capture's tokens. A checkpoint edited by hand or
 * corrupted in storage is refused here (`invalid-checkpoint` naming the
 * field), never left to end in an `internal-error` or a push that never
 * returns. Each rule is one the driver keeps at every point between pushes.
 */
import { fail } from './checkpoint-shape.js'
import { anchorOpen } from './json-block.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { literalFrame } from '../lexer/tokens.js'
import { tagKey } from '../lexer/context.js'
import { isLineState } from '../lexer/lines.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { captureModes } from '../lexer/structure.js'
import { candidateLookahead } from '../lexer/line-cursor.js'
import { bodyPlaces, places, type Place } from './deferral.js'
import { categoryOf } from '../lexer/token-instance.js'
import { commentLevel, isCodeLevel } from '../lexer/html.js'
import type { CallStreamState } from './call-stream-state.js'
import type { DriverState } from './state.js'
import { maxBefore, maxJsonDepth, phases } from '../lexer/json-scan.js'
import { codeAt } from '../lexer/codes.js'
import { lastParamOpen } from './capture.js'
import { maxModelIds, modelIdProblem } from './ids.js'

/** What the rules need of the sieve resuming. */
export interface RuleContext {
  lexer: CompiledLexer
  captureLimit: number
}

function check(ok: boolean, field: string, what: string): void {
  if (!ok) fail(field, what)
}

/** What `lexer/lines.ts` says a line state can be (bits 0-30; position 3 is right after a CR). */
function lineState(v: number, field: string): void {
  check(isLineState(v), field, `is not a line state (${v})`)
}

const backtick = 0x60
const tilde = 0x7e
/** Far past any real nesting, and small enough that the counts stay cheap. */
const maxDepth = 1 << 20
const holdModes: ReadonlySet<ModeName> = new Set([modes.spanHold, modes.fenceInfoHold, modes.spanHoldFenceInfo])

/** Throws `invalid-checkpoint` unless `s` (at `at`: '' or 'reasoning.inner.') is a state the driver can be in. */
export function checkStateRules(s: DriverState, ctx: RuleContext, at = ''): void {
  const f = (name: string): string => at + name
  const md = s.md
  check(md.levels.every((n) => Number.isInteger(n) && ((n >= 1 && n <= maxDepth) || isCodeLevel(n) || n === commentLevel)), f('md.levels'), 'holds something not a run length, `<code>` (one level for a run of them) or a comment')
  check(md.levels.length <= maxDepth, f('md.levels'), 'is too long')
  check(md.holdDepth <= md.levels.length, f('md.holdDepth'), 'is deeper than the open levels')
  check(md.fenceCh === 0 || md.fenceCh === backtick || md.fenceCh === tilde, f('md.fenceCh'), 'is not a fence character')
  check(md.fenceCh === 0 ? md.fenceLen === 0 : md.fenceLen >= 3 && md.fenceLen <= maxDepth, f('md.fenceLen'), 'does not fit the fence character')
  check(md.fenceDepth <= maxDepth && md.fenceIndent <= maxDepth, f('md.fenceDepth'), 'is out of range')
  lineState(s.lineState, f('lineState'))
  if (s.carry !== null) {
    check(s.carry.ch === backtick || s.carry.ch === tilde, f('carry.ch'), 'is not a run character')
    check(s.carry.len >= 1 && s.carry.len <= maxDepth, f('carry.len'), 'is out of range')
    check(s.carry.indent >= -1 && s.carry.indent <= maxDepth, f('carry.indent'), 'is out of range')
  }
  check(s.noHoldUntil >= -1, f('noHoldUntil'), 'is below -1')
  if (s.paragraphEnd !== null) check(s.paragraphEnd.at >= -1 && s.paragraphEnd.halts <= maxDepth, f('paragraphEnd'), 'is out of range')
  const anchored = ctx.lexer.grammar.blocks?.json?.anchored
  check(s.started === undefined || anchored !== undefined, f('started'), 'is set, and the grammar has no blocks anchored at the message start')
  if (anchored !== undefined && s.started !== true) {
    // still at the message start: nothing but blanks went out, an optional opener's start may wait
    check(s.capture === null && s.hold === null && s.mode === modes.prose && s.carry === null && s.deferred === null && s.candidate === null, f('started'), 'is missing past the message start')
    // at the start an optional opener's start; after a block, a separator's start, or a separator and blanks
    // (after the blanks of its line, which wait with it: at most three columns of them before a value)
    const indent = /^[ \t]*/.exec(s.pending)![0]
    const rest = s.pending.slice(indent.length)
    const held = indent.length <= maxBefore && (rest === '' || (s.started === 'separator' ? (anchored.separator ?? []).some((o) => (o.startsWith(rest) && o !== rest) || (rest.startsWith(o) && rest.length <= maxBefore && rest.slice(o.length).trim() === '')) : (anchored.open ?? []).some((o) => o.startsWith(rest) && o !== rest)))
    check(s.pending === '' || held, f('pending'), 'is not the start of an opener at the message start')
    check(s.started !== 'separator' || (anchored.separator ?? []).length > 0, f('started'), 'is after a block, and the grammar has no separators between blocks')
  }
  const inCapture = captureModes.has(s.mode)
  check(inCapture === (s.capture !== null), f('mode'), s.capture === null ? `is a block's (${s.mode}) with no capture` : `is not a block's (${s.mode}) with a capture`)
  check((s.mode === modes.skip) === (s.skip !== null), f('skip'), s.skip === null ? 'is missing in skip mode' : 'is set outside skip mode')
  if (s.skip !== null) {
    check(s.skip.depth >= 1 && s.skip.depth <= maxDepth, f('skip.depth'), 'is out of range')
    check(s.skip.frame === '*' || frames(ctx.lexer).has(s.skip.frame), f('skip.frame'), 'is not a frame of the grammar')
  }
  if (s.hold !== null) {
    const h = s.hold
    check(s.capture === null, f('hold'), 'is set with a capture')
    // a hold given up (over the limit) went out as text and holds nothing more
    check(h.givenUp || (h.parts.length > 0 && h.parts[0] !== ''), f('hold.parts'), 'is empty')
    check(h.givenUp || h.length === h.parts.reduce((n, p) => n + p.length, 0), f('hold.length'), 'does not match its parts')
    check(h.givenUp || h.start + h.length <= s.pos, f('hold.start'), 'runs past the position')
    lineState(h.lineState, f('hold.lineState'))
  } else check(!holdModes.has(s.mode), f('mode'), `is a hold's (${s.mode}) with no hold`)
  check(s.raw === null || (s.mode === modes.rawValue && s.raw !== ''), f('raw'), 'is set outside a raw value')
  if (s.deferred !== null) {
    // only a capture's pending text waits unlexed, read from where it stands
    check(s.capture !== null && s.pending !== '', f('deferred'), 'is set with no pending text in a capture')
    check(places.includes(s.deferred.place as Place), f('deferred.place'), 'is not a place in a tag')
    check(bodyPlaces.includes(s.deferred.body as Place), f('deferred.body'), 'is not a value or a body')
    check(s.deferred.mode === s.mode, f('deferred.mode'), 'is not the mode')
  }
  if (s.candidate !== null) {
    const c = s.candidate
    check(s.capture === null && s.pending !== '', f('candidate'), 'is set with no pending text outside a capture')
    check(c.read <= candidateLookahead && c.runLength >= -1 && c.runLength <= c.read, f('candidate.read'), 'is out of range')
    // the levels a backtick run could close: run lengths, a `<code>` level or a comment's, as `md.levels` holds them
    check(c.run === null || c.run.closes.every((n) => Number.isInteger(n) && ((n >= 1 && n <= maxDepth) || isCodeLevel(n) || n === commentLevel)), f('candidate.run'), 'holds a level that is not a run length, `<code>` or a comment')
    lineState(c.state, f('candidate.state'))
  }
  if (s.capture !== null) checkCapture(s, ctx, at)
  if (s.calls !== null) checkCalls(s.calls, s, at)
  if (s.modelIds !== undefined) {
    // ids the sieve gave out as they were: each one it could pass on (`modelCallId`), none twice
    check(s.modelIds.every((id) => id !== '' && modelIdProblem(id) === null), f('modelIds'), 'holds an id the sieve would not give a call')
    check(new Set(s.modelIds).size === s.modelIds.length, f('modelIds'), 'holds an id twice')
    check(s.modelIds.length <= maxModelIds, f('modelIds'), `holds more than the ${maxModelIds} ids the sieve remembers`)
  }
}

function frames(lexer: CompiledLexer): Set<string> {
  const out = new Set<string>([''])
  for (const info of lexer.infoByIdx) if (info?.frame !== undefined) out.add(info.frame)
  return out
}


function checkCapture(s: DriverState, ctx: RuleContext, at: string): void {
  const f = (name: string): string => at + 'capture.' + name
  const cap = s.capture!
  const lexer = ctx.lexer
  // over the limit, what it held went out as text: it keeps only the tokens of a tag still open
  if (!cap.overflow) {
    check(cap.tokens.length > 0, f('tokens'), 'is empty')
    const first = categoryOf(lexer, cap.tokens[0]!)
    check(first === (cap.wrapper ? 'WrapperOpen' : 'InvokeOpen'), f('tokens'), `begins with ${first}, not the opener its wrapper flag says`)
    check(cap.frame === '*' || cap.frame === (lexer.infoByIdx[cap.tokens[0]!.tokenTypeIdx]?.frame ?? ''), f('frame'), "is not its opener's")
  } else check(cap.frame === '*' || frames(lexer).has(cap.frame), f('frame'), 'is not a frame of the grammar')
  let length = 0
  // a block read whole is a block from its literal opener on (`switchMode`, `walk.ts`)
  let invoke = !cap.wrapper || (cap.tokens.length > 0 && lexer.infoByIdx[cap.tokens[0]!.tokenTypeIdx]?.frame === literalFrame)
  let param = false
  for (let i = 0; i < cap.tokens.length; i++) {
    const t = cap.tokens[i]!
    const category = categoryOf(lexer, t)
    // empty only where it may be: a block at the message start with no opener (the lexer's), a self-closing invoke's closer, the closer of a CDATA cut at the stream's end (the driver's repairs)
    const empty = (i === 0 && t.tokenType.name === anchorOpen) || (category === 'InvokeClose' && i > 0 && lexer.infoByIdx[cap.tokens[i - 1]!.tokenTypeIdx]?.selfClose === true) || (category === 'CDataClose' && cap.repairedCdata !== undefined)
    if (t.image === '' && !empty) fail(`${at}capture.tokens[${i}]`, 'has an empty text')
    length += t.image.length
    if (category === 'InvokeOpen') invoke = true
    else if (category === 'ParamOpen') param = true
  }
  check(cap.length === length, f('length'), `is ${cap.length}, its tokens hold ${length}`)
  check(cap.overflow || cap.length <= ctx.captureLimit, f('length'), 'is over the capture limit')
  check(cap.start + cap.length <= s.pos, f('start'), 'runs past the position')
  check(cap.overflow || cap.invokeSeen === invoke, f('invokeSeen'), 'does not match its tokens')
  check(cap.overflow || cap.paramSeen === param, f('paramSeen'), 'does not match its tokens')
  check(cap.overflow || cap.lastClose <= cap.tokens.length && (cap.lastClose === 0 || categoryOf(lexer, cap.tokens[cap.lastClose - 1]!) === 'InvokeClose'), f('lastClose'), 'is not after an invoke closer')
  lineState(cap.lineState, f('lineState'))
  check((cap.json !== undefined) === (s.mode === modes.jsonBlock), f('json'), cap.json === undefined ? 'is missing in a block that ends with its JSON' : 'is set in a block of another kind')
  const anchored = ctx.lexer.grammar.blocks?.json?.anchored
  const opener = cap.tokens[0]
  if (opener?.tokenType.name === anchorOpen) {
    const image = opener.image
    const ok = image === '' || (anchored?.open ?? []).includes(image) || (anchored?.separator ?? []).some((o) => image.startsWith(o) && image.slice(o.length).trim() === '' && image.length <= maxBefore)
    check(ok, f('tokens'), 'begins with an opener at the message start that is none of the grammar')
  }
  if (cap.json !== undefined) checkJson(s, ctx, at)
  else check(s.mode !== modes.jsonBlock || s.pending === '', at + 'pending', 'is set inside a JSON block')
  if (s.raw !== null && !cap.overflow) {
    const k = lastParamOpen(ctx, cap.tokens)
    check(k >= 0 && tagKey(cap.tokens[k]!.image) === s.raw, at + 'raw', 'is not the open parameter\'s tag')
  }
}

/** A block that ends with its JSON: its scanner's state (`json-scan.ts`) is one the scanner can be in. */
function checkJson(s: DriverState, ctx: RuleContext, at: string): void {
  const f = (name: string): string => at + 'capture.json.' + name
  const cap = s.capture!
  const st = cap.json!
  const spec = ctx.lexer.grammar.blocks?.json
  check(spec !== undefined, f('phase'), 'is set, and the grammar has no blocks that end with their JSON')
  check(st.phase >= phases.open && st.phase <= phases.after, f('phase'), 'is not a phase of the scanner')
  check(st.before <= maxBefore, f('before'), 'is out of range')
  check(st.stack.length <= maxJsonDepth && /^[{[]*$/.test(st.stack), f('stack'), 'is not a list of open brackets within the depth limit')
  const inValue = st.phase === phases.first || st.phase === phases.value
  check(inValue === (st.stack !== ''), f('stack'), inValue ? 'is empty inside the value' : 'is set outside the value')
  check(st.phase !== phases.first || st.stack.length === 1, f('stack'), 'holds more than the first bracket')
  check(st.str <= (spec?.python === true ? 4 : 2) && (st.str === 0 || st.phase === phases.value), f('str'), 'is not a place in or out of a string')
  check(st.sep === '' || (st.phase === phases.sep && (spec!.head ?? []).some((h) => h.startsWith(st.sep) && h !== st.sep)), f('sep'), 'is not the start of a head separator')
  check(st.phase !== phases.sep || (spec!.head ?? []).length > 0, f('phase'), 'is in a head separator, and the grammar has none')
  check(cap.overflow ? st.phase >= phases.value : cap.tokens.length > 0 && categoryOf(ctx.lexer, cap.tokens[0]!) === 'WrapperOpen', f('phase'), 'does not fit the capture')
  // after the value: the pending text is the start of an optional closer, nothing else
  const closers = spec!.close ?? []
  check(st.phase === phases.after ? closers.length > 0 && (s.pending === '' || closers.some((c) => c.startsWith(s.pending) && c !== s.pending)) : s.pending === '', at + 'pending', 'is not the start of a closer after the value')
  check(s.deferred === null && s.candidate === null && s.carry === null, f('phase'), 'is set with a deferred tag, a held run or a carried run')
}

function checkCalls(st: CallStreamState, s: DriverState, at: string): void {
  const f = (name: string): string => at + 'calls.' + name
  const cap = s.capture
  check(st.capture === -1 || (cap !== null && st.capture === cap.start), f('capture'), 'is not the capture being read')
  // over the limit, the capture's tokens went out as text: what was read of them is no longer there to check
  const kept = cap !== null && !cap.overflow
  const tokens = cap?.tokens.length ?? 0
  check(!kept || st.capture === -1 || st.seen <= tokens, f('seen'), 'is past the capture\'s tokens')
  for (const k of ['invokeAt', 'invokeBody', 'paramAt', 'paramBody'] as const) check(st[k] >= -1 && st[k] <= st.seen, f(k), 'is out of range')
  check(st.at >= st.callStart && st.callStart >= Math.min(st.capture, 0) && (st.capture === -1 || st.callStart >= st.capture), f('callStart'), 'is out of range')
  if (kept && st.capture !== -1) {
    let to = cap.start
    for (let i = 0; i < st.seen; i++) to += cap!.tokens[i]!.image.length
    check(st.at === to, f('at'), 'does not match the tokens read')
  }
  check(st.high === '' || (st.high.length === 1 && codeAt(st.high, 0) >= 0xd800 && codeAt(st.high, 0) <= 0xdbff), f('high'), 'is not a high surrogate')
  const ids = new Set<string>()
  st.calls.forEach((c, i) => {
    const g = (name: string): string => `${at}calls.calls[${i}].${name}`
    check(c.id === null || (c.id !== '' && !ids.has(c.id)), g('id'), 'is empty or repeated')
    if (c.id !== null) ids.add(c.id)
    check(c.id === null ? c.index === -1 && c.sent === '' : c.index >= 0 && c.index < st.next, g('index'), 'does not fit its call')
    check(c.name !== null || c.id === null, g('name'), 'is missing on a started call')
    check(c.start >= Math.max(st.capture, 0) && c.start <= st.at, g('start'), 'is out of range')
  })
  if (st.quoted !== null) check(st.quoted.every((k) => k < st.calls.length), f('quoted'), 'names a call that is not there')
}
