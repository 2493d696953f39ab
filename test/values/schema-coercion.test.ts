/**
 * Coercion to a tool's input schema: each value read as its JSON-Schema type.
 * A string-typed parameter is never JSON-decoded; non-finite numbers are refused.
 */
import { describe, expect, it } from 'vitest'
import type { JsonSchema, SieveOptions } from '../../src/types.js'
import { block, param, stable } from './helpers.js'

/** The value of `v` and the diagnostic codes, with `v` declared as `schema`. */
function coerce(written: string, schema: JsonSchema, attrs = ''): { value: unknown; codes: string[] } {
  const opts: SieveOptions = { tools: [{ name: 'f', inputSchema: { type: 'object', properties: { v: schema } } }] }
  const events = stable(block(param('v', written, attrs)), opts)
  const call = events.find((e) => e.type === 'tool-call')!
  return { value: (call.input as Record<string, unknown>).v, codes: events.flatMap((e) => (e.type === 'diagnostic' ? [e.code as string] : [])) }
}

/** [schema type, written, expected value]: every row must also validate. */
const matrix: Array<[JsonSchema, string, unknown]> = [
  [{ type: 'string' }, '123', '123'],
  [{ type: 'string' }, '1.0', '1.0'],
  [{ type: 'string' }, 'true', 'true'],
  [{ type: 'string' }, 'null', 'null'],
  [{ type: 'string' }, '{"a": 1}', '{"a": 1}'],
  [{ type: 'string' }, '<![CDATA[[1, 2]]]>', '[1, 2]'],
  [{ type: 'string' }, '<name>Ada</name>', '<name>Ada</name>'],
  [{ type: 'string' }, ' a &amp; b ', 'a & b'],
  [{ type: 'integer' }, '42', 42],
  [{ type: 'integer' }, ' -7 ', -7],
  [{ type: 'integer' }, '5.0', 5],
  [{ type: 'integer' }, '<![CDATA[ 12 ]]>', 12],
  [{ type: 'number' }, '2.5', 2.5],
  [{ type: 'number' }, '1e3', 1000],
  [{ type: 'number' }, '7', 7],
  [{ type: 'boolean' }, 'true', true],
  [{ type: 'boolean' }, 'False', false],
  [{ type: 'boolean' }, ' TRUE ', true],
  [{ type: 'null' }, 'null', null],
  [{ type: 'null' }, '', null],
  [{ type: 'object' }, '{"a": 1}', { a: 1 }],
  [{ type: 'object' }, '<a>1</a><b>x</b>', { a: 1, b: 'x' }],
  [{ type: 'array' }, '[1, 2]', [1, 2]],
  [{ type: 'array' }, '<item>a</item>', ['a']],
  [{ type: 'array' }, 'solo', ['solo']],
  [{ type: 'array', items: { type: 'string' } }, '<item>1</item><item>2</item>', ['1', '2']],
  [{ type: 'array', items: { type: 'integer' } }, '<n>1</n><n>2</n>', [1, 2]],
  [{ type: 'array', items: { type: 'integer' } }, '["1", 2]', [1, 2]],
  [{ type: ['integer', 'string'] }, '42', 42],
  [{ type: ['integer', 'string'] }, 'abc', 'abc'],
  [{ type: ['null', 'integer'] }, 'null', null],
  [{ enum: ['low', 'high'] }, ' high ', 'high'],
  [{ enum: [1, 2, 3] }, '2', 2],
  [{ enum: ['1', '2'] }, '2', '2'],
  [{ const: true }, 'true', true],
  [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, '5', 5],
  [{ anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'string' } }] }, '<item>x</item>', ['x']],
  [{ oneOf: [{ type: 'boolean' }, { type: 'string' }] }, 'yes', 'yes'],
  [{ oneOf: [{ type: 'number' }, { type: 'null' }] }, 'null', null],
  [{ type: 'object', properties: { id: { type: 'string' }, n: { type: 'number' } } }, '<id>007</id><n>3</n>', { id: '007', n: 3 }],
  [{ type: 'object', properties: { id: { type: 'string' } } }, '{"id": 7}', { id: '7' }],
  [{ type: 'object', additionalProperties: { type: 'string' } }, '<a>1</a><b>2</b>', { a: '1', b: '2' }],
  [{ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }, '<tags><item>1</item></tags>', { tags: ['1'] }],
  [{ allOf: [{ type: 'object' }, { properties: { n: { type: 'integer' } } }] }, '<n>4</n>', { n: 4 }],
]

describe('schema coercion', () => {
  it.each(matrix)('should support %j from %j', (schema, written, expected) => {
    const { value, codes } = coerce(written, schema)
    expect(value).toEqual(expected)
    expect(codes).toEqual([])
  })

  it('should support `string="false"` JSON coerced to the schema, strings from the exact source', () => {
    expect(coerce('1.50', { type: 'string' }, ' string="false"').value).toBe('1.50')
    expect(coerce('"7"', { type: 'integer' }, ' string="false"').value).toBe(7)
  })

  it('should support a parameter given twice as an array of the item type', () => {
    const opts: SieveOptions = { tools: [{ name: 'f', inputSchema: { type: 'object', properties: { v: { type: 'array', items: { type: 'string' } } } } }] }
    const events = stable(block(param('v', '1') + param('v', '2')), opts)
    expect(events[0]!.input).toEqual({ v: ['1', '2'] })
  })

  it('should support a file content of `{…}` as text when the schema says string', () => {
    const schema = { type: 'object', properties: { body: { type: 'string' }, html: { type: 'string' } } }
    const events = stable(block(param('body', '{"a": 1}') + param('html', '<p>hi</p>')), { tools: [{ name: 'f', inputSchema: schema }] })
    expect(events[0]!.input).toEqual({ body: '{"a": 1}', html: '<p>hi</p>' })
  })

  it('should support local $ref and $defs', () => {
    const schema = { type: 'object', $defs: { n: { type: 'integer' } }, properties: { v: { $ref: '#/$defs/n' } } }
    expect(stable(block(param('v', '9')), { tools: [{ name: 'f', inputSchema: schema }] })[0]!.input).toEqual({ v: 9 })
  })

  it('should not support non-finite numbers: kept as text, invalid-arguments', () => {
    for (const written of ['1e400', '-1e999', 'Infinity', 'NaN']) expect(coerce(written, { type: 'number' })).toEqual({ value: written, codes: ['invalid-arguments'] })
  })

  it('should support integers past 2^53 as integers (the nearest double here, the digits in arguments)', () => {
    expect(coerce('12345678901234567890', { type: 'integer' })).toEqual({ value: 12345678901234567890, codes: [] })
  })

  it('should not support fractions as integers', () => {
    expect(coerce('2.5', { type: 'integer' })).toEqual({ value: 2.5, codes: ['invalid-arguments'] })
  })

  it('should not support values that cannot be read as the type', () => {
    expect(coerce('yes', { type: 'boolean' })).toEqual({ value: 'yes', codes: ['invalid-arguments'] })
    expect(coerce('0x1F', { type: 'integer' })).toEqual({ value: '0x1F', codes: ['invalid-arguments'] })
    expect(coerce('medium', { enum: ['low', 'high'] })).toEqual({ value: 'medium', codes: ['invalid-arguments'] })
    expect(coerce('{"a":', { type: 'object' })).toEqual({ value: '{"a":', codes: ['invalid-arguments'] })
  })
})
