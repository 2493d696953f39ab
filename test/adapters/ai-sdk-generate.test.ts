/**
 * `toolsieveMiddleware().wrapGenerate`, part by part: the wrapped model's
 * `doGenerate` content for a model that writes DSML in its text, on each SDK
 * line.
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { dsml, generated, loadLines, readFileTool, type LoadedLine } from './ai-sdk-helpers.js'

const lines = await loadLines()
const call = dsml('read_file', { path: 'src/a.ts' })
const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{"path":"b.ts"}' }

async function generate(loaded: LoadedLine, content: object[], options?: Parameters<typeof toolsieveMiddleware>[0], finish = 'stop') {
  const model = new loaded.Mock({ doGenerate: generated(content, finish) })
  const wrapped = loaded.ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware(options) as never })
  const params = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: [readFileTool] }
  return (await wrapped.doGenerate(params as never)) as unknown as { content: Array<Record<string, any>>; finishReason: { unified: string; raw: string } }
}

for (const loaded of lines) {
  describe(`wrapGenerate (ai ${loaded.line.major})`, () => {
    it('should support text, reasoning and rescued calls in the order they stood, other parts in their place', async () => {
      const source = { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' }
      const out = await generate(loaded, [{ type: 'text', text: `<think>Plan.</think>First.\n\n${call}\n\nThen.` }, source, { type: 'text', text: 'Last.' }])
      expect(out.content.map((p) => [p.type, p.text ?? p.toolName ?? p.id])).toEqual([
        ['reasoning', 'Plan.'],
        ['text', 'First.'],
        ['tool-call', 'read_file'],
        ['text', 'Then.'],
        ['source', 's1'],
        ['text', 'Last.'],
      ])
      expect(out.content[2]).toMatchObject({ toolCallId: expect.stringMatching(/^call_[0-9a-f]{24}$/), input: '{"path":"src/a.ts"}' })
      expect(out.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' })
    })

    it('should not support rewriting the finish reason of content without rescued calls, or of a turn cut short', async () => {
      expect((await generate(loaded, [{ type: 'text', text: 'Hello.' }])).finishReason).toEqual({ unified: 'stop', raw: 'stop' })
      expect((await generate(loaded, [{ type: 'text', text: call }], undefined, 'length')).finishReason).toEqual({ unified: 'length', raw: 'length' })
    })

    it('should not support native and rescued calls together: native-conflict, or with prefer-native only the native call', async () => {
      await expect(generate(loaded, [{ type: 'text', text: call }, native])).rejects.toMatchObject({ name: 'ToolsieveError', code: 'native-conflict' })
      const preferred = await generate(loaded, [{ type: 'text', text: `Both.\n\n${call}` }, native], { onConflict: 'prefer-native' }, 'tool-calls')
      expect(preferred.content.filter((p) => p.type === 'tool-call')).toEqual([native])
      const alone = await generate(loaded, [{ type: 'text', text: 'Native only.' }, native], undefined, 'tool-calls')
      expect(alone.content).toEqual([{ type: 'text', text: 'Native only.' }, native])
    })
  })
}
