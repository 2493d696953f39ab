/**
 * toolsieve/fetch with the AI SDK, one line:
 * `createOpenAICompatible({ baseURL, fetch: sieveFetch() })`, with `ai`'s
 * `generateText` and `streamText` (ai 6 with @ai-sdk/openai-compatible 2; on
 * Node 22 also ai 7 with @ai-sdk/openai-compatible 3) against a local upstream whose text holds
 * DSML (deltas of 5 characters, CRLF framing cut every 4 bytes). The rescued call arrives as a tool call, with
 * its input parsed; the text has no markup; the reasoning is reasoning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Compatible from '@ai-sdk/openai-compatible'
import type * as Ai from 'ai'
import { sieveFetch } from '../../src/fetch/index.js'
import { counter, cut } from '../adapters/openai-helpers.js'
import { currentLines } from '../helpers/sdk-lines.js'
import { startUpstream, type Upstream } from './fake-upstream.js'

const text = `<think>The user wants a.ts.</think>Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">40</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream({ deltas: cut(text, 5), ending: '\r\n', piece: 4 })
})
afterAll(async () => {
  await upstream.close()
})

/** The SDK lines here: the packages' names (the current line's are npm aliases, installed in tools/sdk-current). */
const lines = [
  { label: 'ai 6 with @ai-sdk/openai-compatible 2', ai: 'ai', compatible: '@ai-sdk/openai-compatible' },
  ...(currentLines ? [{ label: 'ai 7 with @ai-sdk/openai-compatible 3', ai: 'ai7', compatible: 'ai-sdk-openai-compatible-v3' }] : []),
]

for (const line of lines) describe(`${line.label} through sieveFetch`, () => {
  // the current line is typed as the older one: the calls made here are the same in both
  let ai: typeof Ai
  let model: () => ReturnType<ReturnType<typeof Compatible.createOpenAICompatible>['chatModel']>
  let tools: Ai.ToolSet
  beforeAll(async () => {
    ai = (await import(line.ai)) as typeof Ai
    const { createOpenAICompatible } = (await import(line.compatible)) as typeof Compatible
    model = () => createOpenAICompatible({ name: 'deepseek', baseURL: upstream.baseURL, apiKey: 'test', fetch: sieveFetch({ generateId: counter() }) }).chatModel('deepseek-v4')
    tools = {
      read_file: ai.tool({
        description: 'Read a file',
        inputSchema: ai.jsonSchema<{ path: string; limit?: number }>({ type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] }),
      }),
    }
  })

  it('should support generateText: the call is a tool call, the text is clean', async () => {
    const result = await ai.generateText({ model: model(), tools, prompt: 'Read src/a.ts' })
    expect(result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input }))).toEqual([{ id: 'call_1', name: 'read_file', input: { path: 'src/a.ts', limit: 40 } }])
    expect(result.text).toBe('Let me read it.')
    expect(result.reasoningText).toBe('The user wants a.ts.')
    expect(result.finishReason).toBe('tool-calls')
    // the request's tools reached the sieve: the upstream got them as the SDK sent them
    expect((upstream.requests.at(-1)!.tools as { function: { name: string } }[])[0]!.function.name).toBe('read_file')
  })

  it('should support streamText: a tool-call part, text deltas without markup', async () => {
    const result = ai.streamText({ model: model(), tools, prompt: 'Read src/a.ts' })
    const parts: { type: string }[] = []
    for await (const part of result.fullStream) parts.push(part)
    const calls = parts.filter((p) => p.type === 'tool-call') as unknown as { toolCallId: string; toolName: string; input: unknown }[]
    expect(calls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input }))).toEqual([{ id: 'call_1', name: 'read_file', input: { path: 'src/a.ts', limit: 40 } }])
    expect(await result.text).toBe('Let me read it.')
    expect(await result.reasoningText).toBe('The user wants a.ts.')
    expect(await result.finishReason).toBe('tool-calls')
    expect(parts.some((p) => p.type === 'error')).toBe(false)
  })
})

describe('ai 6 with @ai-sdk/deepseek 2 through sieveFetch', () => {
  it('should support createDeepSeek({ fetch: sieveFetch() }): generateText gets the rescued call as a tool call', async () => {
    const ai = await import('ai')
    const { createDeepSeek } = await import('@ai-sdk/deepseek')
    const deepseek = createDeepSeek({ baseURL: upstream.baseURL, apiKey: 'test', fetch: sieveFetch({ generateId: counter() }) })
    const tools = { read_file: ai.tool({ description: 'Read a file', inputSchema: ai.jsonSchema<{ path: string; limit?: number }>({ type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] }) }) }
    const result = await ai.generateText({ model: deepseek('deepseek-chat'), tools, prompt: 'Read src/a.ts' })
    expect(result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input }))).toEqual([{ id: 'call_1', name: 'read_file', input: { path: 'src/a.ts', limit: 40 } }])
    expect(result.text).toBe('Let me read it.')
    expect(result.finishReason).toBe('tool-calls')
  })
})
