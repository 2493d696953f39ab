/**
 * toolsieve/openai end to end: the real `openai` client (every SDK line this
 * Node runs, see test/helpers/sdk-lines.ts) against a local fake server whose
 * SSE cuts the DSML inside the opener, inside `string="true"` and between
 * the bytes of a fullwidth bar.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveChatCompletion, sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { sdkLines } from '../helpers/sdk-lines.js'
import { readFile, startUpstream, type Upstream } from '../fetch/fake-upstream.js'
import { accumulate, collect, counter } from './openai-helpers.js'
import { readItems } from './openai-responses-helpers.js'

const { deltas, call, tools, messages } = readFile

let server: Upstream
beforeAll(async () => {
  server = await startUpstream({ deltas, cut: 'bar' })
})
afterAll(async () => {
  await server.close()
})

/**
 * A `fetch` for the client that sieves chat completion streams on the way
 * in: the SSE body is parsed, run through sieveChatStream, and written back
 * as SSE, so the SDK's own helpers (`chat.completions.stream`) read the result.
 */
function sievingFetch(options: Parameters<typeof sieveChatStream>[1]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!response.headers.get('content-type')?.includes('text/event-stream') || response.body === null) return response
    const body = response.body
    async function* chunks(): AsyncGenerator<ChatCompletionChunk> {
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          // a comment (the upstream's keep-alive) carries no data
          if (event.startsWith(':')) continue
          const data = event.replace(/^data: /, '')
          if (data !== '[DONE]') yield JSON.parse(data) as ChatCompletionChunk
        }
      }
    }
    const encoder = new TextEncoder()
    const sieved = sieveChatStream(chunks(), options)[Symbol.asyncIterator]()
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await sieved.next()
        if (next.done) {
          controller.enqueue(encoder.encode('data: [DONE]\n\n'))
          controller.close()
        } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`))
      },
    })
    return new Response(stream, { status: response.status, headers: response.headers })
  }
}

for (const line of sdkLines) {
  describe(`openai ${line.major} (${line.openai}) end to end`, () => {
    const client = async (fetchImpl?: typeof fetch) => {
      const { default: OpenAI } = (await import(line.openai)) as { default: new (options: Record<string, unknown>) => any }
      return new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }) })
    }

    it('should support a streamed chat completion: clean content, reasoning and tool_calls', async () => {
      const openai = await client()
      const stream = await openai.chat.completions.create({ model: 'deepseek-v4', messages, tools, stream: true, stream_options: { include_usage: true } })
      const out = await collect(sieveChatStream(stream as AsyncIterable<ChatCompletionChunk>, { tools, quoted: messages, generateId: counter() }))
      expect(accumulate(out)).toEqual({ content: 'Let me read it.', reasoning: 'The user wants a.ts.', calls: [{ id: 'call_1', ...call }], finish: 'tool_calls' })
      expect(out[out.length - 1]!.usage).toEqual({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 })
    })

    it('should support chat.completions.stream(…).finalChatCompletion() over the sieved stream', async () => {
      const openai = await client(sievingFetch({ tools, generateId: counter() }))
      const final = await openai.chat.completions.stream({ model: 'deepseek-v4', messages, tools }).finalChatCompletion()
      expect(final.choices[0].finish_reason).toBe('tool_calls')
      expect(final.choices[0].message.content).toBe('Let me read it.')
      expect(final.choices[0].message.reasoning_content).toBe('The user wants a.ts.')
      expect(final.choices[0].message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: call }])
    })

    it('should support a non-streaming chat completion', async () => {
      const openai = await client()
      const completion = sieveChatCompletion(await openai.chat.completions.create({ model: 'deepseek-v4', messages, tools }), { tools, generateId: counter() })
      expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
      expect(completion.choices[0]!.message).toMatchObject({ content: 'Let me read it.', reasoning_content: 'The user wants a.ts.', tool_calls: [{ id: 'call_1', type: 'function', function: call }] })
    })

    it('should support a Responses stream: a reasoning item, the cleaned message, a function_call item', async () => {
      const openai = await client()
      const events = await openai.responses.create({ model: 'deepseek-v4', input: 'Read src/a.ts', stream: true })
      const out = await collect(sieveResponsesStream(events as AsyncIterable<ResponseStreamEvent>, { tools, quoted: 'Read src/a.ts', generateId: counter() }))
      expect(readItems(out)).toEqual([
        { type: 'reasoning', id: 'rs_msg_fake', text: 'The user wants a.ts.' },
        { type: 'message', id: 'msg_fake', text: 'Let me read it.' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', ...call },
      ])
    })
  })
}
