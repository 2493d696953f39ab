/**
 * `toolsieveMiddleware().transformParams`: by default the call as it was
 * made; with `transformParams: true`, a call for a model with tools
 * rewritten for a model without them. Checked on the params themselves (the
 * AI SDK passes what `transformParams` returns straight to the model) and
 * through the SDK: what the mock model was given.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, buildToolPrompt, parseToolCalls } from '../../src/index.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { outputText } from '../../src/ai-sdk/prompt.js'
import { readFileTool, textStream, loadLines, wrappedStream, dsml, textsOf } from './ai-sdk-helpers.js'

const lines = await loadLines()
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })

/** The params the prompt-based mode (`transformParams: true`) gives the model. */
async function transform(params: Record<string, unknown>, options?: Parameters<typeof toolsieveMiddleware>[0]) {
  const m = toolsieveMiddleware({ transformParams: true, ...options })
  return (await m.transformParams({ type: 'stream', params: { prompt: [user('Go.')], ...params } as never })) as Record<string, any>
}

describe('transformParams by default', () => {
  it('should support the call left as it was made: native tools, tool choice and prompt unchanged', async () => {
    const prompt = [
      { role: 'system', content: 'Be brief.' },
      user('Read a.'),
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'A' } }] },
    ]
    const params = { prompt, tools: [readFileTool], toolChoice: { type: 'required' } }
    const copy = structuredClone(params)
    for (const m of [toolsieveMiddleware(), toolsieveMiddleware(null), toolsieveMiddleware({ transformParams: null })]) {
      const out = await m.transformParams({ type: 'stream', params: params as never })
      expect(out).toBe(params)
      expect(out).toEqual(copy)
    }
  })
})

describe('transformParams: true', () => {
  it('should support the tools in the system prompt, tools and toolChoice removed', async () => {
    const out = await transform({ tools: [readFileTool], toolChoice: { type: 'auto' } })
    expect(out.tools).toBeUndefined()
    expect(out.toolChoice).toBeUndefined()
    expect(out.prompt).toEqual([{ role: 'system', content: buildToolPrompt([readFileTool]) }, user('Go.')])
  })

  it("should support the section appended to the caller's first system message", async () => {
    const out = await transform({ prompt: [{ role: 'system', content: 'Be brief.' }, user('Go.')], tools: [readFileTool] })
    expect(out.prompt[0].content).toBe(`Be brief.\n\n${buildToolPrompt([readFileTool])}`)
    expect(out.prompt).toHaveLength(2)
  })

  it('should support the xml dialect for the prompt and the earlier calls', async () => {
    const prompt = [user('Go.'), { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } }] }]
    const out = await transform({ prompt, tools: [readFileTool] }, { dialect: 'xml' })
    expect(out.prompt[0].content).toBe(buildToolPrompt([readFileTool], { dialect: 'xml' }))
    expect(out.prompt[2].content).toEqual([{ type: 'text', text: '<tool_calls>\n<invoke name="read_file">\n<parameter name="path" string="true">a</parameter>\n</invoke>\n</tool_calls>' }])
  })

  it("should support the conversation's tool calls as DSML after the text, and tool results as the user turn DeepSeek's encoder writes", async () => {
    const prompt = [
      user('Read a and b.'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two files.' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a', limit: 2 } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', input: '{"path":"b"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'A' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'read_file', output: { type: 'json', value: { size: 1 } } },
        ],
      },
    ]
    const out = await transform({ prompt, tools: [readFileTool] })
    const assistant = out.prompt[2]
    expect(assistant.content[0]).toEqual({ type: 'reasoning', text: 'Two files.' })
    expect(assistant.content).toHaveLength(2)
    const { text, calls } = parseToolCalls(assistant.content[1].text)
    expect(text).toBe('Reading.\n\n')
    expect(calls.map((c) => c.input)).toEqual([{ path: 'a', limit: 2 }, { path: 'b' }])
    expect(out.prompt[3]).toEqual(user('<tool_result>A</tool_result>\n<tool_result>{"size":1}</tool_result>'))
  })

  it('should support every tool output kind as text', () => {
    expect(outputText({ type: 'text', value: 'ok' })).toBe('ok')
    expect(outputText({ type: 'json', value: [1, 'a'] })).toBe('[1,"a"]')
    expect(outputText({ type: 'error-text', value: 'boom' })).toBe('Error: boom')
    expect(outputText({ type: 'error-json', value: { e: 1 } })).toBe('Error: {"e":1}')
    expect(outputText({ type: 'execution-denied', reason: 'not now' })).toBe('The tool call was denied: not now')
    expect(outputText({ type: 'execution-denied' })).toBe('The tool call was denied.')
    expect(outputText({ type: 'content', value: [{ type: 'text', text: 'see' }, { type: 'image-data', data: 'x', mediaType: 'image/png' }] })).toBe('see\n[image-data image/png]')
  })

  it('should support a user turn after tool results merged into one user turn', async () => {
    const prompt = [
      user('Go.'),
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'A' } }] },
      user('And now?'),
    ]
    const out = await transform({ prompt })
    expect(out.prompt.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(out.prompt[2].content).toEqual([{ type: 'text', text: '<tool_result>A</tool_result>' }, { type: 'text', text: 'And now?' }])
  })

  it('should support tool choices: required and a named tool said in the prompt, none leaves the tools out', async () => {
    const other = { type: 'function', name: 'list_dir', inputSchema: { type: 'object' } }
    const required = await transform({ tools: [readFileTool, other], toolChoice: { type: 'required' } })
    expect(required.prompt[0].content).toMatch(/you must call at least one of these tools\.$/)
    const named = await transform({ tools: [readFileTool, other], toolChoice: { type: 'tool', toolName: 'list_dir' } })
    expect(named.prompt[0].content).toMatch(/you must call the tool list_dir\.$/)
    expect(named.prompt[0].content).not.toContain('"name":"read_file"')
    const none = await transform({ tools: [readFileTool], toolChoice: { type: 'none' } })
    expect(none.prompt).toEqual([user('Go.')])
    expect(none.tools).toBeUndefined()
  })

  it('should support provider tools left to the provider', async () => {
    const search = { type: 'provider', id: 'openai.web_search', name: 'web_search', args: {} }
    const out = await transform({ tools: [readFileTool, search], toolChoice: { type: 'required' } })
    expect(out.tools).toEqual([search])
    expect(out.toolChoice).toEqual({ type: 'auto' })
    expect(out.prompt[0].content).toContain('"name":"read_file"')
    expect(out.prompt[0].content).not.toContain('web_search')
  })

  it('should support no tools and no tool turns: the prompt unchanged', async () => {
    const out = await transform({})
    expect(out.prompt).toEqual([user('Go.')])
  })

  it('should not support rewriting with transformParams: false', async () => {
    const params = { prompt: [user('Go.')], tools: [readFileTool] }
    const out = await toolsieveMiddleware({ transformParams: false }).transformParams({ type: 'generate', params: params as never })
    expect(out).toBe(params)
  })

  it('should not support bad options: they throw when the middleware is made, naming the field', () => {
    const field = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e instanceof ToolsieveError ? [e.code, e.field] : e
      }
      return 'no error'
    }
    expect(field(() => toolsieveMiddleware({ transformParams: 'yes' as never }))).toEqual(['invalid-option', 'transformParams'])
    expect(field(() => toolsieveMiddleware({ dialect: 'yaml' as never }))).toEqual(['invalid-option', 'dialect'])
    expect(field(() => toolsieveMiddleware({ streamArguments: 1 as never }))).toEqual(['invalid-option', 'streamArguments'])
    expect(field(() => toolsieveMiddleware({ quoted: 5 as never }))).toEqual(['invalid-option', 'quoted'])
    expect(field(() => toolsieveMiddleware({ onConflict: 'both' as never }))).toEqual(['invalid-option', 'onConflict'])
    expect(field(() => toolsieveMiddleware({ captureLimit: -1 }))).toEqual(['invalid-option', 'captureLimit'])
    expect(field(() => toolsieveMiddleware([] as never))).toEqual(['invalid-option', ''])
  })
})

for (const loaded of lines) {
  describe(`transformParams through the SDK (ai ${loaded.line.major})`, () => {
    it('should support the model given the native tools and the prompt as they were by default, and a leaked call rescued', async () => {
      const prompt = [{ role: 'system', content: 'Be brief.' }, user('Read a.')]
      const { parts, model } = await wrappedStream(loaded, textStream([dsml('read_file', { path: 'a' })]), toolsieveMiddleware(), { prompt, toolChoice: { type: 'auto' } })
      const given = (model as { doStreamCalls: Array<Record<string, any>> }).doStreamCalls[0]!
      expect(given.tools).toEqual([readFileTool])
      expect(given.toolChoice).toEqual({ type: 'auto' })
      expect(given.prompt).toEqual(prompt)
      expect(parts.filter((p) => p.type === 'tool-call').map((p) => [p.toolName, p.input])).toEqual([['read_file', '{"path":"a"}']])
    })

    it('should support the model given the rewritten params with transformParams: true, and a repeat of the prompt example kept as text', async () => {
      // a model that echoes the prompt's own example call: quoted, so it does not run
      const example = parseToolCalls(buildToolPrompt([readFileTool])).calls[0]!.raw
      const { parts, model } = await wrappedStream(loaded, textStream([`Like ${example}`]), toolsieveMiddleware({ transformParams: true }))
      const given = (model as { doStreamCalls: Array<Record<string, any>> }).doStreamCalls[0]!
      expect(given.tools).toBeUndefined()
      expect(given.prompt[0]).toEqual({ role: 'system', content: buildToolPrompt([readFileTool]) })
      expect(parts.some((p) => p.type === 'tool-call')).toBe(false)
      expect(textsOf(parts).text).toBe(`Like ${example}`)
    })

    it('should support calls checked against the tools from the params when the params are left alone', async () => {
      for (const transformParams of [undefined, false]) {
        const seen: string[] = []
        const { parts, model } = await wrappedStream(loaded, textStream([dsml('read_file', { nope: 'x' })]), toolsieveMiddleware({ transformParams, onDiagnostic: (d) => seen.push(d.code) }))
        expect((model as { doStreamCalls: Array<Record<string, any>> }).doStreamCalls[0]!.tools).toHaveLength(1)
        expect(seen).toEqual(['invalid-arguments'])
        expect(parts.some((p) => p.type === 'tool-call')).toBe(true)
      }
    })
  })
}
