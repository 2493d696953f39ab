/**
 * An upstream `error` event ends the reading, on the Responses and the
 * Messages wire alike: what the sieve held goes out before it, as text, and
 * nothing after it is read through a sieve or made a call. What upstream
 * still sends after it passes as upstream sent it (another block; a failed
 * response, whose `output` lists the adapter's items as they stood), and no
 * text is lost or sent twice. What the adapter still writes of its own
 * after it only carries upstream's late text or ends what upstream says is
 * over: late text for a part or block the adapter read goes into the item
 * or block the error cut, or one started for it
 * (error-event-late-text.test.ts); on the Messages wire such a text block
 * stops once upstream's block for it is over, at upstream's stop of that
 * block, or at the next block start or message end after upstream stopped
 * it (anthropic-error-followups.test.ts). Below, upstream never stops its
 * block, so the adapter's gets no stop. A rescued call the error cut never
 * gets a stop (anthropic-error-held.test.ts).
 */
import { describe, expect, it } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveResponsesStream } from '../../src/openai/index.js'
import { upstream } from './anthropic-helpers.js'
import { block, collect, counter, invoke, iterate, param } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'

const HELD = 'hello <｜DSML｜too'
const CALL = block(invoke('read_file', param('path', 'a.ts')))

describe('Responses stream: an error event, then more events', () => {
  type Event = Record<string, unknown> & { type: string }
  const textOf = (out: readonly Event[]) => out.map((e) => (e.type === 'response.output_text.delta' ? (e.delta as string) : '')).join('')
  /** The events of one message whose text is `text`, up to its last delta (the error cuts it there). */
  const head = (text: string) => (responseEvents([text], { completed: false }) as unknown as Event[]).filter((e) => !e.type.endsWith('.done'))
  const error = { type: 'error', sequence_number: 90, code: 'server_error', message: 'boom', param: null }
  const failed = { type: 'response.failed', sequence_number: 91, response: { id: 'resp_1', status: 'failed', output: [] } }

  it('should support a failed response after the error: its output lists the message the error cut, with the text that went out', async () => {
    const out = (await collect(sieveResponsesStream(iterate([...head(`Hi ${HELD}`), error, failed] as unknown as ResponseStreamEvent[])))) as unknown as Event[]
    expect(textOf(out)).toBe(`Hi ${HELD}`)
    expect(out.slice(-2).map((e) => e.type)).toEqual(['error', 'response.failed'])
    const response = out.at(-1)!.response as { output: unknown[] }
    expect(response.output).toEqual([{ id: 'msg_1', type: 'message', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: `Hi ${HELD}`, annotations: [] }] }])
  })

  it('should support the sequence numbers counting on through the error and the failed response', async () => {
    const out = (await collect(sieveResponsesStream(iterate([...head(`Hi ${HELD}`), error, failed] as unknown as ResponseStreamEvent[])))) as unknown as Event[]
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i))
  })

  it('should not support a message that starts after the error being read: it passes as upstream wrote it, and no call is rescued from it', async () => {
    const later = (responseEvents([`Then ${CALL}`], { completed: false }) as unknown as Event[])
      .filter((e) => e.type !== 'response.created')
      // the response's second item
      .map((e) => ({ ...e, output_index: 1, ...('item_id' in e ? { item_id: 'msg_2' } : {}), ...(e.item !== undefined ? { item: { ...(e.item as object), id: 'msg_2' } } : {}) }))
    const out = (await collect(sieveResponsesStream(iterate([...head(HELD), error, ...later, failed] as unknown as ResponseStreamEvent[]), { generateId: counter() }))) as unknown as Event[]
    const after = out.slice(out.findIndex((e) => e.type === 'error') + 1)
    expect(after.map((e) => e.type)).toEqual([...later.map((e) => e.type), 'response.failed'])
    expect(after.some((e) => (e.item as { type?: string } | undefined)?.type === 'function_call')).toBe(false)
    expect(textOf(after)).toBe(`Then ${CALL}`)
    expect(textOf(out)).toBe(`${HELD}Then ${CALL}`)
  })
})

describe('Messages stream: an error event, then a text block', () => {
  const failure: MessagesStreamEvent = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
  const head = upstream([[HELD]]).slice(0, 4)
  /** A second upstream text block, at upstream index 1, then the message's end. */
  const later = (text: string): MessagesStreamEvent[] => [
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 1 },
    ...upstream([]).slice(-2),
  ]
  const after = (out: MessagesStreamEvent[]) => out.slice(out.indexOf(out.find((e) => e.type === 'error')!) + 1)

  it('should support a text block after the error passing as upstream sent it: its start, its whole text, its stop', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head, failure, ...later('after <｜DSML｜to')])))
    expect(after(out)).toEqual(later('after <｜DSML｜to'))
  })

  it('should not support anything of the adapter\'s own after the error: its open block gets no stop, and no call is rescued', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head, failure, ...later(`Then ${CALL}`)]), { generateId: counter('toolu_') }))
    const rest = after(out)
    expect(rest).toEqual(later(`Then ${CALL}`))
    expect(rest.some((e) => e.type === 'content_block_stop' && e.index === 0)).toBe(false)
    expect(out.slice(0, out.indexOf(failure) + 1).map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')).toBe(HELD)
  })
})
