/**
 * Recursive schemas: `$ref: '#'` and `$defs` entries that refer to
 * themselves compile, coerce and validate. A reference cycle that never
 * reaches a keyword is refused at creation with a message that says so, and
 * one that only loops at validation gives `invalid-arguments`, not a throw.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, createSieve } from '../../src/index.js'
import type { JsonSchema, SieveEvent } from '../../src/types.js'

const shape = (events: SieveEvent[]) => events.map((e) => (e.type === 'diagnostic' ? `diagnostic:${e.code}` : e.type))

function run(input: string, schema: JsonSchema): SieveEvent[] {
  const sieve = createSieve({ tools: [{ name: 'f', inputSchema: schema }] })
  return [...sieve.push(input), ...sieve.end()]
}

const call = (body: string) => `<tool_calls><invoke name="f">${body}</invoke></tool_calls>`

describe('recursive schemas', () => {
  const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#' } }, additionalProperties: false }

  it('should support `$ref: "#"` in a property, coercing at every level', () => {
    const events = run(call('<parameter name="name">1</parameter><parameter name="child"><name>2</name><child><name>3</name></child></parameter>'), node)
    expect(shape(events)).toEqual(['tool-call'])
    expect(events[0]).toMatchObject({ input: { name: '1', child: { name: '2', child: { name: '3' } } } })
  })

  it('should not support input the recursive schema refuses, with the path deep inside', () => {
    const events = run(call('{"child": {"child": {"extra": 1}}}'), node)
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
    expect(events[1]).toMatchObject({ path: '/child/child' })
  })

  it('should support `$defs` that refer to themselves', () => {
    const schema = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    }
    const events = run(call('{"tree": {"value": "1", "kids": [{"value": "2", "kids": []}]}}'), schema)
    expect(shape(events)).toEqual(['tool-call'])
    expect(events[0]).toMatchObject({ input: { tree: { value: 1, kids: [{ value: 2, kids: [] }] } } })
  })

  it('should support `$ref: "#"` in a draft 2020-12 schema', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...node }
    expect(shape(run(call('{"child": {"name": "x"}}'), schema))).toEqual(['tool-call'])
  })

  it('should support the same recursive schema with an $id in many sieves', () => {
    const schema = { $id: 'https://example.com/node', ...node }
    for (let i = 0; i < 3; i++) expect(shape(run(call('{"child": {}}'), JSON.parse(JSON.stringify(schema)) as JsonSchema))).toEqual(['tool-call'])
  })

  it('should not support a reference cycle through $defs with no keyword in it (invalid-option at creation, saying why)', () => {
    let error: unknown
    try {
      createSieve({ tools: [{ name: 'f', inputSchema: { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/a' } } } }] })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ToolsieveError)
    expect(error).toMatchObject({ code: 'invalid-option', field: 'tools[0]' })
    expect((error as Error).message).toMatch(/\$ref that leads back to itself/)
  })

  it('should not support a schema that is only a reference to itself: the call, with invalid-arguments saying it could not be checked', () => {
    const events = run(call('<parameter name="a">1</parameter>'), { $ref: '#' })
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
    expect((events[1] as { message: string }).message).toMatch(/could not be checked/)
  })

  it('should not support a schema whose branches lead back to it: the call, with invalid-arguments, nothing thrown', () => {
    for (const schema of [{ type: 'object', anyOf: [{ $ref: '#' }] }, { type: 'object', allOf: [{ $ref: '#' }] }]) {
      let events: SieveEvent[] = []
      expect(() => (events = run(call('<parameter name="a">1</parameter>'), schema))).not.toThrow()
      expect(shape(events)[0]).toBe('tool-call')
      expect(shape(events).filter((s) => s === 'diagnostic:internal-error')).toEqual([])
    }
  })

  it('should not support endless wrapping of a scalar in a self-referring array schema', () => {
    const schema = { type: 'object', properties: { v: { $ref: '#/$defs/list' } }, $defs: { list: { type: 'array', items: { $ref: '#/$defs/list' } } } }
    expect(shape(run(call('<parameter name="v">5</parameter>'), schema))).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
  })
})
