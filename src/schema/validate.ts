/**
 * JSON-Schema validation with ajv. A validator is compiled once per schema
 * object and cached, so many sieves (or `parseToolCalls` calls) over the same
 * tools compile nothing after the first.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'

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
  // an `$id` in one tool's schema must not collide with another tool's, or with a later sieve's
  addUsedSchema: false,
  logger: false,
}

type Engine = Pick<Ajv, 'compile'>
let draft07: Engine | null = null
let draft2019: Engine | null = null
let draft2020: Engine | null = null

function engineFor(schema: object): Engine {
  const dialect = (schema as { $schema?: unknown }).$schema
  if (typeof dialect === 'string' && dialect.includes('2020-12')) return (draft2020 ??= new Ajv2020(options))
  if (typeof dialect === 'string' && dialect.includes('2019-09')) return (draft2019 ??= new Ajv2019(options))
  return (draft07 ??= new Ajv(options))
}

const cache = new WeakMap<object, Validator>()

/** Compiles (or takes from the cache) a validator; throws ajv's error for a schema it cannot compile. */
export function validatorFor(schema: object): Validator {
  const cached = cache.get(schema)
  if (cached !== undefined) return cached
  const fn: ValidateFunction = engineFor(schema).compile(schema)
  const validator: Validator = (input) => (fn(input) ? null : failure(fn.errors ?? []))
  cache.set(schema, validator)
  return validator
}

function failure(errors: readonly ErrorObject[]): ValidationFailure {
  const describe = (e: ErrorObject) => `${e.instancePath === '' ? '(input)' : e.instancePath} ${e.message ?? e.keyword}`
  return { path: errors[0]?.instancePath ?? '', message: errors.length === 0 ? 'invalid' : errors.map(describe).join('; ') }
}
