/**
 * Values as a dialect's chat template writes them: JSON with Python's
 * `json.dumps` separators, Python literals (`repr`), and Gemma 4's object
 * literal. The templates are Jinja run by Python, so numbers follow Python's
 * `repr` where the pack says so (`1e-07`, where JavaScript writes `1e-7`).
 */
import { ToolsieveError } from '../errors.js'
import type { ValueRules } from '../dialects/types.js'
import { isPlainObject } from '../values/own.js'

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

/** The entries written: `undefined` and functions are left out, as `JSON.stringify` leaves them out. */
export function entries(o: Record<string, unknown>, sort: boolean): Array<[string, unknown]> {
  const list = Object.entries(o).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol')
  return sort ? list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : list
}

/** Through `toJSON` and JSON's own reading, so a Date or a class instance is written as `JSON.stringify` writes it. */
function plain(v: unknown, where: Where): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isPlainObject(v)) return v
  try {
    return JSON.parse(JSON.stringify(v) ?? 'null') as unknown
  } catch (e) {
    return fail(where, `cannot be written as JSON: ${(e as Error).message}`)
  }
}

/** JSON text with the pack's separators (compact without them) and number spelling. */
export function writeJson(value: unknown, rules: Pick<ValueRules, 'json' | 'numbers' | 'sortKeys'>, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  if (value instanceof WrittenJson) return value.text
  const v = plain(value, where)
  const item = rules.json?.itemSeparator ?? ','
  const key = rules.json?.keySeparator ?? ':'
  if (v === null || typeof v === 'boolean') return String(v)
  if (typeof v === 'number') return number(v, rules)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'bigint') return fail(where, 'is a BigInt, which JSON cannot hold')
  if (Array.isArray(v)) return '[' + v.map((x, i) => (x === undefined || typeof x === 'function' ? 'null' : writeJson(x, rules, `${where}[${i}]`, depth + 1))).join(item) + ']'
  const o = v as Record<string, unknown>
  return '{' + entries(o, rules.sortKeys === true).map(([k, x]) => JSON.stringify(k) + key + writeJson(x, rules, `${where}.${k}`, depth + 1)).join(item) + '}'
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
export function writePython(value: unknown, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  const v = plain(value, where)
  if (v === null) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return Number.isFinite(v) ? pythonNumber(v) : 'None'
  if (typeof v === 'string') return pythonString(v)
  if (typeof v === 'bigint') return String(v)
  if (Array.isArray(v)) return '[' + v.map((x, i) => writePython(x ?? null, `${where}[${i}]`, depth + 1)).join(', ') + ']'
  return '{' + entries(v as Record<string, unknown>, false).map(([k, x]) => pythonString(k) + ': ' + writePython(x, `${where}.${k}`, depth + 1)).join(', ') + '}'
}

const bareKey = /^[\p{L}\p{N}_$.-]+$/u

/** Gemma 4's object literal: bare keys, strings between quote tokens, the pack's `true`/`false`/`null`. */
export function writeObjectLiteral(value: unknown, rules: ValueRules, where: Where, depth = 0): string {
  if (depth > 1000) fail(where, 'nests too deeply to be written')
  const v = plain(value, where)
  const lit = rules.literals
  if (v === null) return lit.null
  if (typeof v === 'boolean') return v ? lit.true : lit.false
  if (typeof v === 'number') return Number.isFinite(v) ? number(v, rules) : lit.null
  if (typeof v === 'string') return quoted(v, rules, where)
  if (typeof v === 'bigint') return String(v)
  if (Array.isArray(v)) return '[' + v.map((x, i) => writeObjectLiteral(x ?? null, rules, `${where}[${i}]`, depth + 1)).join(',') + ']'
  return (
    '{' +
    entries(v as Record<string, unknown>, rules.sortKeys === true)
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
