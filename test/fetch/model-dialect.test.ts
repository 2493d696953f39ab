/**
 * sieveFetch (and the proxy, which is built on the same repair) reads the
 * answer in the dialect the request's `model` names, when the caller gave
 * neither `dialect` nor `grammar` and the sieve reads that dialect.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { formatToolCalls } from '../../src/index.js'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dataOf, dsml, sseHeaders, stubFetch } from './helpers.js'

const url = 'http://upstream.test/v1/chat/completions'
const qwen = formatToolCalls([{ name: 'read_file', input: { path: 'a.ts' } }], { dialect: 'qwen3-coder' })
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`

async function streamed(model: string, content: string, options: Parameters<typeof sieveFetch>[0] = {}): Promise<{ out: ReturnType<typeof accumulate>; reports: RepairReport[] }> {
  const reports: RepairReport[] = []
  const stub = stubFetch(() => new Response(bodyOf([frame(chatChunk({ content: 'Reading.\n' })), frame(chatChunk({ content })), 'data: [DONE]\n\n']), { headers: sseHeaders }))
  const init = { method: 'POST', body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Read a.ts' }], stream: true }) }
  const text = await (await sieveFetch({ generateId: counter(), onReport: (r) => reports.push(r), ...options }, stub.fetch)(url, init)).text()
  const chunks = dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]
  return { out: accumulate(chunks), reports }
}

describe('sieveFetch, the dialect from the request model', () => {
  it('should support a Qwen3-Coder model: its calls are read in its dialect', async () => {
    const { out, reports } = await streamed('Qwen/Qwen3-Coder-480B-A35B-Instruct', qwen)
    expect(out).toMatchObject({ content: 'Reading.', calls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], finish: 'tool_calls' })
    expect(reports[0]).toMatchObject({ rescued: 1, dialect: 'qwen3-coder' })
  })

  it('should support a DeepSeek model and an unknown one with the default grammar', async () => {
    for (const model of ['deepseek-chat', 'some-model']) {
      const { out, reports } = await streamed(model, dsml('a.ts'))
      expect(out.calls, model).toHaveLength(1)
      expect(reports[0]!.dialect, model).toBeUndefined()
    }
  })

  it('should support Hermes, GLM and Kimi models: blocks read whole, in their dialects', async () => {
    for (const [model, dialect] of [['NousResearch/Hermes-3-Llama-3.1-8B', 'hermes'], ['zai-org/GLM-4.6', 'glm'], ['moonshotai/Kimi-K2-Instruct', 'kimi-k2']] as const) {
      const { out, reports } = await streamed(model, formatToolCalls([{ name: 'read_file', input: { path: 'a.ts' } }], { dialect }))
      expect(out, model).toMatchObject({ calls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], finish: 'tool_calls' })
      expect(reports[0], model).toMatchObject({ rescued: 1, dialect })
    }
  })

  it('should not support a model whose dialect the sieve cannot read yet changing anything (default grammar)', async () => {
    const { out, reports } = await streamed('openai/gpt-oss-20b', dsml('a.ts'))
    expect(out.calls).toHaveLength(1)
    expect(reports[0]!.dialect).toBeUndefined()
  })

  it("should not support the model overriding the caller's dialect or grammar", async () => {
    const { out } = await streamed('Qwen/Qwen3-Coder-480B-A35B-Instruct', dsml('a.ts'), { dialect: 'deepseek' })
    expect(out.calls).toHaveLength(1)
    const other = await streamed('qwen3-coder-plus', qwen, { dialect: 'deepseek' })
    expect(other.out.calls ?? []).toHaveLength(0)
  })
})
