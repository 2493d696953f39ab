/**
 * `toolsieve/ai-sdk` end to end: the AI SDK's own `streamText` and
 * `generateText` over its mock model, wrapped with `toolsieveMiddleware()`,
 * with tools that run. Multi-step: the model calls a tool in DSML split at
 * awkward places, the SDK runs it and calls the model again with the result:
 * by default as native tool calls and results, with `transformParams: true`
 * as text. On `ai` 6 (MockLanguageModelV3) and, on Node 22, `ai` 7
 * (MockLanguageModelV4).
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { awkward, callsOf, dsml, generated, loadLines, textStream, type LoadedLine } from './ai-sdk-helpers.js'

const lines = await loadLines()

/** A `read_file` tool that records what it ran with. */
function tools(loaded: LoadedLine, ran: unknown[]) {
  const { tool, jsonSchema } = loaded.ai
  return {
    read_file: tool({
      description: 'Read a file',
      inputSchema: jsonSchema<{ path: string; limit?: number }>({ type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] }),
      execute: async (input: { path: string; limit?: number }) => {
        ran.push(input)
        return `contents of ${input.path}`
      },
    }),
  }
}

const first = `Let me read both.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/b & <c>.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`

for (const loaded of lines) {
  const { ai } = loaded
  describe(`ai ${loaded.line.major} end to end`, () => {
    it('should support streamText running the rescued calls, and the next step given the native tools, calls and results by default', async () => {
      const model = new loaded.Mock({ doStream: [{ stream: loaded.stream(textStream(awkward(first))) }, { stream: loaded.stream(textStream(['Both are short.'])) }] })
      const ran: unknown[] = []
      const result = ai.streamText({
        model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }),
        system: 'Be brief.',
        prompt: 'Read a.ts and b.ts',
        tools: tools(loaded, ran),
        stopWhen: ai.stepCountIs(3),
      })
      expect(await result.text).toBe('Both are short.')
      expect(ran).toEqual([{ path: 'src/a.ts', limit: 20 }, { path: 'src/b & <c>.ts' }])
      for (const call of callsOf(model, 'doStreamCalls')) {
        expect(call.tools.map((t: { name: string }) => t.name)).toEqual(['read_file'])
        expect(call.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' })
      }
      const second = callsOf(model, 'doStreamCalls')[1]!
      const parts = second.prompt.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      expect(parts.filter((p: { type: string }) => p.type === 'tool-call').map((p: { input: unknown }) => p.input)).toEqual([{ path: 'src/a.ts', limit: 20 }, { path: 'src/b & <c>.ts' }])
      expect(parts.filter((p: { type: string }) => p.type === 'tool-result')).toHaveLength(2)
      expect(JSON.stringify(second.prompt)).not.toContain('DSML')
    })

    it('should support streamText running the rescued calls with their input, and the next step seeing calls and results as text with transformParams: true', async () => {
      for (const chunks of [awkward(first), [...first]]) {
        const model = new loaded.Mock({ doStream: [{ stream: loaded.stream(textStream(chunks)) }, { stream: loaded.stream(textStream(['Both are short.'])) }] })
        const ran: unknown[] = []
        const result = ai.streamText({
          model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware({ transformParams: true }) }),
          prompt: 'Read a.ts and b.ts',
          tools: tools(loaded, ran),
          stopWhen: ai.stepCountIs(3),
        })
        const types: string[] = []
        for await (const part of result.fullStream) types.push(part.type)
        expect(ran).toEqual([{ path: 'src/a.ts', limit: 20 }, { path: 'src/b & <c>.ts' }])
        expect(await result.text).toBe('Both are short.')
        const steps = await result.steps
        expect(steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop'])
        expect(steps[0]!.text).toBe('Let me read both.')
        expect(types.filter((t) => t === 'tool-result')).toHaveLength(2)
        expect(types.filter((t) => t === 'error')).toEqual([])
        // the second call: the tools in the system prompt, the calls as DSML, the results as a user turn
        const second = callsOf(model, 'doStreamCalls')[1]!
        expect(second.tools).toBeUndefined()
        expect(second.prompt[0].role).toBe('system')
        expect(second.prompt[0].content).toContain('{"name":"read_file","description":"Read a file"')
        const assistant = second.prompt.find((m: { role: string }) => m.role === 'assistant')
        expect(assistant.content.map((p: { text: string }) => p.text).join('')).toContain(
          '<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="read_file">',
        )
        expect(second.prompt.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: '<tool_result>contents of src/a.ts</tool_result>\n<tool_result>contents of src/b & <c>.ts</tool_result>' }] })
      }
    })

    it('should support generateText with text and calls in their order in the content, and the tools run', async () => {
      const text = `Reading.\n\n${dsml('read_file', { path: 'src/a.ts' })}\n\nThen I will summarise.`
      const model = new loaded.Mock({ doGenerate: [generated([{ type: 'text', text }]), generated([{ type: 'text', text: 'Summary.' }])] })
      const ran: unknown[] = []
      const result = await ai.generateText({
        model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }),
        prompt: 'Read a.ts',
        tools: tools(loaded, ran),
        stopWhen: ai.stepCountIs(3),
      })
      expect(ran).toEqual([{ path: 'src/a.ts' }])
      expect(result.text).toBe('Summary.')
      const step = result.steps[0]!
      expect(step.finishReason).toBe('tool-calls')
      expect(step.content.filter((p) => p.type !== 'tool-result').map((p) => p.type)).toEqual(['text', 'tool-call', 'text'])
      expect(step.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual(['Reading.', 'Then I will summarise.'])
    })

    it('should not support running a call written in a code fence, or one that names no declared tool', async () => {
      const text = 'Use it like this:\n\n```\n' + dsml('read_file', { path: 'src/a.ts' }) + '\n```\n'
      const model = new loaded.Mock({ doStream: { stream: loaded.stream(textStream(awkward(text))) } })
      const ran: unknown[] = []
      const result = ai.streamText({ model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }), prompt: 'How?', tools: tools(loaded, ran) })
      expect(await result.text).toBe(text)
      expect(ran).toEqual([])
      expect(await result.finishReason).toBe('stop')
    })

    it('should not support native and rescued calls together: generateText throws native-conflict and no tool runs', async () => {
      const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{"path":"x.ts"}' }
      const model = new loaded.Mock({ doGenerate: generated([{ type: 'text', text: dsml('read_file', { path: 'src/a.ts' }) }, native], 'tool-calls') })
      const ran: unknown[] = []
      await expect(
        ai.generateText({ model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }), prompt: 'Go', tools: tools(loaded, ran) }),
      ).rejects.toMatchObject({ code: 'native-conflict' })
      expect(ran).toEqual([])
    })

    it('should support reasoning parts from <think> in generateText', async () => {
      const model = new loaded.Mock({ doGenerate: generated([{ type: 'text', text: '<think>Simple.</think>\n\nHello.' }]) })
      const result = await ai.generateText({ model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }), prompt: 'Hi' })
      expect(result.reasoningText).toBe('Simple.')
      // the blank lines after </think> start no answer, as on every wire
      expect(result.text).toBe('Hello.')
    })
  })
}
