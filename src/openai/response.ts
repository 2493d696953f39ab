/**
 * `sieveResponse`: the same as {@link sieveResponsesStream}, for a whole
 * (non-streamed) Responses API object: each message item's text read at
 * once, and the items it becomes put where the message stood.
 */
import type { Response } from 'openai/resources/responses/responses'
import { AnswerSieves, NativeConflictGate, resolveAdapterOptions, type ResolvedAdapterOptions } from '../adapters/index.js'
import type { OpenAIAdapterOptions } from './chat-stream.js'
import { CallItemIds, holdIds } from './ids.js'
import { TextPartItems, type ItemSink } from './responses-items.js'

type Item = Record<string, unknown>

/**
 * Rescues the tool calls a model wrote into the text of a Responses API
 * answer (`client.responses.create()` without `stream`).
 *
 * - Each assistant message item whose `output_text` parts hold markup
 *   becomes, in the text's order and where the message stood in `output`:
 *   a reasoning item for `<think>…</think>` (or with `thinking`), message
 *   items with the cleaned text (a message that held only calls is gone),
 *   and per rescued call a `function_call` item (`id` `fc_…`, `call_id`,
 *   `name`, `arguments`, `status: 'completed'`), as the streamed path
 *   builds them. Call ids and item ids are unique in the response, the
 *   ids of upstream's other items and calls (`custom_tool_call`,
 *   `computer_call`, any item with a `call_id`) included: a rescued call
 *   the model gave one of them goes out with a made id (and an
 *   `invalid-call-id` diagnostic), an item id already in the response gets
 *   a suffix (`fc_abc_1`).
 * - A message with nothing to rescue is left exactly as it came (its
 *   annotations and logprobs too); so is one with a part other than
 *   `output_text` (a refusal), and every item of another type.
 * - `output_text`, when the object carries it, is written again from the
 *   cleaned messages.
 * - A native `function_call` item in a response with rescued calls is a
 *   conflict, as for chat (`onConflict`). The input is not changed.
 *
 * ```ts
 * const response = sieveResponse(await client.responses.create({ model, input, tools }), { tools, quoted: input })
 * for (const item of response.output) if (item.type === 'function_call') …
 * ```
 *
 * @throws {ToolsieveError} `invalid-option` for a bad option;
 *   `native-conflict` for native and rescued calls in one response (unless
 *   `onConflict: 'prefer-native'`, which keeps the native ones).
 */
export function sieveResponse<T extends Response>(response: T, options?: OpenAIAdapterOptions | null): T {
  // a whole answer is read at once: a call is given whole or not at all, so none can be aborted halfway
  const whole = options !== null && typeof options === 'object' && !Array.isArray(options) ? { ...options, streamArguments: false } : options
  const resolved = resolveAdapterOptions(whole)
  const output = (response as { output?: unknown } | null | undefined)?.output
  if (!Array.isArray(output)) return response
  const native = output.some((item: Item | null) => item?.type === 'function_call')
  // a sieve per text part, as in the stream; the calls' ids are unique over them all, and beside upstream's
  const sieves = new AnswerSieves(resolved)
  const itemIds = new CallItemIds()
  // the whole answer is known before it is read: an upstream item after a message holds its ids as well
  for (const item of output as (Item | null)[]) holdIds(item, sieves, itemIds)
  let changed = false
  const items: unknown[] = []
  for (const item of output as (Item | null)[]) {
    const parts = textParts(item)
    if (parts === undefined) {
      items.push(item)
      continue
    }
    const made: Item[] = []
    let same = true
    parts.forEach((text, k) => {
      const part = sievePart(text, { ...item, id: k === 0 ? item!.id : `${String(item!.id)}_part${k}` } as Item & { id: string }, resolved, sieves, itemIds, native)
      made.push(...part.items)
      if (!part.same) same = false
    })
    if (same) items.push(item)
    else {
      items.push(...made)
      changed = true
    }
  }
  if (!changed) return response
  const out = { ...response, output: items } as T & { output_text?: unknown }
  if (typeof (response as { output_text?: unknown }).output_text === 'string') out.output_text = outputText(items)
  return out
}

/** The texts of a message item the sieve reads: an assistant message whose parts are all `output_text`; undefined for any other item. */
function textParts(item: Item | null): string[] | undefined {
  if (item === null || typeof item !== 'object' || item.type !== 'message' || typeof item.id !== 'string') return undefined
  if (item.role !== undefined && item.role !== 'assistant') return undefined
  const content = item.content
  if (!Array.isArray(content) || content.length === 0) return undefined
  const texts: string[] = []
  for (const part of content as ({ type?: unknown; text?: unknown } | null)[]) {
    if (part?.type !== 'output_text' || typeof part.text !== 'string') return undefined
    texts.push(part.text)
  }
  return texts
}

/**
 * One text part, read whole through the next of the response's sieves: the
 * items it becomes, and whether it is the same text with nothing rescued
 * (then the message stays as it came). The first part of a response starts
 * in the reasoning with `thinking`, as in the stream.
 */
function sievePart(text: string, message: Item & { id: string }, resolved: ResolvedAdapterOptions, sieves: AnswerSieves, itemIds: CallItemIds, native: boolean): { items: Item[]; same: boolean } {
  const sieve = sieves.next()
  const gate = new NativeConflictGate(resolved.onConflict)
  if (native) gate.sawNative()
  let next = 0
  const recorded = new Map<number, Item>()
  const sink: ItemSink = { emit: () => {}, nextIndex: () => next++, record: (index, item) => void recorded.set(index, typeof item === 'function' ? item() : item) }
  const items = new TextPartItems(sink, message, itemIds)
  const actions = [...gate.pass([...sieve.push(text), ...sieve.end()]), ...gate.finish()]
  items.write(actions)
  items.end()
  const same = actions.every((a) => a.type === 'text') && actions.map((a) => (a.type === 'text' ? a.text : '')).join('') === text
  return { items: [...recorded.keys()].sort((a, b) => a - b).map((i) => recorded.get(i)!), same }
}

/** `output_text` as the SDK computes it: the text of every `output_text` part of the message items, in order. */
function outputText(items: unknown[]): string {
  const texts: string[] = []
  for (const item of items as (Item | null)[]) {
    if (item?.type !== 'message' || !Array.isArray(item.content)) continue
    for (const part of item.content as ({ type?: unknown; text?: unknown } | null)[]) if (part?.type === 'output_text' && typeof part.text === 'string') texts.push(part.text)
  }
  return texts.join('')
}
