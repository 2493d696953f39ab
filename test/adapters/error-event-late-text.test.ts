/**
 * Text upstream still sends after an `error` event for a part (Responses)
 * or block (Messages) whose text the adapter was reading. Nothing is read
 * through the sieve after the error, so it goes out as upstream wrote it,
 * raw; but the item or block it belongs to is the adapter's: the message
 * item or text block the error cut, or, when the error left none open (a
 * reasoning item, a call last), one started for it. It never goes out under
 * upstream's own index, which names another of the adapter's items or
 * blocks (a thinking block) or none, and no text is lost or sent twice.
 */
import { describe, expect, it } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveResponsesStream } from '../../src/openai/index.js'
import { upstream } from './anthropic-helpers.js'
import { collect, counter, iterate } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'

const HELD = 'hello <｜DSML｜too'
const LATE = ' more <｜DSML｜x'

describe('Responses stream: text deltas after an error event, for the part the adapter read', () => {
  type Event = Record<string, unknown> & { type: string }
  const error = { type: 'error', sequence_number: 90, code: 'server_error', message: 'boom', param: null }
  const failed = { type: 'response.failed', sequence_number: 92, response: { id: 'resp_1', status: 'failed', output: [] } }
  /** The events of one message whose text is `text`, up to its last delta (the error cuts it there). */
  const head = (text: string) => (responseEvents([text], { completed: false }) as unknown as Event[]).filter((e) => !e.type.endsWith('.done'))
  const late = { type: 'response.output_text.delta', sequence_number: 91, item_id: 'msg_1', output_index: 0, content_index: 0, delta: LATE, logprobs: [] }
  const run = async (text: string) => (await collect(sieveResponsesStream(iterate([...head(text), error, late, failed] as unknown as ResponseStreamEvent[]), { generateId: counter() }))) as unknown as Event[]
  /** Each text delta names a message item added before it, by its id and its output index. */
  const unplaced = (out: readonly Event[]) => {
    const added = new Map<number, { id: string; type: string }>()
    const bad: Event[] = []
    for (const e of out) {
      if (e.type === 'response.output_item.added') added.set(e.output_index as number, e.item as { id: string; type: string })
      if (e.type === 'response.output_text.delta') {
        const item = added.get(e.output_index as number)
        if (item?.type !== 'message' || item.id !== e.item_id) bad.push(e)
      }
    }
    return bad
  }
  const textOf = (out: readonly Event[]) => out.map((e) => (e.type === 'response.output_text.delta' ? (e.delta as string) : '')).join('')

  it('should support a late delta going on in the message item the error cut: its id, its index, and the failed response listing its whole text', async () => {
    const out = await run(`Hi ${HELD}`)
    expect(unplaced(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi ${HELD}${LATE}`)
    const output = (out.at(-1)!.response as { output: Array<Record<string, unknown>> }).output
    expect(output).toEqual([{ id: 'msg_1', type: 'message', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: `Hi ${HELD}${LATE}`, annotations: [] }] }])
  })

  it('should support a late delta after an error that cut the reasoning: a message item of its own, listed in the failed response', async () => {
    const out = await run('<think>plan')
    expect(unplaced(out)).toEqual([])
    expect(textOf(out)).toBe(LATE)
    const output = (out.at(-1)!.response as { output: Array<Record<string, unknown>> }).output
    expect(output.map((i) => [i.type, i.status])).toEqual([['reasoning', 'incomplete'], ['message', 'incomplete']])
    expect(output[1]!.content).toEqual([{ type: 'output_text', text: LATE, annotations: [] }])
  })
})

describe('Messages stream: text deltas after an error event, for the block the adapter read', () => {
  const failure: MessagesStreamEvent = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
  const head = (text: string) => upstream([[text]]).slice(0, 4)
  const late: MessagesStreamEvent[] = [{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: LATE } }, { type: 'content_block_stop', index: 0 }]
  /** Deltas and stops that name no block started before them, or a block of another kind. */
  const misplaced = (out: readonly MessagesStreamEvent[]) => {
    const kinds = new Map<number, string>()
    const bad: MessagesStreamEvent[] = []
    for (const e of out) {
      if (e.type === 'content_block_start') kinds.set(e.index, e.content_block.type)
      else if (e.type === 'content_block_delta' && kinds.get(e.index) !== (e.delta.type === 'text_delta' ? 'text' : e.delta.type === 'thinking_delta' ? 'thinking' : kinds.get(e.index))) bad.push(e)
      else if (e.type === 'content_block_stop' && !kinds.has(e.index)) bad.push(e)
    }
    return bad
  }
  const textOf = (out: readonly MessagesStreamEvent[]) => out.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')

  it('should support a late delta going on in the text block the error cut, and upstream\'s stop closing it', async () => {
    // the adapter's block 0 is the thinking, its text block is 1: upstream's index 0 names the thinking
    const out = await collect(sieveMessagesStream(iterate([...head(`<think>plan</think>Hi ${HELD}`), failure, ...late])))
    expect(misplaced(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi ${HELD}${LATE}`)
    expect(out.filter((e) => e.type === 'content_block_start').map((e) => e.content_block.type)).toEqual(['thinking', 'text'])
    expect(out.slice(out.indexOf(failure) + 1)).toEqual([{ ...late[0]!, index: 1 }, { type: 'content_block_stop', index: 1 }])
  })

  it('should support a late delta after an error that cut the thinking: a text block of its own, not the thinking block under upstream\'s index', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head('<think>plan'), failure, ...late])))
    expect(misplaced(out)).toEqual([])
    expect(textOf(out)).toBe(LATE)
    const after = out.slice(out.indexOf(failure) + 1)
    expect(after).toEqual([{ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } }, { ...late[0]!, index: 1 }, { type: 'content_block_stop', index: 1 }])
  })
})
