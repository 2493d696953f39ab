/**
 * JSON-Schema validation by an interpreter (`@cfworker/json-schema`): no
 * code is generated from strings, so tools work where that is blocked
 * (Cloudflare Workers and other edge runtimes, pages with a strict CSP,
 * browser extensions, `node --disallow-code-generation-from-strings`).
 * The schema is checked and copied once per schema *content* (`prepare.ts`).
 * A gateway builds its tools afresh for every request: keyed by the schema's
 * canonical text, in a bounded LRU, the same tools are prepared once and
 * memory stays flat however many requests come.
 */
import { dereference, validate, type Schema as CfSchema } from '@cfworker/json-schema'
import { writeJson } from '../values/json-write.js'
import { failureOf, type ValidationFailure } from './messages.js'
import { prepare, SchemaProblem, type Prepared } from './prepare.js'

export type { ValidationFailure } from './messages.js'

export type Validator = (input: unknown) => ValidationFailure | null

/** How many validators are kept: far more distinct schemas than any one deployment declares. */
export const cacheSize = 2048

/** Validators by the schema's content. */
class SchemaCache {
  /** Least recently used first: a Map iterates in insertion order, and a hit is re-inserted. */
  private readonly byContent = new Map<string, Validator>()
  /** The same schema object again (a sieve per turn over one tools array) skips even the canonical text. */
  private readonly byObject = new WeakMap<object, { key: string; validator: Validator }>()
  /**
   * Canonical texts by the schema's plain `JSON.stringify` text: a deep copy
   * (the gateway case) has the same text, and native stringify is several
   * times quicker than writing the canonical text. Bounded like the cache.
   */
  private readonly canonicalByText = new Map<string, string>()

  get size(): number {
    return this.byContent.size
  }

  key(schema: object): string {
    const hit = this.byObject.get(schema)
    if (hit !== undefined) return hit.key
    let text: string | undefined
    try {
      text = JSON.stringify(schema)
    } catch (e) {
      // too deep for the platform's recursion: the canonical writer has no such limit (a cycle throws there too)
      if (!(e instanceof RangeError)) throw e
    }
    if (text === undefined) return writeJson(schema, { sortKeys: true }).json
    let key = this.canonicalByText.get(text)
    if (key === undefined) {
      key = writeJson(schema, { sortKeys: true }).json
      this.canonicalByText.set(text, key)
      if (this.canonicalByText.size > cacheSize) this.canonicalByText.delete(this.canonicalByText.keys().next().value!)
    }
    return key
  }

  validator(schema: object): Validator {
    const known = this.byObject.get(schema)
    // evicted from the LRU but still alive here: back in, with no compile
    if (known !== undefined) return this.remember(known.key, known.validator)
    const key = this.key(schema)
    let validator = this.byContent.get(key)
    if (validator === undefined) validator = validatorOf(prepare(schema as Record<string, unknown>))
    this.byObject.set(schema, { key, validator })
    return this.remember(key, validator)
  }

  private remember(key: string, v: Validator): Validator {
    this.byContent.delete(key)
    this.byContent.set(key, v)
    if (this.byContent.size > cacheSize) this.byContent.delete(this.byContent.keys().next().value!)
    return v
  }
}

/**
 * The one module-level memo of the library, and why it is one:
 * it is what makes "compiled once per schema content" true across sieves,
 * and a gateway builds its tools afresh for every request, so nothing a
 * caller keeps from one sieve to the next could hold it (grammars keep what
 * is compiled from them: `grammar/derived.ts`). An LRU, so not frozen once
 * filled; bounded at {@link cacheSize}.
 */
const schemas = new SchemaCache()

/**
 * The canonical text of a schema: JSON with sorted keys, so two copies of
 * one schema, in any key order, share a validator. Throws a `TypeError` for
 * a cycle or a value JSON cannot hold.
 */
export function schemaKey(schema: object): string {
  return schemas.key(schema)
}

/** Prepares (or takes from the cache) a validator; throws a {@link SchemaProblem} for a schema it cannot take. */
export function validatorFor(schema: object): Validator {
  return schemas.validator(schema)
}

/** How many validators the content cache holds now (for tests and the schema-cache bench). */
export function cachedSchemas(): number {
  return schemas.size
}

/**
 * The validator of a prepared schema. Every `$ref` must resolve inside the
 * schema: there is no network to fetch another document from, and a `$ref`
 * the validator meets unresolved would throw on every call.
 */
function validatorOf(p: Prepared): Validator {
  let lookup: Record<string, CfSchema | boolean>
  try {
    lookup = dereference(p.schema as CfSchema)
  } catch (e) {
    throw new SchemaProblem('', (e as Error).message)
  }
  for (const { at, schema } of p.refs) {
    const target = (schema as { __absolute_ref__?: string }).__absolute_ref__ ?? (schema.$ref as string)
    if (lookup[target] === undefined) {
      const ref = JSON.stringify(schema.$ref)
      throw new SchemaProblem(`${at}/$ref`, (schema.$ref as string).startsWith('#')
        ? `$ref ${ref} points at nothing in the schema`
        : `$ref ${ref} is outside the schema: toolsieve resolves only references inside it (no network); put that schema under $defs and refer to it as "#/$defs/…"`)
    }
    refCycle(schema, lookup, p.schema, at)
  }
  const root = p.schema as CfSchema
  return (input) => {
    const r = validate(input, root, p.draft, lookup, false)
    return r.valid ? null : failureOf(r.errors)
  }
}

/**
 * A chain of `$ref`s that comes back to where it started without reaching
 * the root or a keyword would recurse forever on any input; the root itself
 * (`$ref: '#'`) is left to validation, which reports it per call.
 */
function refCycle(from: Record<string, unknown>, lookup: Record<string, CfSchema | boolean>, root: object, at: string): void {
  const seen = new Set<unknown>([from])
  let s: unknown = from
  while (typeof s === 'object' && s !== null && typeof (s as { $ref?: unknown }).$ref === 'string') {
    const target = lookup[(s as { __absolute_ref__?: string }).__absolute_ref__ ?? '']
    if (target === undefined || target === root) return
    if (seen.has(target)) throw new SchemaProblem(`${at}/$ref`, 'a $ref that leads back to itself without a keyword in between')
    seen.add(target)
    s = target
  }
}
