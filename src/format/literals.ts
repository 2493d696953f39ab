/**
 * Values as a dialect's chat template writes them: JSON with Python's
 * `json.dumps` separators, Python literals (`repr`), and Gemma 4's object
 * literal. The templates are Jinja run by Python, so numbers follow Python's
 * `repr` where the pack says so (`1e-07`, where JavaScript writes `1e-7`).
 */
import { ToolsieveError } from '../errors.js'
import type { ValueRules } from '../dialects/types.js'

/** A path for errors: `calls[0].input.a`. */
export type Where = string

const fail = (where: Where, why: string): never => {
  throw new ToolsieveError('invalid-option', `${where} ${why}`, where.replace(/\.input\..*$/, '.input'))
}

/**
 * JSON text already written, which {@link writeJson} puts in as it is: a
 * call's input written on its own, so that a refusal inside it names its
 * path in the caller's call (`calls[2].input.k`), not in the object a pack
 * writes around it (`calls[2].arguments.k`, or the tool's name as a key).
 */
export class WrittenJson {
  constructor(readonly text: string) {}
}

/** JavaScript's number text in Python's `repr` spelling: the exponent has at least two digits. */
export function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null'
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2')
}

function number(n: number, rules: Pick<ValueRules, 'numbers'>): string {
  if (!Number.isFinite(n)) return 'null'
  return rules.numbers === 'python' ? pythonNumber(n) : JSON.stringify(n)
}

/**
 * What `JSON.stringify` writes for `v` found under `key`: the result of its
 * `toJSON(key)` (a `Date`'s ISO text, a caller's own object), a `Number`,
 * `String`, `Boolean` or `BigInt` object as its primitive, anything else as
 * it is. Called once per value, as `JSON.stringify` calls it, so that a call
 * comes back as the call whose `arguments` are `JSON.stringify(input)`.
 */
export function jsonValue(v: unknown, key: string, where: Where): unknown {
  if (v === null || (typeof v !== 'object' && typeof v !== 'bigint')) return v
  try {
    const toJSON = (v as { toJSON?: unknown }).toJSON
    const out: unknown = typeof toJSON === 'function' ? toJSON.call(v, key) : v
    if (out instanceof Number) return Number(out)
    if (out instanceof String) return String(out)
    if (out instanceof Boolean || out instanceof BigInt) return out.valueOf()
    return out
  } catch (e) {
    // a toJSON that throws, or a value that cannot be read (a revoked proxy): JSON.stringify throws there too
    return fail(where, `cannot be written as JSON: ${(e as Error)?.message ?? String(e)}`)
  }
}

/** Leaves out what `JSON.stringify` leaves out of an object, and writes as `null` in a list. */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/** The entries written, each value as {@link jsonValue} gives it: `undefined`, functions and symbols are left out, as `JSON.stringify` leaves them out. */
export function entries(o: Record<string, unknown>, sort: boolean, where: Where): Array<[string, unknown]> {
  const list: Array<[string, unknown]> = []
  for (const [k, given] of Object.entries(o)) {
    const v = omitted(given) ? given : jsonValue(given, k, `${where}.${k}`)
    if (!omitted(v)) list.push([k, v])
  }
  return sort ? list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : list
}

/** A list's items as {@link jsonValue} gives them, `null` for what `JSON.stringify` writes as `null`. */
function items(list: readonly unknown[], where: Where): unknown[] {
  return list.map((x, i) => {
    const v = omitted(x) ? x : jsonValue(x, String(i), `${where}[${i}]`)
    return omitted(v) ? null : v
  })
}

/** JSON text with the pack's separators (compact without them) and number spelling. */
export function writeJson(v: unknown, rules: Pick<ValueRules, 'json' | 'numbers' | 'sortKeys'>, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  if (v instanceof WrittenJson) return v.text
  const item = rules.json?.itemSeparator ?? ','
  const key = rules.json?.keySeparator ?? ':'
  if (v === null || typeof v === 'boolean') return String(v)
  if (typeof v === 'number') return number(v, rules)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'bigint') return fail(where, 'is a BigInt, which JSON cannot hold')
  if (Array.isArray(v)) return '[' + items(v, where).map((x, i) => writeJson(x, rules, `${where}[${i}]`, depth + 1)).join(item) + ']'
  const o = v as Record<string, unknown>
  return '{' + entries(o, rules.sortKeys === true, where).map(([k, x]) => JSON.stringify(k) + key + writeJson(x, rules, `${where}.${k}`, depth + 1)).join(item) + '}'
}

/** Python's `repr` of a string: single quotes unless the text has one and no double quote. */
export function pythonString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = q
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '\\' || ch === q) out += '\\' + ch
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0')
    else out += ch
  }
  return out + q
}

/** A Python literal (`repr`): `True`, `None`, `{'a': [1, 2]}`. */
export function writePython(v: unknown, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  if (v === null) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return Number.isFinite(v) ? pythonNumber(v) : 'None'
  if (typeof v === 'string') return pythonString(v)
  if (typeof v === 'bigint') return String(v)
  if (Array.isArray(v)) return '[' + items(v, where).map((x, i) => writePython(x, `${where}[${i}]`, depth + 1)).join(', ') + ']'
  return '{' + entries(v as Record<string, unknown>, false, where).map(([k, x]) => pythonString(k) + ': ' + writePython(x, `${where}.${k}`, depth + 1)).join(', ') + '}'
}

const bareKey = /^[\p{L}\p{N}_$.-]+$/u

/** Gemma 4's object literal: bare keys, strings between quote tokens, the pack's `true`/`false`/`null`. */
export function writeObjectLiteral(v: unknown, rules: ValueRules, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  const lit = rules.literals
  if (v === null) return lit.null
  if (typeof v === 'boolean') return v ? lit.true : lit.false
  if (typeof v === 'number') return Number.isFinite(v) ? number(v, rules) : lit.null
  if (typeof v === 'string') return quoted(v, rules, where)
  if (typeof v === 'bigint') return String(v)
  if (Array.isArray(v)) return '[' + items(v, where).map((x, i) => writeObjectLiteral(x, rules, `${where}[${i}]`, depth + 1)).join(',') + ']'
  return (
    '{' +
    entries(v as Record<string, unknown>, rules.sortKeys === true, where)
      .map(([k, x]) => {
        if (!bareKey.test(k)) fail(where, `has the key ${JSON.stringify(k)}, which a bare-key object literal cannot write`)
        return k + ':' + writeObjectLiteral(x, rules, `${where}.${k}`, depth + 1)
      })
      .join(',') +
    '}'
  )
}

/** A string between the pack's quote tokens; one holding the token cannot be written. */
export function quoted(s: string, rules: ValueRules, where: Where): string {
  const q = rules.quote ?? '"'
  if (s.includes(q)) fail(where, `holds the quote token ${JSON.stringify(q)}, which this dialect cannot write inside a string`)
  return q + s + q
}

/** A container in the pack's container spelling. */
export function writeContainer(v: unknown, rules: ValueRules, where: Where): string {
  if (rules.containers === 'python') return writePython(v, where)
  if (rules.containers === 'literal') return writeObjectLiteral(v, rules, where)
  return writeJson(v, rules, where)
}

/** A scalar (number, boolean, null) standing alone. */
export function writeScalar(v: number | boolean | null, rules: ValueRules): string {
  if (v === null) return rules.literals.null
  if (typeof v === 'boolean') return v ? rules.literals.true : rules.literals.false
  return Number.isFinite(v) ? number(v, rules) : rules.literals.null
}

/** The JSON type a type attribute names. */
export function jsonType(v: unknown): 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  const t = typeof v
  if (t === 'string' || t === 'number' || t === 'boolean') return t
  if (t === 'bigint') return 'number'
  return 'object'
}
