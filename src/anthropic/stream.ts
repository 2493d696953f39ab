/** `sieveMessagesStream`: the machine over an upstream Messages stream. */
import { HeldError, isAdapterStop } from '../adapters/index.js'
import { readThrough } from '../sieve/read-through.js'
import { ToolsieveError } from '../errors.js'
import { MessagesMachine } from './machine.js'
import { anthropicSettings, type AnthropicSieveOptions } from './options.js'
import type { MessagesStreamEvent } from './writer.js'

/**
 * A Messages stream with its text cleaned of tool-call markup: `text_delta`s
 * go in; out come text blocks without the markup, rescued calls as
 * `tool_use` blocks (`content_block_start` with `id`, `name` and
 * `input: {}`, an `input_json_delta` with the arguments, `content_block_stop`),
 * reasoning as `thinking` blocks, all block indexes renumbered in order, and
 * `stop_reason: 'tool_use'` in `message_delta` when calls were rescued.
 * Native blocks (`tool_use`, `thinking`, server tools) pass through.
 *
 * ```ts
 * const upstream = await client.messages.create({ model, max_tokens, messages, tools, stream: true })
 * for await (const event of sieveMessagesStream(upstream, { tools, quoted: messages })) send(event)
 * ```
 *
 * Throws (from the iteration) `native-conflict` when native and rescued
 * calls meet in one message (see `onConflict`), and `call-aborted` with
 * `streamArguments` when a call already sent fails, and `invalid-chunk`
 * (with `field`) for an event of the wrong shape: not an object, a block
 * event without an integer `index`, a `content_block` or `delta` that is not
 * an object, text that is not a string. Before `invalid-chunk`, an error the
 * source throws, or an upstream `error` event, the text the sieve held goes
 * out as text (never as a call), and a rescued call whose input was still
 * streaming (`streamArguments`) gets no `content_block_stop`, ever: it was
 * cut, and must not look finished. Text upstream still sends for a text block
 * the adapter read, after the next block started or after an `error` event,
 * goes out raw in a text block of the adapter's (the one open, after the
 * text the sieve held; the one the error cut; or one started for it), never
 * under upstream's own index, and never inside a block upstream has open
 * (it waits for that block's stop, or the message's end). Options and the source are checked when it
 * is called. Leaving the loop early closes the source.
 */
export function sieveMessagesStream(events: AsyncIterable<MessagesStreamEvent> | Iterable<MessagesStreamEvent>, options?: AnthropicSieveOptions | null): AsyncIterableIterator<MessagesStreamEvent> {
  const source = events as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined
  if (source === null || typeof source !== 'object' || (typeof source[Symbol.asyncIterator] !== 'function' && typeof source[Symbol.iterator] !== 'function')) {
    throw new ToolsieveError('invalid-option', 'events: must be an async iterable of Messages stream events', 'events')
  }
  const settings = anthropicSettings(options)
  const held = new HeldError()
  return run(events, new MessagesMachine(held.options(settings)), held)
}

function run(events: AsyncIterable<MessagesStreamEvent> | Iterable<MessagesStreamEvent>, machine: MessagesMachine, held: HeldError): AsyncGenerator<MessagesStreamEvent, void, undefined> {
  return readThrough(events, {
    item: (event) => machine.event(event),
    held: () => held.take(),
    // the upstream broke off (a malformed event, the source threw): what was held goes out before the error; a
    // conflict of the adapter's own sends nothing more
    broke: (error) => (isAdapterStop(error) ? null : machine.abort()),
    end: () => machine.end(),
  })
}
