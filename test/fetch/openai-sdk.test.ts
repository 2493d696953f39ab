/**
 * toolsieve/fetch with the real `openai` client, one line:
 * `new OpenAI({ fetch: sieveFetch() })`, against a local upstream whose
 * text holds DSML and whose event streams are cut every few bytes, in LF,
 * CR and CRLF framing. The client sees structured calls and no markup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveFetch } from '../../src/fetch/index.js'
import { sieveResponse } from '../../src/openai/index.js'
import { sdkLines } from '../helpers/sdk-lines.js'
import { accumulate, collect, counter } from '../adapters/openai-helpers.js'
import { readItems } from '../adapters/openai-responses-helpers.js'
import { readFile, startUpstream, type Ending, type Upstream } from './fake-upstream.js'
import { bodyOf, chatChunk, sseHeaders } from './helpers.js'

const { deltas, call, tools, messages } = readFile
const responseTools = [{ type: 'function' as const, name: 'read_file', strict: false, parameters: tools[0]!.function.parameters }]
const endings: [string, Ending][] = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
]

const servers = new Map<string, Upstream>()
beforeAll(async () => {
  for (const [name, ending] of endings) servers.set(name, await startUpstream({ deltas, ending, piece: 3 }))
})
afterAll(async () => {
  for (const s of servers.values()) await s.close()
})

const noMarkup = (text: unknown): void => expect(String(text)).not.toMatch(/DSML|tool_calls>|invoke/)

for (const line of sdkLines) {
  for (const [framing] of endings) {
    describe(`openai ${line.major}, ${framing} framing, through sieveFetch`, () => {
      const client = async () => {
        const { default: OpenAI } = (await import(line.openai)) as { default: new (options: Record<string, unknown>) => any }
        return new OpenAI({ apiKey: 'test', baseURL: servers.get(framing)!.baseURL, maxRetries: 0, fetch: sieveFetch({ generateId: counter() }) })
      }

      it('should support a streamed chat completion (create, stream: true)', async () => {
        const openai = await client()
        const stream = await openai.chat.completions.create({ model: 'deepseek-v4', messages, tools, stream: true, stream_options: { include_usage: true } })
        const out = (await collect(stream)) as ChatCompletionChunk[]
        expect(accumulate(out)).toEqual({ content: 'Let me read it.', reasoning: 'The user wants a.ts.', calls: [{ id: 'call_1', ...call }], finish: 'tool_calls' })
        expect(out[out.length - 1]!.usage).toEqual({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 })
      })

      it('should support chat.completions.stream(…).finalChatCompletion()', async () => {
        const openai = await client()
        const final = await openai.chat.completions.stream({ model: 'deepseek-v4', messages, tools }).finalChatCompletion()
        expect(final.choices[0].finish_reason).toBe('tool_calls')
        expect(final.choices[0].message.content).toBe('Let me read it.')
        expect(final.choices[0].message.reasoning_content).toBe('The user wants a.ts.')
        expect(final.choices[0].message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: call }])
      })

      it('should support a whole chat completion (create)', async () => {
        const openai = await client()
        const completion = await openai.chat.completions.create({ model: 'deepseek-v4', messages, tools })
        expect(completion.choices[0].finish_reason).toBe('tool_calls')
        expect(completion.choices[0].message).toMatchObject({ content: 'Let me read it.', reasoning_content: 'The user wants a.ts.', tool_calls: [{ id: 'call_1', type: 'function', function: call }] })
      })

      it('should support chat.completions.parse', async () => {
        const openai = await client()
        const strict = [{ type: 'function' as const, function: { ...tools[0]!.function, strict: true, parameters: { ...tools[0]!.function.parameters, required: ['path', 'limit'], additionalProperties: false } } }]
        const parsed = await openai.chat.completions.parse({ model: 'deepseek-v4', messages, tools: strict })
        expect(parsed.choices[0].message.tool_calls).toMatchObject([{ id: 'call_1', type: 'function', function: { ...call, parsed_arguments: { path: 'src/a.ts', limit: 40 } } }])
        noMarkup(parsed.choices[0].message.content)
      })

      it('should support a whole Responses answer (responses.create)', async () => {
        const openai = await client()
        const response = await openai.responses.create({ model: 'deepseek-v4', input: 'Read src/a.ts', tools: responseTools })
        expect(response.output).toEqual([
          { type: 'reasoning', id: 'rs_msg_fake', summary: [], content: [{ type: 'reasoning_text', text: 'The user wants a.ts.' }], status: 'completed' },
          { type: 'message', id: 'msg_fake', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me read it.', annotations: [] }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call, status: 'completed' },
        ])
        expect(response.output_text).toBe('Let me read it.')
      })

      it('should support a streamed Responses answer (responses.create, stream: true)', async () => {
        const openai = await client()
        const events = (await collect(await openai.responses.create({ model: 'deepseek-v4', input: 'Read src/a.ts', tools: responseTools, stream: true }))) as ResponseStreamEvent[]
        expect(readItems(events)).toEqual([
          { type: 'reasoning', id: 'rs_msg_fake', text: 'The user wants a.ts.' },
          { type: 'message', id: 'msg_fake', text: 'Let me read it.' },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call },
        ])
        const completed = events.find((e) => e.type === 'response.completed') as { response: { output: { type: string }[] } }
        expect(completed.response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call'])
      })

      it('should support responses.stream(…).finalResponse()', async () => {
        const openai = await client()
        const final = await openai.responses.stream({ model: 'deepseek-v4', input: 'Read src/a.ts', tools: responseTools }).finalResponse()
        expect(final.output.filter((i: { type: string }) => i.type === 'function_call')).toMatchObject([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call, status: 'completed' }])
        expect(final.output.find((i: { type: string }) => i.type === 'message').content[0].text).toBe('Let me read it.')
      })
    })
  }

  describe(`openai ${line.major}, sieveResponse on a whole Responses answer`, () => {
    it('should support sieveResponse on what responses.create returned', async () => {
      const { default: OpenAI } = (await import(line.openai)) as { default: new (options: Record<string, unknown>) => any }
      const openai = new OpenAI({ apiKey: 'test', baseURL: servers.get('LF')!.baseURL, maxRetries: 0 })
      const raw = await openai.responses.create({ model: 'deepseek-v4', input: 'Read src/a.ts', tools: responseTools })
      expect(raw.output_text).toContain('DSML')
      const response = sieveResponse(raw, { tools: responseTools, quoted: 'Read src/a.ts', generateId: counter() })
      expect(response.output.map((i: { type: string }) => i.type)).toEqual(['reasoning', 'message', 'function_call'])
      expect(response.output[2]).toEqual({ type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call, status: 'completed' })
      expect(response.output_text).toBe('Let me read it.')
    })
  })
}

describe('openai 6, types and refusals', () => {
  it('should support the one line as typed: new OpenAI({ fetch: sieveFetch() })', () => {
    const client: OpenAI = new OpenAI({ apiKey: 'test', baseURL: 'http://127.0.0.1:1/v1', fetch: sieveFetch() })
    expect(client).toBeInstanceOf(OpenAI)
  })

  it('should not support a native and a rescued call in one streamed turn: the SDK throws an APIError with the code', async () => {
    const native = chatChunk({ tool_calls: [{ index: 0, id: 'call_n', type: 'function', function: { name: 'read_file', arguments: '{}' } }] })
    const rescued = chatChunk({ content: '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>' })
    const upstream = async () => new Response(bodyOf([`data: ${JSON.stringify(native)}\n\n`, `data: ${JSON.stringify(rescued)}\n\n`, 'data: [DONE]\n\n']), { headers: sseHeaders })
    const client = new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch({}, upstream) })
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true })
    const failure = await collect(stream).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(OpenAI.APIError)
    expect(failure).toMatchObject({ code: 'native-conflict', type: 'toolsieve_error' })
  })
})
