/**
 * Reading a value of one JSON type from text, as coercion asks: numbers by
 * JSON's grammar (keeping their digits), `true`/`false`, `null`, and JSON
 * objects and arrays. Also the comparisons coercion makes between decoded
 * values (whose numbers may be {@link JsonNumber}s) and a schema's members.
 */
import { parseJson } from '../values/json.js'
import { JsonNumber, jsonNumber } from '../values/json-number.js'
import { trimXml } from '../values/text.js'
import { typeOf, type JsonType } from './keywords.js'

export type Result = { ok: true; value: unknown } | { ok: false }
export const no: Result = { ok: false }
export const yes = (value: unknown): Result => ({ ok: true, value })

const numberRe = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/

/**
 * A number from text, by JSON's grammar, with its digits kept: an integer
 * past 2^53 is read (exact in `arguments`); a non-finite one is refused.
 */
function readNumber(text: string, integer: boolean): Result {
  const t = trimXml(text)
  if (!numberRe.test(t)) return no
  const n = jsonNumber(t)
  if (n === null || (integer && !Number.isInteger(scalar(n)))) return no
  return yes(n)
}

function readJson(text: string, type: 'object' | 'array'): Result {
  const r = parseJson(text)
  return r.ok && typeOf(r.value) === type ? r : no
}

/** A value of type `t` from text. */
export function fromText(text: string, t: JsonType): Result {
  switch (t) {
    case 'string':
      return yes(text)
    case 'integer':
    case 'number':
      return readNumber(text, t === 'integer')
    case 'boolean': {
      const b = trimXml(text).toLowerCase()
      return b === 'true' ? yes(true) : b === 'false' ? yes(false) : no
    }
    case 'null': {
      const n = trimXml(text).toLowerCase()
      return n === 'null' || n === '' ? yes(null) : no
    }
    default:
      return readJson(text, t)
  }
}

/** A decoded scalar as a schema's members are written: a {@link JsonNumber} as its double. */
export function scalar(v: unknown): unknown {
  return v instanceof JsonNumber ? v.value : v
}

/**
 * `a` and `b` are the same JSON value (numbers by their doubles, object keys
 * in any order). A loop over pairs, not recursion: `b` can be nested deeply.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const pairs: unknown[] = [a, b]
  while (pairs.length > 0) {
    const y = scalar(pairs.pop())
    const x = scalar(pairs.pop())
    if (x === y) continue
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) pairs.push(x[i], y[i])
      continue
    }
    if (Array.isArray(y)) return false
    const xo = x as Record<string, unknown>
    const yo = y as Record<string, unknown>
    const keys = Object.keys(xo)
    if (keys.length !== Object.keys(yo).length) return false
    for (const k of keys) {
      if (!Object.prototype.hasOwnProperty.call(yo, k)) return false
      pairs.push(xo[k], yo[k])
    }
  }
  return true
}
