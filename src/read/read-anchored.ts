/**
 * The reader of a pack's blocks anchored at the message start (the sieve
 * hands it the block from its optional opener, or its value's first
 * bracket, through the value's last bracket: `lexer/start-tokens.ts`):
 * Llama 3.1's bare `{"name": "f", "parameters": {…}}` (after
 * `<|python_tag|>` or not), Llama 3.2's Python list `[f(a=1), g(b='x')]`,
 * xLAM's `[{"name": …, "arguments": …}]`; a block after another with the
 * separator between them (`; {…}`). Every anchored spec of the pack
 * is tried in order; the first that reads the whole value gives the calls.
 */
import type { BlockSpec, DialectPack } from '../dialects/types.js'
import { anchoredDelimiters } from '../dialects/grammar.js'
import { readSpec } from './read-json-end.js'
import { parseJson } from '../values/json.js'
import { isPlainObject } from '../values/own.js'
import { ReadError, Scan } from './read-scan.js'
import { readPythonCall } from './read-values.js'
import type { ReadCall } from './read-call.js'

/** A call of the block: its arguments as written (`params`) or as one object (`body`), `end` the offset just past its markup. */
export type AnchoredCall = ReadCall

/**
 * What the reader gives: the calls, or why the block is not one (the
 * sieve's `WholeReader` answer). `diagnostics: []`: the value is plain data,
 * not a call gone wrong (`{"answer": 42}`, `[]`): text with no diagnostic.
 */
export type AnchoredResult = { ok: true; calls: AnchoredCall[] } | { ok: false; reason: string; diagnostics?: [] }

/** Whether `text` is a block of `pack` anchored at the message start: it begins with one's optional opener, or with a value one may open with. */
export function isAnchoredBlock(pack: DialectPack, text: string): boolean {
  return anchoredDelimiters(pack).some((d) => d !== null && (d.open.some((o) => text.startsWith(o)) || text.startsWith(d.value === 'array' ? '[' : '{') || (d.separator !== undefined && text.startsWith(d.separator))))
}

/** The calls of `text`, a whole block of `pack` anchored at the message start; never throws. */
export function readAnchoredBlock(pack: DialectPack, text: string): AnchoredResult {
  let why = 'no block of the dialect opens the message with it'
  for (const [i, d] of anchoredDelimiters(pack).entries()) {
    if (d === null) continue
    // a block after another opens with the separator between them (`; {…}`), the first with its optional opener, if any
    const opener = d.separator !== undefined && text.startsWith(d.separator) ? d.separator : d.open.filter((o) => text.startsWith(o)).sort((a, b) => b.length - a.length)[0] ?? ''
    const spec = pack.blocks[i]!
    // a trailing token right after the value is the block's (`<|python_end|>`)
    const closer = d.close.find((c) => text.endsWith(c) && text.length - c.length > opener.length)
    const end = text.length - (closer?.length ?? 0)
    const python = spec.call.arguments.kind === 'python-kwargs'
    const r = python ? readPythonList(spec, text, opener.length, end) : readSpec(spec, text, opener.length, end, true)
    if (r.ok && r.calls.length > 0) return r
    if (r.ok || (!python && isData(spec, text.slice(opener.length, end)))) return { ok: false, reason: 'the value is data, not a call', diagnostics: [] }
    if (python && (r as AnchoredResult & { ok: false }).diagnostics !== undefined) return r
    why = r.reason
  }
  return { ok: false, reason: why }
}

/** Whether `value` is JSON none of whose objects (the value, or an array's items) has the call's name field: data, not a call gone wrong. */
function isData(spec: BlockSpec, value: string): boolean {
  const parsed = parseJson(value)
  if (!parsed.ok) return false
  const field = spec.call.name.from === 'json-field' ? spec.call.name.field : null
  if (field === null) return false
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value]
  return !items.some((item) => isPlainObject(item) && Object.prototype.hasOwnProperty.call(item, field))
}

/** `[f(a=1), g(b='x')]` from `from` on: one call per item, each the callee and its keyword arguments. */
function readPythonList(spec: BlockSpec, text: string, from: number, to: number): AnchoredResult {
  const scan = new Scan(text, from, to)
  try {
    scan.blanks()
    const one = spec.array !== true
    if (!one) scan.expect(['['], 'the list of calls')
    const calls: AnchoredCall[] = []
    for (;;) {
      scan.blanks()
      if (!one && calls.length === 0 && scan.eatAny([']']) !== null) break
      const r = readPythonCall(scan, `call ${calls.length + 1}`)
      calls.push({ name: r.name, params: r.params, body: null, end: scan.at })
      scan.blanks()
      if (one) break
      if (scan.eatAny([',']) !== null) continue
      scan.expect([']'], '"," or "]" after a call')
      break
    }
    scan.blanks()
    if (!scan.done()) return { ok: false, reason: 'text follows the list of calls' }
    // `[]`: an empty list, no call gone wrong
    if (calls.length === 0) return { ok: false, reason: 'the list holds no call', diagnostics: [] }
    return { ok: true, calls }
  } catch (e) {
    if (e instanceof ReadError) return { ok: false, reason: e.message }
    throw e
  }
}
