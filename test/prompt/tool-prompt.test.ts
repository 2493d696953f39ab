/**
 * `buildToolPrompt`: the format taught in our words, the example call it
 * shows read back by the sieve as the call it describes, the tools listed
 * with their schemas normalised, and the same tool shapes the sieve takes.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, buildToolPrompt, createSieve, parseToolCalls } from '../../src/index.js'
import { exampleCall } from '../../src/prompt/tool-prompt.js'

const readFile = {
  type: 'function' as const,
  function: {
    name: 'read_file',
    description: 'Read a file from the workspace.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', description: 'Most lines to read.' } }, required: ['path'] },
  },
}

/** The tools as listed in the prompt: one JSON object per line after the heading. */
function listed(prompt: string): Array<{ name: string; description: string; parameters: Record<string, unknown> }> {
  return prompt
    .split('## Available tools')[1]!
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
}

describe('buildToolPrompt', () => {
  for (const dialect of ['dsml', 'xml'] as const) {
    it(`should support an example call (${dialect}) that the sieve reads back as the call the prompt describes`, () => {
      const prompt = buildToolPrompt([readFile], { dialect })
      const { calls, diagnostics } = parseToolCalls(prompt)
      expect(calls.map((c) => ({ name: c.name, input: c.input }))).toEqual([exampleCall])
      expect(diagnostics).toEqual([])
      // the prose names each value the block carries
      expect(prompt).toContain(`made-up tool, ${exampleCall.name}, with query set to the text ${JSON.stringify(exampleCall.input.query)}`)
      expect(prompt).toContain(`limit set to the number ${exampleCall.input.limit} and exact set to ${exampleCall.input.exact}`)
      // and streamed one character at a time it is the same call
      const sieve = createSieve()
      const streamed = [...[...prompt].flatMap((c) => sieve.push(c)), ...sieve.end()].filter((e) => e.type === 'tool-call')
      expect(streamed.map((e) => e.type === 'tool-call' && e.input)).toEqual([exampleCall.input])
    })
  }

  it("should support DeepSeek's own DSML by default, with string=\"true\" raw strings and string=\"false\" JSON", () => {
    const prompt = buildToolPrompt([readFile])
    expect(prompt).toContain('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search_docs">\n<｜DSML｜parameter name="query" string="true">price < 10 & "in stock"</｜DSML｜parameter>\n')
    expect(prompt).toContain('<｜DSML｜parameter name="limit" string="false">5</｜DSML｜parameter>')
    expect(prompt).toContain('string="true", and the text exactly as it is')
    expect(prompt).toContain('string="false", and the value as JSON')
  })

  it('should support the plain XML dialect', () => {
    const prompt = buildToolPrompt([readFile], { dialect: 'xml' })
    expect(prompt).toContain('<tool_calls>\n<invoke name="search_docs">\n<parameter name="query" string="true">price < 10 & "in stock"</parameter>\n')
    expect(prompt).not.toContain('DSML')
  })

  it('should support saying never to write a call as an example or inside code', () => {
    const prompt = buildToolPrompt([readFile])
    expect(prompt).toMatch(/Never write it, or any part of it, as an example, in Markdown code \(fenced or inline\)/)
  })

  it('should support listing tools with descriptions filled in and objects closed (additionalProperties: false)', () => {
    const tools = listed(buildToolPrompt([readFile, 'list_dir']))
    expect(tools).toEqual([
      {
        name: 'read_file',
        description: 'Read a file from the workspace.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string', description: 'The path argument.' }, limit: { type: 'integer', description: 'Most lines to read.' } },
          required: ['path'],
          additionalProperties: false,
        },
      },
      { name: 'list_dir', description: 'The list_dir tool.', parameters: { type: 'object' } },
    ])
  })

  it('should support nested objects closed, and should not support closing what the schema leaves open or an allOf branch', () => {
    const schema = {
      type: 'object',
      properties: {
        opts: { type: 'object', properties: { deep: { type: 'boolean' } } },
        list: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
        free: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] },
      },
    }
    const [tool] = listed(buildToolPrompt([{ name: 'x', inputSchema: schema }]))
    const p = tool!.parameters.properties as Record<string, Record<string, unknown>>
    expect(p.opts!.additionalProperties).toBe(false)
    expect((p.list!.items as Record<string, unknown>).additionalProperties).toBe(false)
    expect(p.free!.additionalProperties).toBe(true)
    expect((p.both!.allOf as Array<Record<string, unknown>>).map((b) => 'additionalProperties' in b)).toEqual([false, false])
  })

  it('should not support the top-level $schema in the listing: it tells the model nothing', () => {
    const [tool] = listed(buildToolPrompt([{ name: 'x', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} } }]))
    expect(tool!.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false })
  })

  it('should not support changing the schemas the caller gave', () => {
    const before = JSON.stringify(readFile)
    buildToolPrompt([readFile])
    expect(JSON.stringify(readFile)).toBe(before)
  })

  it("should support the sieve's tool shapes: names, OpenAI chat tools, { name, inputSchema }, input_schema and AI SDK function tools", () => {
    const schema = { type: 'object', properties: { q: { type: 'string', description: 'Query.' } } }
    const tools = listed(
      buildToolPrompt([
        'a',
        { type: 'function', function: { name: 'b', parameters: schema } },
        { name: 'c', description: 'Sees c.', inputSchema: schema },
        { name: 'd', input_schema: schema },
        { type: 'function', name: 'e', description: 'Sees e.', inputSchema: schema },
      ]),
    )
    expect(tools.map((t) => [t.name, t.description, (t.parameters.properties as Record<string, unknown> | undefined)?.q !== undefined])).toEqual([
      ['a', 'The a tool.', false],
      ['b', 'The b tool.', true],
      ['c', 'Sees c.', true],
      ['d', 'The d tool.', true],
      ['e', 'Sees e.', true],
    ])
  })

  it('should support a tool declared twice with the same schema, listed once', () => {
    expect(listed(buildToolPrompt([readFile, readFile])).map((t) => t.name)).toEqual(['read_file'])
  })

  it('should support no tools: no format taught, and the model told to write no call', () => {
    const prompt = buildToolPrompt([])
    expect(prompt).toContain('You have no tools')
    expect(parseToolCalls(prompt).sawToolCallSyntax).toBe(false)
  })

  it('should not support a bad tool, a schema that does not compile, conflicting duplicates or an unknown dialect', () => {
    const err = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e instanceof ToolsieveError ? [e.code, e.field] : e
      }
      return 'no error'
    }
    expect(err(() => buildToolPrompt([{ name: '' }]))).toEqual(['invalid-option', 'tools[0]'])
    expect(err(() => buildToolPrompt(['a', { name: 'b', inputSchema: { type: 'nope' } }]))).toEqual(['invalid-option', 'tools[1]'])
    expect(err(() => buildToolPrompt([{ name: 'a', inputSchema: { type: 'object' } }, { name: 'a', inputSchema: { type: 'string' } }]))).toEqual(['invalid-option', 'tools[1]'])
    expect(err(() => buildToolPrompt([{ name: 'a', description: 3 as unknown as string }]))).toEqual(['invalid-option', 'tools[0]'])
    expect(err(() => buildToolPrompt(null as unknown as []))).toEqual(['invalid-option', 'tools'])
    expect(err(() => buildToolPrompt(['a'], { dialect: 'yaml' as 'xml' }))).toEqual(['invalid-option', 'dialect'])
  })
})
