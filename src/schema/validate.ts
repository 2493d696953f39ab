/**
 * JSON-Schema validation with ajv, compiled once per schema *content*. A
 * gateway builds its tools afresh for every request: keyed by object, each
 * request compiled its schemas again and kept them (ajv holds every schema
 * it compiled), about 3 KB per tool per request, forever. Keyed by the
 * schema's canonical text, in a bounded LRU, the same tools compile once and
 * memory stays flat however many requests come.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { writeJson } from '../values/json-write.js'

export interface ValidationFailure {
  /** The validator's `instancePath` of the first error (`''` is the whole input). */
  path: string
  /** Every error, `path message`, joined with `; `. */
  message: string
}

export type Validator = (input: unknown) => ValidationFailure | null

const options: Options = {
  allErrors: true,
  // tool schemas in the wild carry keywords ajv does not know (`strict` in OpenAI tools, `title`s, vendor fields)
  strict: false,
  // no ajv-formats: a `format` is an annotation here, not a check
  validateFormats: false,
  logger: false,
}

/** How many compiled validators are kept: far more distinct schemas than any one deployment declares. */
export const cacheSize = 2048

/**
 * ajv keeps a reference to every schema compiled on an instance (its value
 * scope), even after `removeSchema`; a fresh instance after this many
 * compiles lets the old one go once the validators made with it are evicted.
 */
const compilesPerEngine = 512

type Dialect = 'draft-07' | '2019-09' | '2020-12'
interface Engine {
  ajv: Pick<Ajv, 'compile' | 'removeSchema'>
  compiles: number
}

function dialectOf(schema: object): Dialect {
  const d = (schema as { $schema?: unknown }).$schema
  if (typeof d === 'string' && d.includes('2020-12')) return '2020-12'
  if (typeof d === 'string' && d.includes('2019-09')) return '2019-09'
  return 'draft-07'
}

/** Validators by the schema's content, with the ajv instances that compile them. */
class SchemaCache {
  /** Per dialect, the ajv instance compiling now; replaced after {@link compilesPerEngine} compiles. */
  private readonly engines = new Map<Dialect, Engine>()
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
    if (validator === undefined) {
      const fn = this.compile(schema)
      validator = (input) => (fn(input) ? null : failure(fn.errors ?? []))
    }
    this.byObject.set(schema, { key, validator })
    return this.remember(key, validator)
  }

  private remember(key: string, v: Validator): Validator {
    this.byContent.delete(key)
    this.byContent.set(key, v)
    if (this.byContent.size > cacheSize) this.byContent.delete(this.byContent.keys().next().value!)
    return v
  }

  private engineFor(dialect: Dialect): Engine {
    let e = this.engines.get(dialect)
    if (e === undefined || e.compiles >= compilesPerEngine) {
      const ajv = dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options)
      e = { ajv, compiles: 0 }
      this.engines.set(dialect, e)
    }
    return e
  }

  private compile(schema: object): ValidateFunction {
    const engine = this.engineFor(dialectOf(schema))
    engine.compiles++
    try {
      // added while it compiles, so `$ref: '#'` (a recursive schema) resolves; removed after, so an `$id` in
      // one tool's schema never collides with another's and ajv does not keep the schema
      return engine.ajv.compile(schema)
    } catch (e) {
      if (e instanceof RangeError) throw new Error(`${e.message} (a $ref that leads back to itself without a keyword in between?)`)
      throw e
    } finally {
      engine.ajv.removeSchema(schema)
    }
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

/** Compiles (or takes from the cache) a validator; throws ajv's error for a schema it cannot compile. */
export function validatorFor(schema: object): Validator {
  return schemas.validator(schema)
}

function failure(errors: readonly ErrorObject[]): ValidationFailure {
  const describe = (e: ErrorObject) => `${e.instancePath === '' ? '(input)' : e.instancePath} ${e.message ?? e.keyword}`
  return { path: errors[0]?.instancePath ?? '', message: errors.length === 0 ? 'invalid' : errors.map(describe).join('; ') }
}

/** How many validators the content cache holds now (for tests and the schema-cache bench). */
export function cachedSchemas(): number {
  return schemas.size
}
