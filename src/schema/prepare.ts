/**
 * A tool's schema checked and copied for the validator, which interprets
 * schemas (no code generated from strings, so it runs where `eval` is
 * blocked: edge runtimes, strict CSP, extensions) but checks nothing of the
 * schema itself. This walk is that check: every keyword the validator reads
 * must have a value of its kind (`type: 'nope'` would silently accept
 * anything), each problem named by its place in the schema.
 *
 * The copy is what the validator works on: it marks the schema objects it
 * is given (their resolved `$ref`s), which must not be the caller's (a frozen
 * schema would throw), and `format` is left out of it (an annotation here,
 * not a check). The caller's schema is still what coercion reads.
 */
import { isPlainObject } from '../values/own.js'

/** The validator's mode: draft-04's boolean `exclusiveMinimum`, or everything else (its `$ref` siblings count). */
export type Draft = '4' | '2019-09'

export interface Prepared {
  schema: Record<string, unknown>
  draft: Draft
  /** The copied schema objects holding a `$ref`, with where each is, for the reference check. */
  refs: Array<{ at: string; schema: Record<string, unknown> }>
}

/** A schema the validator cannot take; `at` is the JSON pointer of the bad part (`''`: the whole schema). */
export class SchemaProblem extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(`${at === '' ? 'the schema' : `at ${at}`}: ${message}`)
  }
}

/** Deeper than this, a schema is refused rather than walked (a recursive walk, bounded). */
export const maxSchemaDepth = 512

const jsonTypes: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])

// what each keyword holds; a keyword not listed is an annotation or unknown, kept (copied) and never checked
const oneSchema = new Set(['additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'])
const schemaList = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems'])
const schemaMap = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
const counts = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'])
const numbers = new Set(['minimum', 'maximum', 'multipleOf'])
const strings = new Set(['$ref', '$id', '$anchor', '$comment', '$recursiveRef', '$dynamicAnchor'])

/** The dialect a `$schema` names; throws for one the validator does not implement. */
export function draftOf(schema: Record<string, unknown>): Draft {
  if (!('$schema' in schema) || schema.$schema === undefined) return '2019-09'
  const d = schema.$schema
  const m = typeof d === 'string' ? /^https?:\/\/json-schema\.org\/(draft-0[4-7]|draft\/2019-09|draft\/2020-12)\/schema#?$/.exec(d) : null
  if (m === null || m[1] === 'draft-05') {
    throw new SchemaProblem('/$schema', `${JSON.stringify(d)} is not a dialect toolsieve validates (draft-04, draft-06, draft-07, 2019-09, 2020-12); remove $schema or name one of these`)
  }
  return m[1] === 'draft-04' ? '4' : '2019-09'
}

const pointer = (at: string, key: string | number) => `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u')
    return true
  } catch {
    return false
  }
}

/** Checks `schema` and returns the validator's copy; throws a {@link SchemaProblem}. */
export function prepare(schema: Record<string, unknown>): Prepared {
  const draft = draftOf(schema)
  const refs: Prepared['refs'] = []
  const dynamic = { anchors: new Map<string, number>(), refs: [] as Array<{ at: string; schema: Record<string, unknown> }> }

  const copyValue = (v: unknown, depth: number): unknown => {
    if (depth > maxSchemaDepth) throw new SchemaProblem('', `nested more than ${maxSchemaDepth} levels deep`)
    if (Array.isArray(v)) return v.map((x) => copyValue(x, depth + 1))
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v)) define(out, k, copyValue((v as Record<string, unknown>)[k], depth + 1))
    return out
  }

  const walk = (s: unknown, at: string, depth: number): unknown => {
    if (depth > maxSchemaDepth) throw new SchemaProblem(at, `nested more than ${maxSchemaDepth} levels deep`)
    if (typeof s === 'boolean') return s
    if (!isPlainObject(s)) throw new SchemaProblem(at, 'a schema must be an object or a boolean')
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(s)) {
      const v = s[k]
      const here = pointer(at, k)
      const bad = (what: string) => new SchemaProblem(here, `${k} must be ${what}`)
      if (k === 'format') continue
      if (oneSchema.has(k)) define(out, k, walk(v, here, depth + 1))
      else if (schemaList.has(k)) {
        if (!Array.isArray(v) || v.length === 0) throw bad('a non-empty array of schemas')
        define(out, k, v.map((b, i) => walk(b, pointer(here, i), depth + 1)))
      } else if (schemaMap.has(k)) {
        if (!isPlainObject(v)) throw bad('an object of schemas')
        const m: Record<string, unknown> = {}
        for (const name of Object.keys(v)) {
          if (k === 'patternProperties' && !compiles(name)) throw new SchemaProblem(pointer(here, name), 'the pattern is not a valid regular expression (JavaScript, u flag)')
          define(m, name, walk(v[name], pointer(here, name), depth + 1))
        }
        define(out, k, m)
      } else if (k === 'items') {
        define(out, k, Array.isArray(v) ? v.map((b, i) => walk(b, pointer(here, i), depth + 1)) : walk(v, here, depth + 1))
      } else if (k === 'type') {
        const list = Array.isArray(v) ? v : [v]
        if (list.length === 0 || !list.every((t) => typeof t === 'string' && jsonTypes.has(t)) || new Set(list).size !== list.length) {
          throw bad(`one of ${[...jsonTypes].join(', ')}, or a list of them without repeats`)
        }
        define(out, k, v)
      } else if (k === 'required') {
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw bad('an array of property names')
        define(out, k, v.slice())
      } else if (k === 'enum') {
        if (!Array.isArray(v)) throw bad('an array')
        define(out, k, copyValue(v, depth + 1))
      } else if (counts.has(k)) {
        if (!isCount(v)) throw bad('a non-negative integer')
        define(out, k, v)
      } else if (numbers.has(k)) {
        if (typeof v !== 'number' || !Number.isFinite(v) || (k === 'multipleOf' && v <= 0)) throw bad(k === 'multipleOf' ? 'a number above 0' : 'a number')
        define(out, k, v)
      } else if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
        if (draft === '4' ? typeof v !== 'boolean' : typeof v !== 'number' || !Number.isFinite(v)) {
          throw bad(draft === '4' ? 'a boolean in draft-04' : typeof v === 'boolean' ? 'a number (a boolean is draft-04\'s: declare "$schema": "http://json-schema.org/draft-04/schema#")' : 'a number')
        }
        define(out, k, v)
      } else if (k === 'uniqueItems') {
        if (typeof v !== 'boolean') throw bad('a boolean')
        define(out, k, v)
      } else if (k === 'pattern') {
        if (typeof v !== 'string' || !compiles(v)) throw bad('a valid regular expression (JavaScript, u flag)')
        define(out, k, v)
      } else if (k === 'dependentRequired' || k === 'dependencies') {
        if (!isPlainObject(v)) throw bad('an object')
        const m: Record<string, unknown> = {}
        for (const name of Object.keys(v)) {
          const d = v[name]
          if (Array.isArray(d) && d.every((x) => typeof x === 'string')) define(m, name, d.slice())
          else if (k === 'dependencies') define(m, name, walk(d, pointer(here, name), depth + 1))
          else throw new SchemaProblem(pointer(here, name), 'must be an array of property names')
        }
        define(out, k, m)
      } else if (strings.has(k) || (k === 'id' && draft === '4')) {
        if (typeof v !== 'string') throw bad('a string')
        define(out, k, v)
      } else if (k === '$dynamicRef') {
        if (typeof v !== 'string') throw bad('a string')
        dynamic.refs.push({ at, schema: out })
        define(out, k, v)
      } else define(out, k, copyValue(v, depth + 1))
    }
    if (typeof out.$ref === 'string') refs.push({ at, schema: out })
    if (typeof out.$dynamicAnchor === 'string') dynamic.anchors.set(out.$dynamicAnchor, (dynamic.anchors.get(out.$dynamicAnchor) ?? 0) + 1)
    return out
  }

  const copy = walk(schema, '', 0) as Record<string, unknown>
  for (const r of staticDynamicRefs(copy, dynamic)) refs.push(r)
  return { schema: copy, draft, refs }
}

/**
 * `$dynamicRef` (2020-12), which the validator does not implement, as a
 * plain `$ref`: exact when its anchor is declared once in the whole schema
 * (no other scope can then take it over). Otherwise it is refused.
 */
function staticDynamicRefs(root: Record<string, unknown>, dynamic: { anchors: Map<string, number>; refs: Prepared['refs'] }): Prepared['refs'] {
  if (dynamic.refs.length === 0) return []
  const declare = (s: unknown): void => {
    if (Array.isArray(s)) return s.forEach(declare)
    if (!isPlainObject(s)) return
    if (typeof s.$dynamicAnchor === 'string' && s.$anchor === undefined) s.$anchor = s.$dynamicAnchor
    for (const v of Object.values(s)) declare(v)
  }
  for (const { at, schema } of dynamic.refs) {
    const ref = schema.$dynamicRef as string
    const name = ref.startsWith('#') ? ref.slice(1) : null
    if (name === null || name.startsWith('/') || dynamic.anchors.get(name) !== 1 || schema.$ref !== undefined) {
      throw new SchemaProblem(pointer(at, '$dynamicRef'), `$dynamicRef ${JSON.stringify(ref)} is supported only as a reference to a $dynamicAnchor declared once in the schema; use $ref`)
    }
    schema.$ref = ref
    delete schema.$dynamicRef
  }
  declare(root)
  return dynamic.refs
}

/** An own data property whatever the key (`__proto__` in a schema is a property name like any other). */
function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
}
