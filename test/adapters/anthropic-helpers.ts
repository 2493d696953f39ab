/**
 * Upstream Messages streams for the `toolsieve/anthropic` specs, and two
 * readers of what the adapter sends: the SDK's own accumulator
 * (`MessageStream`, so the wire is checked by the client that will read it)
 * and a structural check of block order and indexes.
 */
import { expect } from 'vitest'
import { Stream } from '@anthropic-ai/sdk/core/streaming'
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

/** The SDK's own accumulator reading what the adapter sent. */
function sdkStream(events: readonly MessagesStreamEvent[]): MessageStream {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // the newline-delimited JSON that Stream.toReadableStream writes and fromReadableStream reads
      for (const e of events) if (e.type !== 'ping') controller.enqueue(encoder.encode(JSON.stringify(e) + '\n'))
      controller.close()
    },
  })
  return MessageStream.fromReadableStream(body as never)
}

/** The final message the SDK's own accumulator builds from what the adapter sent. */
export async function finalMessage(events: readonly MessagesStreamEvent[]): Promise<Message> {
  return sdkStream(events).finalMessage()
}

/** What the SDK's `MessageStream` reports reading what the adapter sent (see {@link sdkRead}). */
export interface SdkReading {
  /** Each `text` event: the delta and the snapshot it came with (the last block's text). */
  text: Array<[string, string]>
  /** Each block as it stops (`contentBlock`), as {@link blocks} shows it. */
  stopped: unknown[]
  inputJson: string[]
  thinking: string[]
  message: Message
}

/**
 * What the SDK's `MessageStream` reports reading `events`: its events, and
 * the message it built. `partial`: the stream may fail before
 * `message_stop` (an upstream error), and the message is the snapshot it had
 * at the end; else its final message, which a stream that did not finish
 * fails to give.
 */
export async function sdkRead(events: readonly MessagesStreamEvent[], partial = false): Promise<SdkReading> {
  const stream = sdkStream(events)
  const read = { text: [] as Array<[string, string]>, stopped: [] as unknown[], inputJson: [] as string[], thinking: [] as string[] }
  stream.on('text', (delta, snapshot) => read.text.push([delta, snapshot]))
  stream.on('contentBlock', (b) => read.stopped.push(blocks({ content: [b] } as Message)[0]))
  stream.on('inputJson', (piece) => read.inputJson.push(piece))
  stream.on('thinking', (delta) => read.thinking.push(delta))
  if (!partial) return { ...read, message: await stream.finalMessage() }
  let snapshot: Message | undefined
  stream.on('streamEvent', (_, message) => (snapshot = message))
  await stream.done()
  return { ...read, message: stream.receivedMessages.at(-1) ?? snapshot! }
}

/**
 * What the SDK reports reading `events` as the SSE the middleware sends:
 * through its own SSE reader, which fails the stream with an `APIError` at
 * an `error` event and reads nothing after it (the newline-delimited JSON
 * of {@link sdkRead} reads on past it). `message`: the snapshot it had when
 * the stream ended or failed; `error`: the failure, if any.
 */
export async function sdkReadSse(events: readonly MessagesStreamEvent[]): Promise<Omit<SdkReading, 'message'> & { message: Message | undefined; error: unknown }> {
  const body = new TextEncoder().encode(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''))
  const sse = Stream.fromSSEResponse<MessagesStreamEvent>(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), new AbortController())
  const stream = MessageStream.fromReadableStream(sse.toReadableStream())
  const read = { text: [] as Array<[string, string]>, stopped: [] as unknown[], inputJson: [] as string[], thinking: [] as string[] }
  stream.on('text', (delta, snapshot) => read.text.push([delta, snapshot]))
  stream.on('contentBlock', (b) => read.stopped.push(blocks({ content: [b] } as Message)[0]))
  stream.on('inputJson', (piece) => read.inputJson.push(piece))
  stream.on('thinking', (delta) => read.thinking.push(delta))
  let message: Message | undefined
  stream.on('streamEvent', (_, snapshot) => (message = snapshot))
  let error: unknown
  await stream.done().catch((e: unknown) => (error = e))
  return { ...read, message, error }
}

/** A Messages stream's events written by hand: a text block's start, a text delta, a block's stop. */
export const textStart = (index: number): MessagesStreamEvent => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } })
export const textDelta = (index: number, t: string): MessagesStreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } })
export const blockStop = (index: number): MessagesStreamEvent => ({ type: 'content_block_stop', index })
/** A native `tool_use` block's start and its input in two pieces, not stopped. */
export const nativeToolUse = (index: number): MessagesStreamEvent[] => [
  { type: 'content_block_start', index, content_block: { ...nativeCall('read_file', { path: 'a.ts' }), input: {} } as never },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{"path":' } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '"a.ts"}' } },
]
/** A message's start, and its end after a turn that ended. */
export const messageHead: MessagesStreamEvent[] = [{ type: 'message_start', message: messageShell() }]
export const messageTail: MessagesStreamEvent[] = [{ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null, container: null, stop_details: null }, usage: { output_tokens: 9 } as never }, { type: 'message_stop' }]
/** An upstream `error` event. */
export const overloaded: MessagesStreamEvent = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
/** The text of every text delta, joined. */
export const textOf = (out: readonly MessagesStreamEvent[]): string => out.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')

/** The most blocks open at once. */
export function mostOpen(out: readonly MessagesStreamEvent[]): number {
  const open = new Set<number>()
  let most = 0
  for (const e of out) {
    if (e.type === 'content_block_start') most = Math.max(most, open.add(e.index).size)
    else if (e.type === 'content_block_stop') open.delete(e.index)
  }
  return most
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
