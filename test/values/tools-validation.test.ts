/**
 * The `tools` option: names, OpenAI tool objects or `{ name, inputSchema }`;
 * `unknown-tool` for an undeclared name; ajv validation after coercion
 * (`invalid-arguments` with the validator's path and message); and
 * `onInvalid: 'emit' | 'reject'`.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, createSieve, parseToolCalls } from '../../src/index.js'
import type { SieveOptions, ToolDefinition } from '../../src/types.js'
import { toolTable } from '../../src/schema/tools.js'
import { block, param, shape, stable } from './helpers.js'

const schema = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['path'], additionalProperties: false }
const read = block(param('path', 'a.ts') + param('limit', '20'), 'read_file')

describe('tools option', () => {
  it.each<[string, ToolDefinition]>([
    ['a name', 'read_file'],
    ['an OpenAI tool object', { type: 'function', function: { name: 'read_file', parameters: schema } }],
    ['{ name, inputSchema }', { name: 'read_file', inputSchema: schema }],
    ["Anthropic's { name, input_schema }", { name: 'read_file', input_schema: schema }],
  ])('should support %s', (_label, tool) => {
    const events = stable(read, { tools: [tool, 'other'] })
    expect(shape(events)).toEqual(['tool-call'])
    expect(events[0]!.input).toEqual({ path: 'a.ts', limit: 20 })
    expect(events[0]!.diagnostics).toBeUndefined()
  })

  it('should support no tools option as no checks at all', () => {
    expect(shape(stable(block('', 'anything')))).toEqual(['tool-call'])
  })

  it('should not support an undeclared tool name (unknown-tool, call still emitted)', () => {
    const events = stable(read, { tools: ['write_file'] })
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:unknown-tool'])
    expect(events[1]).toMatchObject({ span: events[0]!.span })
    expect(events[1]!.message).toContain('read_file')
    expect(events[0]!.diagnostics).toEqual([events[1]])
  })

  it('should not support any name when the tools list is empty', () => {
    expect(shape(stable(read, { tools: [] }))).toEqual(['tool-call', 'diagnostic:unknown-tool'])
  })

  it('should not support bad tool definitions (invalid-option at creation, naming the entry)', () => {
    const differing = [{ name: 'a', inputSchema: { type: 'object' } }, { name: 'a', inputSchema: { type: 'object', required: ['x'] } }]
    const bad: unknown[] = [[''], [{ name: 'a', inputSchema: { type: 'nope' } }], differing, ['a', { name: 'a', inputSchema: { type: 'object' } }], [{ name: 'a', inputSchema: 3 }], [42]]
    for (const tools of bad) {
      expect(() => createSieve({ tools } as SieveOptions)).toThrow(ToolsieveError)
      try {
        createSieve({ tools } as SieveOptions)
      } catch (e) {
        expect((e as ToolsieveError).code).toBe('invalid-option')
        expect((e as ToolsieveError).field).toMatch(/^tools\[\d\]$/)
      }
    }
  })

  it('should support a tool declared twice with the same schema (lists merged from several sources)', () => {
    const copy = JSON.parse(JSON.stringify(schema)) as typeof schema
    const events = stable(read, { tools: ['other', { name: 'read_file', inputSchema: schema }, { type: 'function', function: { name: 'read_file', parameters: copy } }] })
    expect(shape(events)).toEqual(['tool-call'])
    expect(shape(stable(block('', 'a'), { tools: ['a', 'a'] }))).toEqual(['tool-call'])
  })

  it('should support compiling a schema once, however many sieves use it', () => {
    const tools = [{ name: 'read_file', inputSchema: { ...schema } }]
    const first = toolTable(tools).get('read_file')!.validate
    expect(first).not.toBeNull()
    expect(toolTable(tools).get('read_file')!.validate).toBe(first)
    for (let i = 0; i < 5; i++) parseToolCalls(read, { tools })
    expect(toolTable(tools).get('read_file')!.validate).toBe(first)
    // a schema with an `$id` does not collide with itself or a copy in a later sieve
    const withId = { $id: 'https://example.com/read', ...schema }
    expect(() => [createSieve({ tools: [{ name: 'a', inputSchema: withId }] }), createSieve({ tools: [{ name: 'a', inputSchema: { ...withId } }] })]).not.toThrow()
  })
})

describe('validation', () => {
  const tools = [{ name: 'read_file', inputSchema: schema }]

  it('should not support arguments that fail the schema (invalid-arguments with path and message)', () => {
    const events = stable(block(param('path', 'a.ts') + param('limit', '0'), 'read_file'), { tools })
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
    expect(events[1]).toMatchObject({ path: '/limit' })
    expect(events[1]!.message).toMatch(/\/limit must be >= 1/)
  })

  it('should not support a missing required parameter (path is the whole input)', () => {
    const events = stable(block(param('limit', '3'), 'read_file'), { tools })
    expect(events[1]).toMatchObject({ code: 'invalid-arguments', path: '' })
    expect(events[1]!.message).toContain("must have required property 'path'")
  })

  it('should support a JSON body validated like parameters', () => {
    expect(shape(stable(block('{"path": "a", "limit": "2"}', 'read_file'), { tools }))).toEqual(['tool-call'])
    expect(shape(stable(block('{"path": "a", "extra": 1}', 'read_file'), { tools }))).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
  })

  it('should support draft 2020-12 schemas', () => {
    const s2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'integer' }] } } }
    const events = stable(block(param('p', '<item>4</item>')), { tools: [{ name: 'f', inputSchema: s2020 }] })
    expect(events.map((e) => e.input ?? e.code)).toEqual([{ p: [4] }])
  })
})

describe('onInvalid', () => {
  const tools = [{ name: 'read_file', inputSchema: schema }]
  const bad = 'Reading. ' + block(param('path', 'a.ts') + param('limit', 'many'), 'read_file') + ' Done.'

  it("should support 'emit' (default): the call with its diagnostics, then each as an event", () => {
    const events = stable(bad, { tools })
    expect(shape(events)).toEqual(['text', 'tool-call', 'diagnostic:invalid-arguments', 'text'])
    expect(events[1]!.diagnostics).toEqual([events[2]])
  })

  it("should support 'reject': the whole block released as text, then the diagnostics", () => {
    const events = stable(bad, { tools, onInvalid: 'reject' })
    expect(shape(events)).toEqual(['text', 'diagnostic:invalid-arguments', 'text'])
    expect(events[0]!.text).toBe('Reading. ' + block(param('path', 'a.ts') + param('limit', 'many'), 'read_file'))
  })

  it("should support 'reject' for every call problem, with all of a block's problems", () => {
    const two = block(param('v', 'x', ' string="false"'), 'g') + block(param('path', 'p'), 'read_file')
    const events = stable(two, { tools: [...tools, 'g', 'h'], onInvalid: 'reject' })
    expect(shape(events)).toEqual(['text', 'diagnostic:bad-json-value', 'tool-call'])
    const multi = '<tool_calls><invoke name="read_file"></invoke><invoke name="zz"></invoke></tool_calls>'
    expect(shape(stable(multi, { tools, onInvalid: 'reject' }))).toEqual(['text', 'diagnostic:invalid-arguments', 'diagnostic:unknown-tool'])
  })

  it('should not support other values', () => {
    expect(() => createSieve({ onInvalid: 'drop' } as unknown as SieveOptions)).toThrow(/onInvalid/)
  })
})
