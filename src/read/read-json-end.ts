/**
 * The reader of a pack's blocks that end where their JSON ends (the sieve
 * hands it a block from its opener through the value's last bracket, and
 * the optional closer right after it, if any: `sieve/json-block.ts`):
 * Mistral's `[TOOL_CALLS][{…}]` and `[TOOL_CALLS]f[ARGS]{…}`, Granite's
 * `<tool_call>[{…}]`, Phi-4-mini's `functools[{…}]`, Apertus'
 * `<|tools_prefix|>[{"f": {…}}]<|tools_suffix|>`. Every spec of the pack
 * whose opener begins the text is tried in order; the first that reads the
 * whole value gives the calls.
 */
import type { BlockSpec, DialectPack } from '../dialects/types.js'
import { jsonDelimiters, wholeDelimiters } from '../dialects/grammar.js'
import { parseJson } from '../values/json.js'
import { isPlainObject } from '../values/own.js'
import { jsonId } from './read-values.js'
import type { ReadCall } from './read-call.js'

/** A call of the block: its arguments as one object (`params` null), `end` the offset just past its markup. */
export type JsonEndCall = ReadCall & { params: null; body: Record<string, unknown> }

/** What the reader gives: the calls, or why the block is not one (the sieve's `WholeReader` answer). */
export type JsonEndResult = { ok: true; calls: JsonEndCall[] } | { ok: false; reason: string }

/** Whether `text` is a block of `pack` that ends with its JSON: it begins with such an opener, and no longer opener of a closed block. */
export function isJsonEndBlock(pack: DialectPack, text: string): boolean {
  const longest = (ds: ReadonlyArray<{ open: string[] } | null>): number => Math.max(-1, ...ds.flatMap((d) => d?.open.filter((o) => text.startsWith(o)).map((o) => o.length) ?? []))
  const json = longest(jsonDelimiters(pack))
  return json > 0 && json >= longest(wholeDelimiters(pack))
}

/** The calls of `text`, a whole block of `pack` that ends with its JSON; never throws. */
export function readJsonEndBlock(pack: DialectPack, text: string): JsonEndResult {
  const delimiters = jsonDelimiters(pack)
  let why = 'no block of the dialect opens with it'
  for (const [i, d] of delimiters.entries()) {
    if (d === null) continue
    const opener = d.open.filter((o) => text.startsWith(o)).sort((a, b) => b.length - a.length)[0]
    if (opener === undefined) continue
    let end = text.length
    const closer = (d.close ?? []).find((c) => text.endsWith(c) && text.length - c.length >= opener.length)
    if (closer !== undefined) end -= closer.length
    const r = readSpec(pack.blocks[i]!, text, opener.length, end)
    if (r.ok) return r
    why = r.reason
  }
  return { ok: false, reason: why }
}

/** `text[from, to)`, what follows the opener, read as `spec` reads it. */
export function readSpec(spec: BlockSpec, text: string, from: number, to: number, needsArguments = false): JsonEndResult {
  const c = spec.call
  let at = from
  let headName: string | null = null
  if (c.name.from === 'head') {
    // the head runs to the separator, or to the value where the separator was left out
    const body = text.slice(from, to)
    const seps = c.headSeparator?.text ?? []
    let cut = -1
    let next = -1
    for (const sep of seps) {
      const k = body.indexOf(sep)
      if (k > 0 && (cut < 0 || k < cut)) {
        cut = k
        next = k + sep.length
      }
    }
    if (cut < 0) {
      cut = body.search(/[{[]/)
      next = cut
    }
    if (cut <= 0) return { ok: false, reason: 'the block has no head before its value' }
    const head = body.slice(0, cut)
    const m = new RegExp(c.name.pattern, 'u').exec(head)
    const name = m?.groups?.name
    if (name === undefined) return { ok: false, reason: `its head ${JSON.stringify(head.slice(0, 40))} is not a call's name` }
    headName = name
    at = from + next
  }
  const value = text.slice(at, to)
  const parsed = parseJson(value)
  if (!parsed.ok) return { ok: false, reason: 'its value is not JSON' }
  // JSON parsers disagree on which of a key written twice counts: a call read from it could be another reader's other call
  if (parsed.duplicate !== undefined) return { ok: false, reason: twice(parsed.duplicate) }
  const lead = at + (value.length - value.trimStart().length)
  if (headName !== null) {
    if (!isPlainObject(parsed.value)) return { ok: false, reason: 'its arguments are not a JSON object' }
    return { ok: true, calls: [{ name: headName, params: null, body: parsed.value as Record<string, unknown>, end: to }] }
  }
  const items = spec.array === true ? parsed.value : [parsed.value]
  if (!Array.isArray(items)) return { ok: false, reason: 'its value is not a JSON array of calls' }
  const ends = spec.array === true ? elementEnds(text, lead) : [to]
  const calls: JsonEndCall[] = []
  for (const [k, item] of items.entries()) {
    const call = callOf(spec, item, ends[k] ?? to, needsArguments)
    if (typeof call === 'string') return { ok: false, reason: call }
    calls.push(call)
  }
  return { ok: true, calls }
}

/** One call object of `spec`'s block; a string: why it is not one. `needsArguments`: an object with no arguments field is none (a bare `{"name": …}` is as likely data). */
function callOf(spec: BlockSpec, item: unknown, end: number, needsArguments: boolean): JsonEndCall | string {
  const c = spec.call
  if (!isPlainObject(item)) return 'a call is not a JSON object'
  const obj = item as Record<string, unknown>
  let name: unknown
  let args: unknown
  if (c.name.from === 'json-key') {
    const keys = Object.keys(obj)
    if (keys.length !== 1) return 'a call object does not have exactly one key, its name'
    name = keys[0]
    args = obj[keys[0]!]
  } else if (c.name.from === 'json-field') {
    name = obj[c.name.field]
    const a = c.arguments
    if (a.kind === 'json' && a.field !== undefined) {
      const field = [a.field, ...(a.aliases ?? [])].find((f) => Object.prototype.hasOwnProperty.call(obj, f))
      if (field === undefined && needsArguments) return `a call object has no ${[a.field, ...(a.aliases ?? [])].map((f) => JSON.stringify(f)).join(' or ')} field`
      args = field === undefined ? {} : obj[field]
      if (typeof args === 'string' && a.serialised === true) {
        const inner = parseJson(args)
        if (inner.ok && inner.duplicate !== undefined) return `a call's arguments string: ${twice(inner.duplicate)}`
        if (inner.ok) args = inner.value
      }
    } else args = obj
  } else return `the call's name comes from ${c.name.from}`
  if (typeof name !== 'string' || name === '') return 'a call has no name'
  if (!isPlainObject(args)) return `the arguments of "${name}" are not a JSON object`
  // an empty id is no id; one that is no string leaves the call good, with a made id and why (as a closed block's reader reads it)
  const id = c.id?.from === 'json-field' ? jsonId(obj[c.id.field ?? 'id']) : {}
  return { name, params: null, body: args as Record<string, unknown>, end, ...id }
}

/** Why a value with `key` twice in one object is no block (`JsonResult.duplicate`). */
function twice(key: string): string {
  return `its JSON has the key ${JSON.stringify(key)} twice in one object`
}

/** Offsets in `text` just past each top-level element of the JSON array that starts at `at`. */
function elementEnds(text: string, at: number): number[] {
  const ends: number[] = []
  let depth = 0
  let inString = false
  let last = -1
  for (let i = at; i < text.length; i++) {
    const ch = text[i]!
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') {
        inString = false
        last = i + 1
      }
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') depth++
    else if (ch === '}' || ch === ']') {
      depth--
      if (depth === 1) last = i + 1
      if (depth === 0) {
        if (last > 0) ends.push(last)
        return ends
      }
    } else if (ch === ',' && depth === 1) {
      if (last > 0) ends.push(last)
      last = -1
    } else if (depth === 1 && ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') last = i + 1
  }
  return ends
}
