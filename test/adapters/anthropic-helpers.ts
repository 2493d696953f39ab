/**
 * Upstream Messages streams for the `toolsieve/anthropic` specs, and two
 * readers of what the adapter sends: the SDK's own accumulator
 * (`MessageStream`, so the wire is checked by the client that will read it)
 * and a structural check of block order and indexes.
 */
import { expect } from 'vitest'
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream'
import type { ContentBlock, Message, StopReason } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessagesStream, type AnthropicSieveOptions, type MessagesStreamEvent } from '../../src/anthropic/index.js'

/** A message as `message_start` carries it: no content yet. */
export function messageShell(): Message {
  return {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'deepseek-chat',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 0 },
  } as unknown as Message
}

/** An upstream block: text as chunks, or a native block sent whole. */
export type UpstreamBlock = string[] | ContentBlock

/** A Messages stream, as the API sends it, of these blocks. */
export function upstream(blocks: readonly UpstreamBlock[], stopReason: StopReason = 'end_turn'): MessagesStreamEvent[] {
  const events: MessagesStreamEvent[] = [{ type: 'message_start', message: messageShell() }, { type: 'ping' }]
  blocks.forEach((block, index) => {
    if (Array.isArray(block)) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } })
      for (const text of block) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } })
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
    } else events.push({ type: 'content_block_start', index, content_block: block })
    events.push({ type: 'content_block_stop', index })
  })
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null, container: null, stop_details: null }, usage: { output_tokens: 42 } as never })
  events.push({ type: 'message_stop' })
  return events
}

/** A native tool_use block, as the API would send it. */
export function nativeCall(name: string, input: Record<string, unknown>, id = 'toolu_native'): ContentBlock {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } } as ContentBlock
}

/** The text of an answer cut into pieces of 1..7 code units, so every delimiter is split somewhere. */
export { awkward } from './stream-helpers.js'

/** Ids `toolu_0…`, `toolu_1…`, so runs compare equal. */
export function counterIds(): () => string {
  let n = 0
  return () => `toolu_${String(n++).padStart(24, '0')}`
}

/** Everything the adapter sends for these upstream events. */
export async function sieved(events: readonly MessagesStreamEvent[], options?: AnthropicSieveOptions): Promise<MessagesStreamEvent[]> {
  const out: MessagesStreamEvent[] = []
  for await (const e of sieveMessagesStream(events, { generateId: counterIds(), ...options })) out.push(e)
  checkWire(out)
  return out
}

/**
 * The wire's shape: block indexes 0, 1, 2… in the order blocks start; every
 * delta and stop names an open block; every block stops, before the
 * `message_delta`; nothing after `message_stop`.
 */
export function checkWire(events: readonly MessagesStreamEvent[]): void {
  let next = 0
  const open = new Set<number>()
  let delta = false
  for (const e of events) {
    if (e.type === 'content_block_start') {
      expect(e.index, 'block indexes in start order').toBe(next++)
      expect(open.size, 'one block open at a time').toBe(0)
      open.add(e.index)
    } else if (e.type === 'content_block_delta') expect(open.has(e.index), `delta for open block ${e.index}`).toBe(true)
    else if (e.type === 'content_block_stop') expect(open.delete(e.index), `stop of open block ${e.index}`).toBe(true)
    else if (e.type === 'message_delta') {
      expect(open.size, 'blocks closed before message_delta').toBe(0)
      delta = true
    } else if (e.type === 'message_stop') expect(delta).toBe(true)
  }
  expect(open.size, 'every block stops').toBe(0)
}

/** The final message the SDK's own accumulator builds from what the adapter sent. */
export async function finalMessage(events: readonly MessagesStreamEvent[]): Promise<Message> {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // the newline-delimited JSON that Stream.toReadableStream writes and fromReadableStream reads
      for (const e of events) if (e.type !== 'ping') controller.enqueue(encoder.encode(JSON.stringify(e) + '\n'))
      controller.close()
    },
  })
  return MessageStream.fromReadableStream(body as never).finalMessage()
}

/** The content of a final message without the fields the adapter does not decide. */
export function blocks(message: Message): unknown[] {
  return message.content.map((b) => {
    if (b.type === 'text') return { type: 'text', text: b.text }
    if (b.type === 'thinking') return { type: 'thinking', thinking: b.thinking }
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input }
    return b
  })
}

/** DeepSeek's markup for one call with string parameters. */
export function dsml(name: string, params: Record<string, string>): string {
  const body = Object.entries(params)
    .map(([k, v]) => `<｜DSML｜parameter name="${k}" string="true">${v}</｜DSML｜parameter>\n`)
    .join('')
  return `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="${name}">\n${body}</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
}
