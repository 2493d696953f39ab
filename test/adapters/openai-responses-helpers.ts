/**
 * Shared by the Responses specs: an upstream Responses event stream for a
 * text answer, as the API sends it, and a reader that checks the output's
 * numbering and gives its items.
 */
import { expect } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'

type Event = Record<string, unknown> & { type: string }

const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', created_at: 1, model: 'deepseek', status, output, tools: [], parallel_tool_calls: true, tool_choice: 'auto' })

/**
 * The events of one answer whose message text arrives as `pieces`; `before`
 * items (reasoning, native calls) go first, `completed` can be left off.
 */
export function responseEvents(pieces: readonly string[], options: { before?: Record<string, unknown>[]; completed?: boolean } = {}): ResponseStreamEvent[] {
  const events: Event[] = [{ type: 'response.created', response: response('in_progress', []) }]
  const output: unknown[] = []
  for (const item of options.before ?? []) {
    const index = output.length
    events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, ...(item.type === 'function_call' ? { arguments: '', status: 'in_progress' } : {}) } })
    if (item.type === 'function_call') events.push({ type: 'response.function_call_arguments.delta', output_index: index, item_id: item.id, delta: item.arguments })
    events.push({ type: 'response.output_item.done', output_index: index, item })
    output.push(item)
  }
  const index = output.length
  const text = pieces.join('')
  const at = { item_id: 'msg_1', output_index: index, content_index: 0 }
  const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] }
  events.push({ type: 'response.output_item.added', output_index: index, item: message })
  events.push({ type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } })
  for (const delta of pieces) events.push({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })
  const part = { type: 'output_text', text, annotations: [] }
  events.push({ type: 'response.output_text.done', ...at, text, logprobs: [] })
  events.push({ type: 'response.content_part.done', ...at, part })
  const done = { ...message, status: 'completed', content: [part] }
  events.push({ type: 'response.output_item.done', output_index: index, item: done })
  output.push(done)
  if (options.completed !== false) events.push({ type: 'response.completed', response: response('completed', output) })
  return events.map((e, i) => ({ ...e, sequence_number: i })) as unknown as ResponseStreamEvent[]
}

/** A message item's start, and its first `output_text` part's, as a server sends them before its text (`sequence_number` left to the caller). */
export const messageOpened = (id: string, index: number): Event[] => [
  { type: 'response.output_item.added', output_index: index, item: { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
  { type: 'response.content_part.added', item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
]

/** A text delta of a message item's first part. */
export const textDelta = (id: string, index: number, text: string): Event => ({ type: 'response.output_text.delta', item_id: id, output_index: index, content_index: 0, delta: text, logprobs: [] })

export interface ReadItem {
  type: string
  id: string
  /** Message and reasoning items: the text of their deltas, checked against their done events. */
  text?: string
  /** function_call items. */
  name?: string
  call_id?: string
  arguments?: string
}

/**
 * The items of an output stream, in output-index order. Checks: sequence
 * numbers count up by one; output indexes are 0, 1, … in the order items
 * are added; every delta's item was added and not yet done; each `.done`
 * text equals its deltas; `response.completed` lists the done items.
 */
export function readItems(events: readonly ResponseStreamEvent[]): ReadItem[] {
  const items: ReadItem[] = []
  const open = new Set<number>()
  const done: unknown[] = []
  events.forEach((raw, i) => {
    const e = raw as unknown as Event & { output_index?: number; item?: Record<string, unknown>; delta?: string; text?: string }
    expect(e.sequence_number, 'sequence numbers count up').toBe(i)
    switch (e.type) {
      case 'response.output_item.added':
        expect(e.output_index, 'output indexes in order').toBe(items.length)
        items.push({ type: e.item!.type as string, id: e.item!.id as string, ...(e.item!.type === 'function_call' ? { name: e.item!.name as string, call_id: e.item!.call_id as string, arguments: '' } : { text: '' }) })
        open.add(e.output_index!)
        break
      case 'response.output_text.delta':
      case 'response.reasoning_text.delta':
        expect(open.has(e.output_index!), `${e.type} into an open item`).toBe(true)
        items[e.output_index!]!.text += e.delta!
        break
      case 'response.function_call_arguments.delta':
        expect(open.has(e.output_index!)).toBe(true)
        items[e.output_index!]!.arguments += e.delta!
        break
      case 'response.output_text.done':
      case 'response.reasoning_text.done':
        expect(e.text, 'done text equals the deltas').toBe(items[e.output_index!]!.text)
        break
      case 'response.function_call_arguments.done':
        expect((e as { arguments?: string }).arguments).toBe(items[e.output_index!]!.arguments)
        break
      case 'response.output_item.done': {
        const item = items[e.output_index!]!
        if (item.type === 'function_call') expect(e.item!.arguments).toBe(item.arguments)
        else if (Array.isArray(e.item!.content) && e.item!.content.length > 0) expect((e.item!.content as { text: string }[])[0]!.text).toBe(item.text)
        open.delete(e.output_index!)
        done[e.output_index!] = e.item
        break
      }
      case 'response.completed':
        expect((e as unknown as { response: { output: unknown[] } }).response.output, 'completed lists the items').toEqual(done)
        break
    }
  })
  expect(open.size, 'every item is done').toBe(0)
  return items
}
