/**
 * The shape a checkpoint's state must have before the driver runs on it: a
 * field of the wrong type or a missing one is an `invalid-checkpoint`
 * naming the field (`resume.state.pos`), never a TypeError mid-stream.
 * Fields added after version 1 was first written may be missing and take
 * their defaults (`restoreState`).
 */
import { ToolsieveError } from '../errors.js'
import { modes } from '../lexer/modes.js'

type Check = (v: unknown) => boolean
const int: Check = (v) => Number.isSafeInteger(v)
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0
const bool: Check = (v) => typeof v === 'boolean'
const str: Check = (v) => typeof v === 'string'
const nullable = (c: Check): Check => (v) => v === null || c(v)
/** An array each of whose items passes `c`, by index: `every` skips holes, and `[, 'a']` is no list of strings (the next checkpoint would copy the hole as `undefined`). */
const list = (c: Check): Check => (v) => {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (!c(v[i])) return false
  return true
}
const object = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
// a run's own modes: the driver is never left in them
const modeNames: ReadonlySet<string> = new Set(Object.values(modes).filter((m) => m !== modes.halt && m !== modes.messageStart))

export function fail(field: string, what: string): never {
  throw new ToolsieveError('invalid-checkpoint', `the checkpoint's ${field} ${what}`, `resume.state.${field}`)
}

/** Checks `fields` of `value` (at `at`); `optional` ones may be absent. */
function fields(value: unknown, at: string, shape: Record<string, Check>, optional: ReadonlySet<string> = new Set()): Record<string, unknown> {
  if (!object(value)) fail(at, 'must be an object')
  for (const [key, check] of Object.entries(shape)) {
    const field = at === '' ? key : `${at}.${key}`
    if (!(key in value)) {
      if (optional.has(key)) continue
      fail(field, 'is missing')
    }
    if (!check(value[key])) fail(field, `has the wrong type (${JSON.stringify(value[key])?.slice(0, 40)})`)
  }
  return value
}

const markdownShape: Record<string, Check> = {
  levels: list(count),
  holdDepth: count,
  fenceCh: count,
  fenceLen: count,
  fenceDepth: count,
  fenceIndent: count,
}

/** Throws `invalid-checkpoint` unless `state` has the driver state's shape. */
export function checkStateShape(state: unknown): void {
  const s = fields(state, '', {
    mode: (v) => typeof v === 'string' && modeNames.has(v),
    md: object,
    lineState: int,
    carry: nullable(object),
    pending: str,
    pos: count,
    capture: nullable(object),
    hold: nullable(object),
    sawSyntax: bool,
    raw: nullable(str),
    skip: nullable(object),
    reasoning: object,
    paragraphEnd: nullable(object),
    noHoldUntil: int,
    calls: nullable(object),
    deferred: nullable(object),
    candidate: nullable(object),
    started: (v) => v === true || v === 'separator',
    modelIds: list(str),
  }, new Set(['raw', 'skip', 'reasoning', 'paragraphEnd', 'noHoldUntil', 'calls', 'deferred', 'candidate', 'started', 'modelIds']))
  fields(s.md, 'md', markdownShape, new Set(['fenceDepth', 'fenceIndent']))
  if (s.carry !== null) fields(s.carry, 'carry', { ch: count, len: count, indent: int, mode: (v) => typeof v === 'string' && modeNames.has(v) })
  if (s.capture !== null) {
    fields(s.capture, 'capture', {
      start: count,
      tokens: list((t) => Array.isArray(t) && t.length === 2 && str(t[0]) && str(t[1])),
      length: count,
      invokeSeen: bool,
      wrapper: bool,
      overflow: bool,
      paramSeen: bool,
      lastClose: count,
      frame: str,
      lineState: int,
      json: object,
    }, new Set(['lineState', 'overflow', 'paramSeen', 'lastClose', 'frame', 'json']))
    const json = (s.capture as Record<string, unknown>).json
    if (json !== undefined) fields(json, 'capture.json', { phase: count, stack: str, str: count, before: count, sep: str })
  }
  if (s.hold !== null) fields(s.hold, 'hold', { start: count, parts: list(str), length: count, lineState: int, givenUp: bool })
  if (s.skip !== null && s.skip !== undefined) fields(s.skip, 'skip', { role: (v) => v === 'wrapper' || v === 'invoke', depth: count, frame: str }, new Set(['frame']))
  if (s.reasoning !== undefined) {
    const r = fields(s.reasoning, 'reasoning', { phase: (v) => v === 'start' || v === 'in' || v === 'done', held: str, pos: count, inner: nullable(object) }, new Set(['inner']))
    if (r.inner != null) checkStateShape(r.inner)
  }
  if (s.paragraphEnd !== null && s.paragraphEnd !== undefined) fields(s.paragraphEnd, 'paragraphEnd', { at: int, halts: count })
  if (s.calls !== null && s.calls !== undefined) checkCalls(s.calls)
  if (s.deferred !== null && s.deferred !== undefined) fields(s.deferred, 'deferred', { mode: (v) => typeof v === 'string' && modeNames.has(v), place: count, body: count })
  if (s.candidate !== null && s.candidate !== undefined) {
    const c = fields(s.candidate, 'candidate', { state: int, read: count, runLength: int, run: nullable(object) })
    if (c.run !== null) fields(c.run, 'candidate.run', { closes: list(count), lineStart: bool })
  }
}

const callShape: Record<string, Check> = {
  name: nullable(str), start: count, id: nullable(str), idProblem: nullable(str), index: int, sent: str, pending: str, stalled: bool, changed: bool,
  keys: list(str),
}

/** The streamed calls' state (`streamArguments`). */
function checkCalls(calls: unknown): void {
  const c = fields(calls, 'calls', {
    next: count, capture: int, seen: count, at: int, callStart: int, calls: Array.isArray, invokeAt: int, invokeBody: int, paramAt: int, paramBody: int,
    live: bool, high: str, quoted: nullable(list(count)),
  })
  ;(c.calls as unknown[]).forEach((call, i) => fields(call, `calls.calls[${i}]`, callShape))
}
