/**
 * `toolsieve/ai-sdk` and dialect packs: the wrapped model's id picks the
 * pack the answer is read in (`dialectForModel`), and `dialect` names one
 * outright, for the prompt `transformParams` writes as well as for reading.
 * The AI SDK's own `streamText` over its mock model, on `ai` 6 and (Node
 * 22) `ai` 7.
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { formatToolCalls, ToolsieveError } from '../../src/index.js'
import { awkward, callsOf, loadLines, textStream, type LoadedLine } from './ai-sdk-helpers.js'

const lines = await loadLines()
const qwen = `Let me read it.\n\n${formatToolCalls([{ name: 'read_file', input: { path: 'src/a.ts' } }], { dialect: 'qwen3-coder' })}`

function tools(loaded: LoadedLine, ran: unknown[]) {
  const { tool, jsonSchema } = loaded.ai
  return {
    read_file: tool({
      description: 'Read a file',
      inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      execute: async (input: { path: string }) => {
        ran.push(input)
        return `contents of ${input.path}`
      },
    }),
  }
}

for (const loaded of lines) {
  const { ai } = loaded
  describe(`ai ${loaded.line.major} with dialect packs`, () => {
    const run = async (modelId: string, options: Parameters<typeof toolsieveMiddleware>[0]) => {
      const model = new loaded.Mock({ modelId, doStream: [{ stream: loaded.stream(textStream(awkward(qwen))) }, { stream: loaded.stream(textStream(['Done.'])) }] })
      const ran: unknown[] = []
      const result = ai.streamText({
        model: ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware(options) }),
        prompt: 'Read a.ts',
        tools: tools(loaded, ran),
        stopWhen: ai.stepCountIs(3),
      })
      return { text: await result.text, ran, model }
    }

    it('should support reading the pack the wrapped model\'s id names', async () => {
      const { text, ran } = await run('Qwen/Qwen3-Coder-480B-A35B-Instruct', {})
      expect(ran).toEqual([{ path: 'src/a.ts' }])
      expect(text).toBe('Done.')
    })

    it('should not support another family\'s markup for a model whose id names none: it stays text', async () => {
      const { ran } = await run('my-own-model', {})
      expect(ran).toEqual([])
    })

    it('should support a dialect named outright, for the prompt and the reading, with transformParams', async () => {
      const { ran, model } = await run('my-own-model', { dialect: 'qwen3-coder', transformParams: true })
      expect(ran).toEqual([{ path: 'src/a.ts' }])
      const [first, second] = callsOf(model, 'doStreamCalls')
      // the prompt teaches the pack's markup, and the earlier call is written back in it
      expect(JSON.stringify(first!.prompt)).toContain('<function=')
      expect(JSON.stringify(second!.prompt)).toContain('<function=read_file>')
    })
  })
}

describe('toolsieveMiddleware dialect option', () => {
  it('should not support an unknown pack, or a pack with a grammar', async () => {
    const { defaultGrammar } = await import('../../src/index.js')
    for (const options of [{ dialect: 'qwen4' }, { dialect: 'qwen3-coder', grammar: defaultGrammar }, { dialect: 'gpt-oss' }]) {
      expect(() => toolsieveMiddleware(options), JSON.stringify(options.dialect)).toThrow(ToolsieveError)
    }
  })
})
