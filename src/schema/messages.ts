/**
 * The validator's errors as `invalid-arguments` reports them: each at the
 * JSON pointer of the value (`/limit`, `''` for the whole input), worded
 * `must …` as JSON-Schema tools commonly word them. The validator reports
 * every failing keyword on the way down too ("property "a" does not match
 * schema" above the real error at `/a`); those add nothing and are dropped.
 */
import type { OutputUnit } from '@cfworker/json-schema'

export interface ValidationFailure {
  /** The JSON pointer of the first error's value (`''` is the whole input). */
  path: string
  /** Every error, `path message`, joined with `; `. */
  message: string
}

// keywords whose error only says that a subschema failed; the subschema's own errors follow it
const wrappers = new Set(['$ref', '$recursiveRef', 'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'allOf', 'dependentSchemas', 'dependencies', 'propertyNames'])

/** `#/a/b~1c` (the validator's URI fragment) → `/a/b~1c` (a JSON pointer). */
function pathOf(location: string): string {
  const p = location.slice(1)
  try {
    return decodeURIComponent(p)
  } catch {
    return p
  }
}

/** The text between `before` and `after` in `s`, or null. */
function between(s: string, before: string, after: string): string | null {
  return s.startsWith(before) && s.endsWith(after) ? s.slice(before.length, s.length - after.length) : null
}

/** The last number in the message (`String is too short (2 < 3).` → `3`). */
function limit(e: OutputUnit): string {
  const m = /(-?[\d.e+-]+)\)?\.$/.exec(e.error)
  return m === null ? '?' : m[1]!
}

function wording(e: OutputUnit): string {
  const m = e.error
  switch (e.keyword) {
    case 'type':
      return `must be ${(between(m.replace(/^Instance type "[a-z]+" is invalid\. /, ''), 'Expected "', '".') ?? '').split('", "').join(',')}`
    case 'required':
      return `must have required property '${between(m, 'Instance does not have required property "', '".') ?? '?'}'`
    case 'enum':
      return 'must be equal to one of the allowed values'
    case 'const':
      return 'must be equal to constant'
    case 'not':
      return 'must NOT be valid'
    case 'anyOf':
      return 'must match a schema in anyOf'
    case 'oneOf':
      return `must match exactly one schema in oneOf (${/\((\d+) matches\)/.exec(m)?.[1] ?? '?'} match)`
    case 'if':
      return m.includes('"then"') ? 'must match "then" schema' : 'must match "else" schema'
    case 'minimum':
      return m.includes('or equal to') ? `must be > ${limit(e)}` : `must be >= ${limit(e)}`
    case 'maximum':
      return m.includes('or equal to') ? `must be < ${limit(e)}` : `must be <= ${limit(e)}`
    case 'exclusiveMinimum':
      return `must be > ${limit(e)}`
    case 'exclusiveMaximum':
      return `must be < ${limit(e)}`
    case 'multipleOf':
      return `must be multiple of ${limit(e)}`
    case 'minLength':
      return `must NOT have fewer than ${limit(e)} characters`
    case 'maxLength':
      return `must NOT have more than ${limit(e)} characters`
    case 'minItems':
      return `must NOT have fewer than ${limit(e)} items`
    case 'maxItems':
      return `must NOT have more than ${limit(e)} items`
    case 'minProperties':
      return `must NOT have fewer than ${limit(e)} properties`
    case 'maxProperties':
      return `must NOT have more than ${limit(e)} properties`
    case 'uniqueItems':
      return `must NOT have duplicate items (${m.replace(/^Duplicate items at /, '').replace(/\.$/, '')})`
    case 'pattern':
      return 'must match the pattern'
    case 'contains':
      return 'must contain at least 1 valid item'
    case 'dependentRequired':
    case 'dependencies': {
      const r = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(m)
      return r === null ? m : `must have property '${r[2]}' when property '${r[1]}' is present`
    }
    case 'false':
      return 'boolean schema is false'
    default:
      return m
  }
}

/** The failure to report for the validator's `errors` (every error, in the order found). */
export function failureOf(errors: readonly OutputUnit[]): ValidationFailure {
  const found: Array<{ path: string; text: string }> = []
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i]!
    const next = errors[i + 1]
    const wrapper = wrappers.has(e.keyword) && (e.keyword !== 'dependencies' || e.error.endsWith('dependant schema.'))
    if (wrapper && next !== undefined) {
      // `additionalProperties: false` (and the like) fail as a `false` schema at the extra value: said at the object
      const closed = next.keyword === 'false' && /^(additional|unevaluated)(Properties|Items)$/.test(e.keyword)
      if (closed) {
        const what = e.keyword.startsWith('additional') ? 'additional' : 'unevaluated'
        const key = between(e.error, 'Property "', `" does not match ${what} properties schema.`)
        found.push({ path: pathOf(e.instanceLocation), text: e.keyword.endsWith('Items') ? `must NOT have ${what} items` : `must NOT have ${what} properties${key === null ? '' : ` ('${key}')`}` })
        i++
      }
      continue
    }
    found.push({ path: pathOf(e.instanceLocation), text: wording(e) })
  }
  if (found.length === 0) return { path: '', message: 'invalid' }
  return { path: found[0]!.path, message: found.map((f) => `${f.path === '' ? '(input)' : f.path} ${f.text}`).join('; ') }
}
