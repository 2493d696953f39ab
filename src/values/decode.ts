/**
 * Decoding parameter values and building a call's input. All value rules
 * live here so the sieve and `parseToolCalls` share them.
 *
 * Order (this issue): a value that is exactly one CDATA section, with only
 * whitespace around it, is its content verbatim; otherwise text and CDATA
 * content concatenate in order and the result is trimmed.
 */
import type { ParsedInvoke, ValuePart } from '../parser/block-parser.js'

const wsOnly = /^[ \t\r\n]*$/

export function decodeValue(parts: ValuePart[]): string {
  const cdata = parts.filter((p) => p.kind === 'cdata')
  if (cdata.length === 1 && parts.every((p) => p.kind === 'cdata' || wsOnly.test(p.text))) return cdata[0]!.text
  let s = ''
  for (const p of parts) s += p.text
  return s.trim()
}

/** Own data property, so `__proto__` or `constructor` as a parameter name changes no prototype. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
}

const wrapperKeys = ['input', 'arguments', 'parameters']

/** Why an invoke could not become a call. */
export type InvokeProblem = 'missing-name' | 'missing-parameter-name' | 'bad-json-body'

export type DecodedInvoke = { ok: true; name: string; input: Record<string, unknown> } | { ok: false; problem: InvokeProblem }

/** Turns a parsed invoke into a tool name and input object. */
export function decodeInvoke(inv: ParsedInvoke, nameAttr: string): DecodedInvoke {
  const name = (inv.attrs[nameAttr] ?? '').trim()
  if (name === '') return { ok: false, problem: 'missing-name' }
  const input: Record<string, unknown> = {}
  if (inv.json !== null) {
    if (inv.params.length > 0) return { ok: false, problem: 'bad-json-body' }
    let parsed: unknown
    try {
      parsed = JSON.parse(inv.json)
    } catch {
      return { ok: false, problem: 'bad-json-body' }
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, problem: 'bad-json-body' }
    let obj = parsed as Record<string, unknown>
    const keys = Object.keys(obj)
    const only = keys.length === 1 ? keys[0]! : ''
    const inner = obj[only]
    if (wrapperKeys.includes(only) && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) obj = inner as Record<string, unknown>
    for (const k of Object.keys(obj)) setOwn(input, k, obj[k])
    return { ok: true, name, input }
  }
  // a parameter given again collects its values in order
  const repeated = new Map<string, unknown[]>()
  for (const p of inv.params) {
    const key = p.attrs[nameAttr]?.trim()
    if (key === undefined || key === '') return { ok: false, problem: 'missing-parameter-name' }
    const value = decodeValue(p.parts)
    const list = repeated.get(key)
    if (list) list.push(value)
    else if (Object.prototype.hasOwnProperty.call(input, key)) {
      const both = [input[key], value]
      repeated.set(key, both)
      setOwn(input, key, both)
    } else setOwn(input, key, value)
  }
  return { ok: true, name, input }
}
