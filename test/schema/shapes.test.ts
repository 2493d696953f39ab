/**
 * The tool shapes users have: OpenAI chat and Responses tools, Anthropic
 * tools, MCP / AI SDK `{ name, inputSchema }` whose schema may be the AI
 * SDK's `jsonSchema()` wrapper, a lazy schema or a Standard Schema (Zod 4);
 * a schema with no JSON Schema to read (Zod 3) is refused naming the fix.
 * Each runs through the chunking matrix (`stable`).
 */
import { jsonSchema } from 'ai'
import { describe, expect, it } from 'vitest'
import { ToolsieveError, buildToolPrompt, createSieve } from '../../src/index.js'
import type { SieveOptions, ToolDefinition } from '../../src/types.js'
import { block, param, shape, stable } from '../values/helpers.js'

const schema = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['path'], additionalProperties: false }
const read = block(param('path', 'a.ts') + param('limit', '20'), 'read_file')
const zero = block(param('path', 'a.ts') + param('limit', '0'), 'read_file')

/** A Standard Schema as Zod 4 makes one: `~standard.jsonSchema.input({ target })` writes the JSON Schema. */
function standard(vendor: string, json?: (target: string) => unknown): Record<string, unknown> {
  const std: Record<string, unknown> = { version: 1, vendor, validate: () => ({ value: {} }) }
  if (json !== undefined) std.jsonSchema = { input: ({ target }: { target: string }) => json(target), output: () => ({}) }
  return { '~standard': std, _def: { type: 'object' } }
}

function refusal(tools: unknown): ToolsieveError {
  try {
    createSieve({ tools } as SieveOptions)
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    return e as ToolsieveError
  }
  throw new Error('createSieve did not throw')
}

describe('tool shapes', () => {
  it.each<[string, ToolDefinition]>([
    ['an OpenAI chat tool', { type: 'function', function: { name: 'read_file', parameters: schema } }],
    ['an OpenAI Responses tool', { type: 'function', name: 'read_file', parameters: schema }],
    ['an Anthropic tool', { name: 'read_file', input_schema: schema }],
    ['an MCP tool', { name: 'read_file', inputSchema: schema }],
    ["the AI SDK's jsonSchema() wrapper", { name: 'read_file', inputSchema: jsonSchema(schema) }],
    ['an AI SDK lazy schema (a function)', { name: 'read_file', inputSchema: () => jsonSchema(schema) }],
    ['a Standard Schema with a JSON Schema (Zod 4)', { name: 'read_file', inputSchema: standard('zod', () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema })) }],
  ])('should support %s: coerced and validated by its schema', (_label, tool) => {
    const events = stable(read, { tools: [tool] })
    expect(shape(events)).toEqual(['tool-call'])
    expect(events[0]!.input).toEqual({ path: 'a.ts', limit: 20 })
    const bad = stable(zero, { tools: [tool] })
    expect(shape(bad)).toEqual(['tool-call', 'diagnostic:invalid-arguments'])
    expect(bad[1]).toMatchObject({ path: '/limit' })
  })

  it('should support a Standard Schema that writes only draft-07', () => {
    const tool = { name: 'read_file', inputSchema: standard('arktype', (target) => {
      if (target !== 'draft-07') throw new Error(`unsupported target ${target}`)
      return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema }
    }) }
    expect(stable(zero, { tools: [tool] })[1]).toMatchObject({ code: 'invalid-arguments', path: '/limit' })
  })

  it('should support `parameters: null` in a Responses tool as no schema', () => {
    const events = stable(read, { tools: [{ type: 'function', name: 'read_file', parameters: null }] })
    expect(events[0]!.input).toEqual({ path: 'a.ts', limit: 20 })
  })

  it('should not support a Zod 3 schema (no JSON Schema to read): invalid-option naming the fix', () => {
    const zod3 = { _def: { typeName: 'ZodObject' }, safeParse: () => ({}) }
    for (const inputSchema of [zod3, standard('zod')]) {
      const e = refusal([{ name: 'read_file', inputSchema }])
      expect(e).toMatchObject({ code: 'invalid-option', field: 'tools[0]' })
      expect(e.message).toContain('"read_file"')
      expect(e.message).toContain('jsonSchema(zodToJsonSchema(schema))')
    }
  })

  it('should not support another Standard Schema with no JSON Schema, naming its vendor', () => {
    expect(refusal(['x', { name: 'read_file', inputSchema: standard('valibot') }])).toMatchObject({ field: 'tools[1]', message: expect.stringContaining('valibot') as unknown })
  })

  it('should not support a schema wrapper whose JSON Schema comes asynchronously, or that throws', () => {
    const later = { name: 'read_file', inputSchema: { jsonSchema: Promise.resolve(schema), validate: () => ({}) } }
    expect(refusal([later]).message).toMatch(/asynchronously/)
    const throws = { name: 'read_file', inputSchema: () => { throw new Error('boom') } }
    expect(refusal([throws]).message).toMatch(/"read_file".*boom/)
  })

  it('should not support a tool giving its schema twice', () => {
    expect(refusal([{ type: 'function', name: 'read_file', parameters: schema, inputSchema: schema }]).message).toMatch(/both inputSchema and parameters/)
  })

  it('should support the same shapes in buildToolPrompt, which shows their JSON Schema', () => {
    const tools = [
      { type: 'function' as const, name: 'read_file', parameters: schema },
      { name: 'search', inputSchema: jsonSchema({ type: 'object', properties: { query: { type: 'string' } } }) },
    ]
    const listed = buildToolPrompt(tools).split('\n').filter((l) => l.startsWith('{"name":')).map((l) => JSON.parse(l) as { name: string; parameters: { properties?: object } })
    expect(listed.map((t) => [t.name, Object.keys(t.parameters.properties ?? {})])).toEqual([['read_file', ['path', 'limit']], ['search', ['query']]])
  })
})
