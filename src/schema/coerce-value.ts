/**
 * Coercing a JSON value (an invoke's JSON body, a `string="false"` value,
 * JSON text a schema asked to read) to a schema. JSON can nest far deeper
 * than the call stack allows, so this is a work list, not recursion: each
 * value gets a {@link Plan} from its own schema alone — a finished value, or
 * a container whose members are coerced later to their own schemas — and a
 * loop fills the containers.
 *
 * ```
 * > | {"a": [1, "2"]}    schema: { properties: { a: { type: array, items: { type: integer } } } }
 *     ^ plan: an object; each member a task with its property's schema
 *           ^ plan: an array; each item a task with the items' schema
 *            ^ done: 1 is an integer already
 *               ^ done: "2" read as 2
 * ```
 */
import { writeJson } from '../values/json-write.js'
import { JsonNumber } from '../values/json-number.js'
import { isPlainObject, plainObject, setOwn } from '../values/own.js'
import { allows, branchesOf, declaredTypes, enumOf, itemSchema, propertySchema, resolve, typeOf, type JsonType, type Schema } from './keywords.js'
import { fromText, sameJson, scalar } from './read.js'

/**
 * Steps that do not go into the value (an `anyOf` branch, a single value
 * wrapped as a one-item array) allowed in a row. A recursive schema can make
 * them endless (`{ anyOf: [{ $ref: '#' }] }`, `{ type: 'array', items: { $ref: '#' } }`
 * around a scalar); past this the value is kept as it is and validation speaks.
 */
export const maxHops = 8

export type Plan =
  | { kind: 'done'; value: unknown }
  /** Each item coerced to `itemSchema(schema, i)`. */
  | { kind: 'array'; items: readonly unknown[]; schema: Schema }
  /** Each own key coerced to `propertySchema(schema, key)`. */
  | { kind: 'object'; from: Record<string, unknown>; schema: Schema }
  /** `[value]`, the value coerced to `schema`: a single value where a list is expected. */
  | { kind: 'wrap'; value: unknown; schema: unknown; hops: number }

const done = (value: unknown): Plan => ({ kind: 'done', value })

/** The members of `v` coerced by `s`, `v` itself taken as the type it has. */
export function refinePlan(v: unknown, s: Schema): Plan {
  if (Array.isArray(v)) return { kind: 'array', items: v, schema: s }
  return isPlainObject(v) ? { kind: 'object', from: v, schema: s } : done(v)
}

function planType(p: Plan): JsonType {
  return p.kind === 'done' ? typeOf(p.value) : p.kind === 'object' ? 'object' : 'array'
}

/** What `v` becomes under `schema`, one level deep; `source` is its exact text, when known. */
function plan(v: unknown, schema: unknown, root: Schema, source: string | undefined, hops: number): Plan {
  const s = resolve(schema, root)
  if (s === null || hops > maxHops) return done(v)
  const branches = branchesOf(s)
  if (branches !== null) {
    // the first branch whose types allow the value as decoded keeps it; otherwise the first it can be read as
    const t = typeOf(v)
    for (const b of branches) {
      const r = resolve(b, root)
      if (r === null || allows(declaredTypes(r), t)) return plan(v, b, root, source, hops + 1)
    }
    for (const b of branches) {
      const p = plan(v, b, root, source, hops + 1)
      if (allows(declaredTypes(resolve(b, root)!), planType(p))) return p
    }
    return done(v)
  }
  const members = enumOf(s)
  if (members !== null) {
    const sv = scalar(v)
    for (const m of members) {
      if (sameJson(m, v)) return done(m)
      if (m !== null && typeof m !== 'object' && sv !== null && typeof sv !== 'object' && String(m) === String(sv)) return done(m)
    }
  }
  const types = declaredTypes(s)
  if (allows(types, typeOf(v))) return refinePlan(v, s)
  for (const t of types!) {
    const p = valueAs(v, t, s, source, hops)
    if (p !== null) return p
  }
  return done(v)
}

function valueAs(v: unknown, t: JsonType, s: Schema, source: string | undefined, hops: number): Plan | null {
  if (typeof v === 'string') {
    const r = fromText(v, t)
    if (!r.ok) return null
    return t === 'object' || t === 'array' ? refinePlan(r.value, s) : done(r.value)
  }
  if (t === 'string') {
    // a schema asking for a string gets the digits as written, and structure as its JSON text
    if (source !== undefined) return done(source)
    if (v instanceof JsonNumber) return done(v.source)
    if (typeof v === 'number' || typeof v === 'boolean') return done(String(v))
    return v !== null ? done(writeJson(v).json) : null
  }
  if (t === 'array') return { kind: 'wrap', value: v, schema: itemSchema(s, 0), hops: hops + 1 }
  return null
}

interface Task {
  v: unknown
  schema: unknown
  hops: number
  into: unknown[] | Record<string, unknown>
  key: number | string
}

/** Runs `first` and every plan it leads to; returns the coerced value. */
export function runPlan(first: Plan, root: Schema): unknown {
  const top: unknown[] = [undefined]
  const tasks: Task[] = []
  let p: Plan | null = first
  let into: Task['into'] = top
  let key: Task['key'] = 0
  for (;;) {
    let out: unknown
    if (p.kind === 'done') out = p.value
    else if (p.kind === 'array') {
      const arr: unknown[] = []
      for (let i = 0; i < p.items.length; i++) {
        const schema = itemSchema(p.schema, i)
        // no schema for it: the item as decoded, without a task (a long list under `items`-less array schema)
        arr.push(schema === undefined ? p.items[i] : undefined)
        if (schema !== undefined) tasks.push({ v: p.items[i], schema, hops: 0, into: arr, key: i })
      }
      out = arr
    } else if (p.kind === 'object') {
      const obj = plainObject()
      for (const k of Object.keys(p.from)) {
        const schema = propertySchema(p.schema, k)
        // the key goes in now, so members keep their order whatever order the tasks finish in
        setOwn(obj, k, schema === undefined ? p.from[k] : undefined)
        if (schema !== undefined) tasks.push({ v: p.from[k], schema, hops: 0, into: obj, key: k })
      }
      out = obj
    } else {
      const arr: unknown[] = [undefined]
      tasks.push({ v: p.value, schema: p.schema, hops: p.hops, into: arr, key: 0 })
      out = arr
    }
    if (Array.isArray(into)) into[key as number] = out
    else setOwn(into, key as string, out)
    const t = tasks.pop()
    if (t === undefined) return top[0]
    p = plan(t.v, t.schema, root, undefined, t.hops)
    into = t.into
    key = t.key
  }
}

/** Coerces a plain JSON value to `schema`; `source` is its exact text, when known (a string schema gets it). */
export function coerceValue(v: unknown, schema: unknown, root: Schema, source?: string): unknown {
  return runPlan(plan(v, schema, root, source, 0), root)
}

/** The members of `v` (already of the type `s` asks for) coerced to their schemas. */
export function refine(v: unknown, s: Schema, root: Schema): unknown {
  return runPlan(refinePlan(v, s), root)
}
