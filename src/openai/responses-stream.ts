/**
 * `sieveResponsesStream`: a Responses API event stream with the calls its
 * output text held rescued as function_call output items. Here each event is
 * read, renumbered, passed through or held; the text parts it reads, and the
 * order of what they write against the events passed between them, are kept
 * by `TextParts` (`responses-parts.ts`).
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { HeldError, isAdapterStop, keyText, optionalArray, optionalRecord, optionalString, Passed, record, resolveAdapterOptions, type ResolvedAdapterOptions } from '../adapters/index.js'
import { readThrough } from '../sieve/read-through.js'
import type { OpenAIAdapterOptions } from './chat-stream.js'
import type { ItemSink } from './responses-items.js'
import { TextParts, type AnyEvent } from './responses-parts.js'

/**
 * Rescues the tool calls a model wrote into its output text, from a
 * Responses API stream (`client.responses.create({ stream: true })`).
 *
 * - `response.output_text.delta` is read through a sieve. Out come, in the
 *   text's order: a reasoning item for `<think>…</think>` (or with
 *   `thinking`), message items with the cleaned text (a message that held
 *   only calls is gone), and per rescued call a function_call item
 *   (`response.output_item.added`, `response.function_call_arguments.delta`
 *   / `.done`, `response.output_item.done`).
 * - Text items' `.done`, `content_part.done` and `output_item.done` carry
 *   the cleaned text; output indexes and sequence numbers are renumbered
 *   over the whole stream; `response.completed`'s `response.output` lists
 *   the items as they went out.
 * - Everything else passes through, renumbered, after the text the sieves
 *   held from before it (never ahead of it); a text part that first opens
 *   after it goes out after it too. A native function_call item
 *   in a response with rescued calls is a conflict, as for chat
 *   (`onConflict`).
 * - Call ids and function_call item ids are unique in the response: a
 *   rescued call whose id an earlier call went out with, or an upstream
 *   call read before it (a `custom_tool_call`, a `computer_call`, any item
 *   with a `call_id`), goes out with a made id and an `invalid-call-id`
 *   diagnostic; an item id the response has already gets a suffix
 *   (`fc_abc_1`, see `CallItemIds`).
 *
 * @throws {ToolsieveError} at once for a bad option; while iterating,
 *   `native-conflict` or `call-aborted`, and `invalid-chunk` (with `field`)
 *   for an event of the wrong shape: not an object, a text delta that is
 *   not a string, a final `response` that is not an object or whose
 *   `output` is not a list. Fields the adapter does not act on pass through.
 *   Before `invalid-chunk`, an error the source throws, an `error` event or
 *   `response.failed`, the text the sieves held goes out as text (never as
 *   a call; the rescued calls `prefer-native` held go out as their markup, as
 *   text, after the text that followed them).
 *   Text upstream still sends after an `error` event for a part the
 *   adapter read goes out raw, in the message item the error cut (or one
 *   started for it), never under upstream's own item index.
 */
export function sieveResponsesStream<T extends ResponseStreamEvent>(events: AsyncIterable<T>, options?: OpenAIAdapterOptions | null): AsyncIterable<T> {
  const resolved = resolveAdapterOptions(options)
  return run(events as AsyncIterable<AnyEvent>, resolved) as AsyncIterable<T>
}

function run(events: AsyncIterable<AnyEvent>, given: ResolvedAdapterOptions): AsyncGenerator<AnyEvent | Passed> {
  const held = new HeldError()
  const resolved = held.options(given)
  const out: Array<AnyEvent | Passed> = []
  /** The next sequence number: upstream's first, then one per event written. */
  let seq: number | undefined
  let nextIndex = 0
  /** Upstream output index → ours, for the items that pass through. */
  const passIndex = new Map<number, number>()
  /** Our output index → the item as it went out (made when asked, for an item a failure cut). */
  const finals = new Map<number, Record<string, unknown> | (() => Record<string, unknown>)>()
  /** Upstream message items, by id, held until their text says what they become. */
  const messages = new Map<string, Record<string, unknown> & { id: string }>()
  /**
   * An `error` event came, which ends the stream: what the sieves held went
   * out before it, and nothing more is read through a sieve (a message that
   * starts later passes as upstream wrote it), so no item of the adapter's
   * own opens after it.
   */
  let stopped = false
  const sink: ItemSink = {
    emit: (event) => out.push({ ...(event as AnyEvent), sequence_number: seq === undefined ? 0 : seq++ }),
    nextIndex: () => nextIndex++,
    record: (index, item) => void finals.set(index, item),
  }
  const write = (event: AnyEvent | Passed): void => void out.push(seq === undefined || event instanceof Passed ? event : { ...event, sequence_number: seq++ })
  /** The text parts read, by `item_id:content_index`, and every event passed through, in its place among what they write. */
  const parts = new TextParts(resolved, sink, write)
  const mapped = (index: unknown): number => {
    const upstream = typeof index === 'number' ? index : -1
    let ours = passIndex.get(upstream)
    if (ours === undefined) passIndex.set(upstream, (ours = nextIndex++))
    return ours
  }
  /** Passes `event` through as it came, at its output index as mapped when it goes out. */
  const passAsIs = (event: AnyEvent): void => parts.pass(() => ({ ...event, output_index: mapped(event.output_index) }))
  /** A held message the sieve does not read (a refusal part, or no text deltas): it goes out as upstream wrote it, from its added event on. */
  const release = (id: string, outputIndex: unknown): void => {
    const message = messages.get(id)
    if (message === undefined) return
    messages.delete(id)
    parts.pass(() => ({ type: 'response.output_item.added', output_index: mapped(outputIndex), item: message, sequence_number: 0 }))
  }

  return readThrough(events, {
    item: (event) => {
      if (event instanceof Passed) {
        parts.pass(() => event)
        return out.splice(0)
      }
      record(event, 'event')
      if (seq === undefined) seq = typeof event.sequence_number === 'number' ? event.sequence_number : 0
      const key = `${keyText(event.item_id)}:${keyText(event.content_index)}`
      const part = parts.get(key)
      switch (event.type) {
        case 'response.output_item.added': {
          const item = event.item as Record<string, unknown> & { id: string; type: string }
          parts.sawItem(item)
          if (item?.type === 'message' && typeof item.id === 'string' && !stopped) {
            messages.set(item.id, item)
            break
          }
          if (item?.type === 'function_call') parts.sawNative()
          passAsIs(event)
          break
        }
        case 'response.content_part.added': {
          const message = messages.get(event.item_id as string)
          const p = event.part as { type?: string }
          if (message !== undefined && p?.type === 'output_text' && !stopped) {
            parts.open(key, message)
            break
          }
          if (message !== undefined) release(event.item_id as string, event.output_index)
          passAsIs(event)
          break
        }
        case 'response.output_text.delta': {
          // a server that skips content_part.added still has its text read
          const message = messages.get(event.item_id as string)
          const p = part ?? (message === undefined || stopped ? undefined : parts.open(key, message))
          if (p === undefined && message !== undefined) release(event.item_id as string, event.output_index)
          if (p?.cut === true) {
            const delta = optionalString(event.delta, 'delta') ?? ''
            const logprobs = (event.logprobs as unknown[] | undefined) ?? []
            parts.late(p, delta, logprobs)
          } else if (p === undefined || p.ended) passAsIs(event)
          else parts.push(p, optionalString(event.delta, 'delta'), (event.logprobs as unknown[] | undefined) ?? [])
          break
        }
        case 'response.output_text.done':
          if (part === undefined) passAsIs(event)
          else parts.end(part)
          break
        case 'response.content_part.done':
        case 'response.output_text.annotation.added':
          // our items wrote their own done events, from the cleaned text; annotations point into the raw one
          if (part === undefined) passAsIs(event)
          break
        case 'response.output_item.done': {
          const item = event.item as { id?: string; type?: string }
          parts.sawItem(item)
          if (item?.type === 'message' && typeof item.id === 'string' && messages.has(item.id)) {
            if (parts.endMessage(item.id)) break
            // a message whose text never came as deltas: nothing was read, so it goes out as it came
            release(item.id, event.output_index)
          }
          parts.pass(() => {
            const index = mapped(event.output_index)
            finals.set(index, event.item as Record<string, unknown>)
            return { ...event, output_index: index }
          })
          break
        }
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          const response = optionalRecord(event.response, 'response')
          const upstreamOutput = optionalArray(response?.output, 'response.output') ?? []
          // a failed response ended at an error: nothing held may become a call there
          if (event.type === 'response.failed') parts.abort(true)
          else parts.finish()
          // an item that passed through without its done event is in upstream's output, at its upstream index
          for (const [upstream, ours] of passIndex) if (!finals.has(ours) && upstreamOutput[upstream] !== undefined) finals.set(ours, upstreamOutput[upstream] as Record<string, unknown>)
          const output = [...finals.keys()].sort((a, b) => a - b).map((i) => {
            const item = finals.get(i)!
            return typeof item === 'function' ? item() : item
          })
          parts.pass(() => (response === undefined ? event : { ...event, response: { ...response, output } }))
          break
        }
        case 'error':
          // the stream's error event: what the sieves held goes before it, as text
          parts.abort(false)
          stopped = true
          parts.pass(() => event)
          break
        default:
          parts.pass(() => (typeof event.output_index === 'number' ? { ...event, output_index: mapped(event.output_index) } : event))
      }
      return out.splice(0)
    },
    held: () => held.take(),
    // the upstream broke off (its iterator threw, or an event of the wrong shape came): what the sieves held goes out
    // first; a stop of the adapter's own (a conflict, an aborted call) sends nothing more
    broke: (error) => {
      if (isAdapterStop(error)) return null
      parts.abort(false)
      return out.splice(0)
    },
    end: () => {
      // a stream cut before its completion: what the sieves held still goes out
      parts.finish()
      return out.splice(0)
    },
  })
}

