/**
 * sieveFetch's report counts the calls it rescued, not the ids it had not
 * seen from upstream: a rescued call's id can be the model's own (Kimi's
 * `functions.get_weather:0`), the same as a native call's in another choice
 * (vLLM's Kimi parser gives native calls that form too). No `generateId`:
 * it would make every id.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { formatToolCalls } from '../../src/index.js'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { accumulate } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dataOf, sseHeaders, stubFetch } from './helpers.js'

const url = 'http://upstream.test/v1/chat/completions'
const model = 'moonshotai/Kimi-K2-Instruct'
const kimi = formatToolCalls([{ name: 'get_weather', input: { city: 'Paris' } }], { dialect: 'kimi-k2' })
const nativeId = 'functions.get_weather:0'
const native = { index: 0, id: nativeId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
const of = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({ ...chatChunk({}), choices: [{ index, delta, finish_reason: finish }] })

async function fetched(body: string, stream: boolean): Promise<{ text: string; reports: RepairReport[] }> {
  const reports: RepairReport[] = []
  const headers = stream ? sseHeaders : { 'content-type': 'application/json' }
  const stub = stubFetch(() => new Response(bodyOf([body]), { headers }))
  const init = { method: 'POST', body: JSON.stringify({ model, n: 2, messages: [{ role: 'user', content: 'Weather?' }], stream }) }
  const text = await (await sieveFetch({ onReport: (r) => reports.push(r) }, stub.fetch)(url, init)).text()
  return { text, reports }
}

describe('sieveFetch, the rescued count', () => {
  it('should support a rescued call whose id is a native call\'s of another choice being counted: a stream', async () => {
    const body = [of(0, { tool_calls: [native] }), of(1, { content: kimi }), of(0, {}, 'tool_calls'), of(1, {}, 'stop')].map(frame).join('') + 'data: [DONE]\n\n'
    const { text, reports } = await fetched(body, true)
    const chunks = dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]
    expect(accumulate(chunks, 0).calls).toEqual([{ id: nativeId, name: 'get_weather', arguments: '{"city":"Oslo"}' }])
    expect(accumulate(chunks, 1).calls).toEqual([{ id: nativeId, name: 'get_weather', arguments: '{"city":"Paris"}' }])
    expect(reports).toMatchObject([{ mode: 'stream', rescued: 1 }])
  })

  it('should support it in a whole completion, and a legacy function_call not counted as rescued', async () => {
    const message = (m: Record<string, unknown>) => ({ role: 'assistant', content: null, refusal: null, ...m })
    const completion = (choices: unknown[]) => JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model, choices })
    const { text, reports } = await fetched(completion([{ index: 0, message: message({ tool_calls: [native] }), finish_reason: 'tool_calls' }, { index: 1, message: message({ content: kimi }), finish_reason: 'stop' }]), false)
    expect(JSON.parse(text).choices[1].message.tool_calls).toEqual([expect.objectContaining({ id: nativeId })])
    expect(reports).toMatchObject([{ mode: 'whole', rescued: 1 }])
    const legacy = await fetched(completion([{ index: 0, message: message({ function_call: { name: 'get_weather', arguments: '{}' } }), finish_reason: 'function_call' }, { index: 1, message: message({ content: kimi }), finish_reason: 'stop' }]), false)
    expect(legacy.reports).toMatchObject([{ mode: 'whole', rescued: 1 }])
  })

  it('should not support a legacy function_call in a stream being counted as rescued', async () => {
    const body = [of(0, { function_call: { name: 'get_weather', arguments: '{}' } }), of(0, {}, 'function_call')].map(frame).join('') + 'data: [DONE]\n\n'
    const { reports } = await fetched(body, true)
    expect(reports).toMatchObject([{ mode: 'stream', rescued: 0 }])
  })
})
