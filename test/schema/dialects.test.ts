/**
 * What the validator takes and what it refuses, at creation, naming the tool
 * and the place in its schema: the dialects (draft-04 to 2020-12; others
 * refused), `$ref`s (inside the schema, `$id`-relative ones too; a remote
 * one cannot be fetched without network and is refused), keyword values of
 * the wrong kind, and the keywords of every draft at validation.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, createSieve } from '../../src/index.js'
import type { JsonSchema, SieveEvent, SieveOptions } from '../../src/types.js'

const call = (body: string) => `<tool_calls><invoke name="f">${body}</invoke></tool_calls>`

/** The diagnostics of one call with JSON body `body` to a tool `f` with `schema` (`[]`: valid). */
function problems(schema: JsonSchema, body: string): Array<{ path: string | undefined; message: string }> {
  const sieve = createSieve({ tools: [{ name: 'f', inputSchema: schema }] })
  const events: SieveEvent[] = [...sieve.push(call(body)), ...sieve.end()]
  expect(events[0]?.type).toBe('tool-call')
  return events.filter((e) => e.type === 'diagnostic').map((e) => ({ path: (e as { path?: string }).path, message: (e as { message: string }).message }))
}

function refusal(schema: unknown): ToolsieveError {
  try {
    createSieve({ tools: ['other', { name: 'read_file', inputSchema: schema }] } as SieveOptions)
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    expect(e).toMatchObject({ code: 'invalid-option', field: 'tools[1]' })
    expect((e as Error).message).toContain('"read_file"')
    return e as ToolsieveError
  }
  throw new Error('createSieve did not throw')
}

describe('dialects', () => {
  it('should support draft-04, with its boolean exclusiveMinimum', () => {
    const s = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true } } }
    expect(problems(s, '{"n": 1}')).toEqual([])
    expect(problems(s, '{"n": 0}')).toMatchObject([{ path: '/n', message: expect.stringContaining('/n must be > 0') as unknown }])
  })

  it('should support draft-06, draft-07, 2019-09 and 2020-12 by $schema, and no $schema', () => {
    for (const d of ['http://json-schema.org/draft-06/schema#', 'http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2019-09/schema', 'https://json-schema.org/draft/2020-12/schema', undefined]) {
      const s = { $schema: d, type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 0 } } }
      expect(problems(s, '{"n": 1}')).toEqual([])
      expect(problems(s, '{"n": 0}')).toHaveLength(1)
    }
  })

  it('should not support another $schema, naming it', () => {
    const e = refusal({ $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' })
    expect(e.message).toMatch(/at \/\$schema: "http:\/\/json-schema\.org\/draft-03\/schema#" is not a dialect/)
  })
})

describe('references', () => {
  it('should support a $ref relative to an $id inside the schema', () => {
    const s = { $id: 'https://example.com/root.json', type: 'object', properties: { n: { $ref: 'int.json' } }, $defs: { int: { $id: 'int.json', type: 'integer' } } }
    expect(problems(s, '{"n": "3"}')).toEqual([])
    expect(problems(s, '{"n": "x"}')).toMatchObject([{ path: '/n' }])
  })

  it('should support a $ref to an $anchor, coercing by the anchored schema', () => {
    const s = { type: 'object', properties: { n: { $ref: '#int' } }, $defs: { i: { $anchor: 'int', type: 'integer' } } }
    expect(problems(s, '{"n": "3"}')).toEqual([])
    expect(problems(s, '{"n": "x"}')).toMatchObject([{ path: '/n' }])
  })

  it('should support a $dynamicRef to a $dynamicAnchor declared once', () => {
    const s = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { tree: { $ref: '#/$defs/node' } }, $defs: { node: { $dynamicAnchor: 'node', type: 'object', properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } } }, required: ['kids'] } } }
    expect(problems(s, '{"tree": {"kids": [{"kids": []}]}}')).toEqual([])
    expect(problems(s, '{"tree": {"kids": [{}]}}')).toMatchObject([{ path: '/tree/kids/0' }])
  })

  it('should not support a $dynamicRef whose anchor is declared more than once, naming it', () => {
    const s = { $defs: { a: { $dynamicAnchor: 'x' }, b: { $dynamicAnchor: 'x' } }, properties: { v: { $dynamicRef: '#x' } } }
    expect(refusal(s).message).toMatch(/at \/properties\/v\/\$dynamicRef: .*use \$ref/)
  })

  it('should not support a remote $ref (no network to fetch it): refused naming it and where it is', () => {
    const e = refusal({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } })
    expect(e.message).toMatch(/at \/properties\/a\/\$ref: \$ref "https:\/\/example\.com\/a\.json" is outside the schema/)
    expect(e.message).toMatch(/\$defs/)
  })

  it('should not support a local $ref to nothing, naming it', () => {
    expect(refusal({ properties: { a: { $ref: '#/$defs/missing' } } }).message).toMatch(/at \/properties\/a\/\$ref: \$ref "#\/\$defs\/missing" points at nothing/)
  })
})

describe('keyword values', () => {
  it.each<[string, unknown, RegExp]>([
    ['an unknown type', { type: 'nope' }, /at \/type: type must be one of/],
    ['a repeated type', { type: ['string', 'string'] }, /at \/type/],
    ['a negative count', { properties: { a: { minLength: -1 } } }, /at \/properties\/a\/minLength: minLength must be a non-negative integer/],
    ['a pattern JavaScript cannot compile', { properties: { a: { pattern: '(' } } }, /at \/properties\/a\/pattern/],
    ['a patternProperties key JavaScript cannot compile', { patternProperties: { '[': {} } }, /at \/patternProperties\/\[/],
    ['required that is not a list of names', { required: 'a' }, /at \/required/],
    ['an empty anyOf', { anyOf: [] }, /at \/anyOf: anyOf must be a non-empty array of schemas/],
    ['a subschema that is not one', { items: 3 }, /at \/items: a schema must be an object or a boolean/],
    ['multipleOf 0', { multipleOf: 0 }, /at \/multipleOf/],
    ['a boolean exclusiveMinimum outside draft-04', { exclusiveMinimum: true }, /at \/exclusiveMinimum: exclusiveMinimum must be a number \(a boolean is draft-04's: declare "\$schema"/],
  ])('should not support %s, naming where', (_label, schema, message) => {
    expect(refusal(schema).message).toMatch(message)
  })

  it('should support keywords it does not know, and format as an annotation (not checked)', () => {
    const s = { type: 'object', strict: true, 'x-vendor': { a: 1 }, properties: { email: { type: 'string', format: 'email' }, format: { type: 'string' } } }
    expect(problems(s, '{"email": "not an email", "format": "x"}')).toEqual([])
  })

  it('should support a frozen schema (the validator works on its own copy)', () => {
    const freeze = (v: unknown): unknown => {
      if (v !== null && typeof v === 'object') for (const x of Object.values(v)) freeze(x)
      return Object.freeze(v)
    }
    const s = freeze({ type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'integer' } } }) as JsonSchema
    expect(problems(s, '{"n": "2"}')).toEqual([])
    expect(problems(s, '{"n": "two"}')).toHaveLength(1)
  })
})

describe('keywords at validation', () => {
  it.each<[string, Record<string, unknown>, string, string | null]>([
    ['if/then/else', { if: { properties: { kind: { const: 'file' } } }, then: { required: ['path'] }, else: { required: ['url'] } }, '{"kind": "file"}', "(input) must have required property 'path'"],
    ['dependentRequired', { dependentRequired: { from: ['to'] } }, '{"from": 1}', "(input) must have property 'to' when property 'from' is present"],
    ['dependencies (draft-07)', { dependencies: { from: ['to'] } }, '{"from": 1}', "(input) must have property 'to' when property 'from' is present"],
    ['unevaluatedProperties', { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false }, '{"a": 1, "b": 2}', "(input) must NOT have unevaluated properties ('b')"],
    ['additionalProperties: false', { properties: { a: {} }, additionalProperties: false }, '{"a": 1, "b": 2}', "(input) must NOT have additional properties ('b')"],
    ['propertyNames', { propertyNames: { maxLength: 3 } }, '{"long name": 1}', '/long name must NOT have more than 3 characters'],
    ['contains', { properties: { l: { type: 'array', contains: { type: 'integer' } } } }, '{"l": ["a"]}', '/l must contain at least 1 valid item'],
    ['uniqueItems', { properties: { l: { uniqueItems: true } } }, '{"l": [1, 1]}', '/l must NOT have duplicate items'],
    ['oneOf', { properties: { v: { oneOf: [{ type: 'integer' }, { type: 'number' }] } } }, '{"v": 1}', '/v must match exactly one schema in oneOf (2 match)'],
    ['not', { properties: { v: { not: { type: 'string' } } } }, '{"v": "s"}', '/v must NOT be valid'],
    ['enum', { properties: { v: { enum: ['a', 'b'] } } }, '{"v": "c"}', '/v must be equal to one of the allowed values'],
    ['maxItems', { properties: { l: { maxItems: 1 } } }, '{"l": [1, 2]}', '/l must NOT have more than 1 items'],
    ['type lists', { properties: { v: { type: ['integer', 'null'] } } }, '{"v": "x"}', '/v must be integer,null'],
    ['a key with / and ~ in the path', { properties: { 'a/b~c': { type: 'integer' } } }, '{"a/b~c": "x"}', '/a~1b~0c must be integer'],
  ])('should support %s', (_label, schema, body, message) => {
    const found = problems({ type: 'object', ...schema }, body)
    expect(found).toHaveLength(1)
    expect(found[0]!.message).toContain(message!)
  })
})
