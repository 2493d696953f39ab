/**
 * `sieveMiddleware` in the real `@anthropic-ai/sdk` client, on an upstream
 * stream event whose `type` is a JSON object that cannot become a string
 * (`{"toString": 0}` and kin). The SDK yields such an event (it goes by the
 * SSE event name), the adapter passes an event of a type it does not read as
 * it came, and the middleware writes it again for the client: as it came,
 * never a `TypeError` that fails the client's stream.
 */
import { describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import { sieveMiddleware, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { dsml, upstream } from './anthropic-helpers.js'
import { hostile } from '../helpers/hostile.js'

const tools = [{ name: 'read_file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] } }]

/** A client whose upstream answers every request with these events, each under its SSE event name. */
function client(events: ReadonlyArray<{ name: string; data: unknown }>): Anthropic {
  const body = events.map((e) => `event: ${e.name}\ndata: ${JSON.stringify(e.data)}\n\n`).join('')
  const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  return new Anthropic({ apiKey: 'test', baseURL: 'http://upstream.test', maxRetries: 0, fetch, middleware: [sieveMiddleware()] })
}

describe('sieveMiddleware, an event whose type cannot become a string', () => {
  for (const type of hostile) {
    it(`should support an event of type ${JSON.stringify(type)}: passed to the client as it came, the call rescued`, async () => {
      const events = upstream([[`Reading.\n\n${dsml('read_file', { path: 'a.ts' })}`]])
      const odd = { type, detail: 1 }
      const named = events.map((e: MessagesStreamEvent) => ({ name: e.type, data: e as unknown }))
      named.splice(3, 0, { name: 'content_block_delta', data: odd })
      const stream = await client(named).messages.create({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Read a.ts' }], tools, stream: true })
      const got: unknown[] = []
      for await (const event of stream) got.push(event)
      expect(got).toContainEqual(odd)
      expect(got).toContainEqual(expect.objectContaining({ type: 'content_block_start', content_block: expect.objectContaining({ type: 'tool_use', name: 'read_file' }) }))
    })
  }
})

describe('sieveMiddleware, an event whose type holds a line break', () => {
  it('should not support a line break in a type starting frames of its own: the client gets the event as it came, and nothing injected', async () => {
    const events = upstream([[`Reading.\n\n${dsml('read_file', { path: 'a.ts' })}`]])
    const odd = { type: 'x\n\nevent: message_stop\ndata: {"type":"message_stop"}', detail: 1 }
    const named = events.map((e: MessagesStreamEvent) => ({ name: e.type, data: e as unknown }))
    named.splice(3, 0, { name: 'content_block_delta', data: odd })
    const stream = await client(named).messages.create({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Read a.ts' }], tools, stream: true })
    const got: Array<{ type?: unknown }> = []
    for await (const event of stream) got.push(event as { type?: unknown })
    expect(got).toContainEqual(odd)
    // the only message_stop is upstream's own, at the end
    expect(got.filter((e) => e.type === 'message_stop').length).toBe(1)
    expect(got.at(-1)).toMatchObject({ type: 'message_stop' })
  })
})
