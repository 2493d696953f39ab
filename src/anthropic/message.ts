/**
 * `sieveMessage`: a whole (non-streaming) `Message`, rewritten by replaying
 * it as the stream it would have been through the same machine, so that a
 * message and its stream give the same blocks.
 */
import type { ContentBlock, Message, MessageDeltaUsage, TextCitation } from '@anthropic-ai/sdk/resources/messages/messages'
import { malformed, optionalArray, record } from '../adapters/index.js'
import { ToolsieveError } from '../errors.js'
import { MessagesMachine } from './machine.js'
import { anthropicSettings, type AnthropicSieveOptions } from './options.js'
import type { MessagesStreamEvent } from './writer.js'

/** The stream events a message's content would have come as. */
function* replay(message: Message): Generator<MessagesStreamEvent> {
  yield { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null } }
  let index = 0
  for (const block of message.content) {
    if (block.type === 'text') {
      yield { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } }
      // citations come before the text they cite, as the API streams them
      for (const citation of block.citations ?? []) yield { type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } }
      yield { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }
    } else yield { type: 'content_block_start', index, content_block: block }
    yield { type: 'content_block_stop', index: index++ }
  }
  const delta = { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence, container: message.container ?? null, stop_details: message.stop_details ?? null }
  yield { type: 'message_delta', delta, usage: message.usage as unknown as MessageDeltaUsage }
  yield { type: 'message_stop' }
}

/**
 * A non-streaming `Message` with its text blocks cleaned of tool-call markup:
 * a rescued call is a `tool_use` block (its `input` parsed) where it stood,
 * a text block split around a call becomes text / tool_use / text, a text
 * block left empty is gone, reasoning (`<think>…</think>`, or all of it up
 * to `</think>` with `thinking: true`) is a `thinking` block, and
 * `stop_reason` is `'tool_use'` when calls were rescued from an `end_turn`
 * (or stop-sequence) message. Other blocks are kept as they are. A native
 * `tool_use` block next to rescued calls throws `native-conflict` unless
 * `onConflict: 'prefer-native'` (then the rescued calls are dropped).
 *
 * ```ts
 * const message = sieveMessage(await client.messages.create({ model, max_tokens, messages, tools }), { tools, quoted: messages })
 * for (const block of message.content) if (block.type === 'tool_use') await run(block.name, block.input)
 * ```
 *
 * The message given is not changed; a new one is returned. Bad options throw
 * `invalid-option` naming the field; a content block that is not an object,
 * or a text block whose `text` is not a string (or `citations` not a list),
 * throws `invalid-chunk` naming it (`content[1].text`). `streamArguments` is
 * ignored: the whole text is at hand.
 */
export function sieveMessage<M extends Message>(message: M, options?: AnthropicSieveOptions | null): M {
  if (message === null || typeof message !== 'object' || !Array.isArray(message.content)) {
    throw new ToolsieveError('invalid-option', 'message: must be a Message with a content array', 'message')
  }
  message.content.forEach((block: unknown, i) => {
    const b = record(block, `content[${i}]`)
    if (b.type !== 'text') return
    if (typeof b.text !== 'string') throw malformed(`content[${i}].text`, 'a string', b.text)
    optionalArray(b.citations, `content[${i}].citations`)
  })
  // checked as given (a bad streamArguments is refused too), then run without streamed arguments:
  // the whole text is at hand, so streaming could only add a way to fail (a started call that aborts)
  const checked = anthropicSettings(options)
  const machine = new MessagesMachine(checked.streamArguments ? anthropicSettings({ ...options, streamArguments: false }) : checked)
  const content: ContentBlock[] = []
  // input_json_delta pieces per block, parsed at the block's stop
  const json = new Map<number, string[]>()
  let stopReason = message.stop_reason
  let stopSequence = message.stop_sequence
  const take = (events: readonly MessagesStreamEvent[]) => {
    for (const e of events) {
      if (e.type === 'content_block_start') content[e.index] = { ...e.content_block }
      else if (e.type === 'content_block_delta') {
        const block = content[e.index]
        const d = e.delta
        if (block?.type === 'text' && d.type === 'text_delta') block.text += d.text
        else if (block?.type === 'text' && d.type === 'citations_delta') (block.citations ??= [] as TextCitation[]).push(d.citation)
        else if (block?.type === 'thinking' && d.type === 'thinking_delta') block.thinking += d.thinking
        else if (d.type === 'input_json_delta') json.set(e.index, [...(json.get(e.index) ?? []), d.partial_json])
      } else if (e.type === 'content_block_stop') {
        const block = content[e.index]
        const parts = json.get(e.index)
        if (block?.type === 'tool_use' && parts !== undefined) block.input = JSON.parse(parts.join(''))
      } else if (e.type === 'message_delta') {
        stopReason = e.delta.stop_reason
        stopSequence = e.delta.stop_sequence
      }
    }
  }
  for (const event of replay(message)) take(machine.event(event))
  take(machine.end())
  return { ...message, content, stop_reason: stopReason, stop_sequence: stopSequence }
}
