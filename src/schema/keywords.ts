/**
 * The JSON-Schema keywords coercion reads: `$ref` (inside the schema: `refs.ts`), `type`,
 * `enum`/`const`, `allOf` (merged shallowly), `anyOf`/`oneOf`, `properties`,
 * `additionalProperties`, `patternProperties`, `items`, `prefixItems`. The
 * validator still checks the whole schema afterwards; this only decides what
 * shape to give a value.
 */
import { JsonNumber } from '../values/json-number.js'
import { isPlainObject } from '../values/own.js'
import { lookup } from './refs.js'

export type Schema = Record<string, unknown>
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array'

const jsonTypes: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])

function own(obj: Schema, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined
}

/** `allOf` inside `allOf` (through `$ref`s: `{ allOf: [{ $ref: '#' }] }` is its own branch) is folded this deep. */
const maxAllOfDepth = 8

/**
 * The schema node to coerce by: `$ref`s followed (a bounded number of hops,
 * so a cyclic ref ends), `allOf` folded in (bounded too). Null means "anything goes".
 */
export function resolve(schema: unknown, root: Schema, depth = 0): Schema | null {
  let s = schema
  for (let hops = 0; hops < 32 && isPlainObject(s) && typeof s.$ref === 'string'; hops++) {
    const target = lookup(root, s.$ref)
    if (target === undefined) break
    s = target
  }
  if (!isPlainObject(s)) return null
  const all = own(s, 'allOf')
  if (!Array.isArray(all) || depth >= maxAllOfDepth) return s
  // per call, not per chunk: a spread here is fine
  const merged: Schema = { ...s, allOf: undefined }
  for (const branch of all) {
    const b = resolve(branch, root, depth + 1)
    if (b === null) continue
    for (const k of ['type', 'enum', 'const', 'items', 'prefixItems', 'additionalProperties', 'anyOf', 'oneOf']) {
      if (merged[k] === undefined && b[k] !== undefined) merged[k] = b[k]
    }
    if (isPlainObject(b.properties)) merged.properties = { ...(isPlainObject(merged.properties) ? merged.properties : {}), ...b.properties }
  }
  return merged
}

/** The types a schema allows, from `type` or the members of `enum`/`const`; null when unconstrained. */
export function declaredTypes(s: Schema): JsonType[] | null {
  const t = s.type
  if (typeof t === 'string') return jsonTypes.has(t) ? [t as JsonType] : null
  if (Array.isArray(t)) {
    const list = t.filter((x): x is JsonType => typeof x === 'string' && jsonTypes.has(x))
    return list.length > 0 ? list : null
  }
  const members = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : null
  return members === null ? null : [...new Set(members.map(typeOf))]
}

export function typeOf(v: unknown): JsonType {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  if (v instanceof JsonNumber) return Number.isInteger(v.value) ? 'integer' : 'number'
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v as JsonType
  return 'object'
}

/** `type` allows a value of type `t` (an integer is a number). */
export function allows(types: readonly JsonType[] | null, t: JsonType): boolean {
  return types === null || types.includes(t) || (t === 'integer' && types.includes('number'))
}

/** `anyOf` or `oneOf`, when the schema has one. */
export function branchesOf(s: Schema): unknown[] | null {
  const b = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null
  return b !== null && b.length > 0 ? b : null
}

/** The enum members (or the const) a value may be snapped to. */
export function enumOf(s: Schema): unknown[] | null {
  return Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : null
}

/** The schema of property `key`: `properties`, then a matching `patternProperties`, then `additionalProperties`. */
export function propertySchema(s: Schema, key: string): unknown {
  if (isPlainObject(s.properties) && Object.prototype.hasOwnProperty.call(s.properties, key)) return s.properties[key]
  if (isPlainObject(s.patternProperties)) {
    for (const [pattern, sub] of Object.entries(s.patternProperties)) {
      try {
        if (new RegExp(pattern, 'u').test(key)) return sub
      } catch {
        // a pattern JavaScript cannot compile shapes nothing; the validator reports it if it matters
      }
    }
  }
  return isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined
}

/** The schema of item `i`: `prefixItems` / tuple `items`, then `items` / `additionalItems`. */
export function itemSchema(s: Schema, i: number): unknown {
  if (Array.isArray(s.prefixItems) && i < s.prefixItems.length) return s.prefixItems[i]
  if (Array.isArray(s.items)) return i < s.items.length ? s.items[i] : s.additionalItems
  return s.items
}
