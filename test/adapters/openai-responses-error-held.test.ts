/**
 * `sieveResponsesStream` with `onConflict: 'prefer-native'` when the
 * response breaks off (an `error` event, `response.failed`, a source that
 * throws) while rescued calls are held for the turn's end. A failed response
 * runs nothing, and with no native call to stand for them, dropping the held
 * calls would lose their text: each goes out as the markup it was read from,
 * as text, before the error.
 *
 * The shared gate holds the calls only: the text after a held call went out
 * while it was held, so its markup comes at the break, after that text, not
 * where it stood in the answer.
 */
import { describe, expect, it } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveResponsesStream, type OpenAIAdapterOptions } from '../../src/openai/index.js'
import { block, counter, invoke, param } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'
import { awkward, source, until } from './stream-helpers.js'

type Event = Record<string, unknown> & { type: string }

const CALL = block(invoke('read_file', param('path', 'a.ts')))
const CALL2 = block(invoke('write_file', param('path', 'b.ts'), param('content', 'x')))
const PREFER: OpenAIAdapterOptions = { onConflict: 'prefer-native', trimBlankLines: false, generateId: counter() }
const error = { type: 'error', sequence_number: 99, code: 'server_error', message: 'boom', param: null }
const failed = { type: 'response.failed', sequence_number: 99, response: { id: 'resp_1', status: 'failed', output: [] } }
const native = { type: 'function_call', id: 'fc_n', call_id: 'call_n', name: 'read_file', arguments: '{"path":"n.ts"}' }

/** The events of one answer up to its text, with no done event: the break comes while the text part is open. */
const open = (pieces: readonly string[], before?: Record<string, unknown>[]) => responseEvents(pieces, { completed: false, before }).filter((e) => !e.type.endsWith('.done') || (e as { item?: { type?: string } }).item?.type === 'function_call')
/** The same with the message's done events: the text part ended before the break. */
const ended = (pieces: readonly string[]) => responseEvents(pieces, { completed: false })

const run = (events: readonly unknown[], options: OpenAIAdapterOptions = PREFER) => until(sieveResponsesStream(source(events as ResponseStreamEvent[]), { ...options, generateId: counter() }))
const textOf = (out: readonly unknown[]) => (out as Event[]).map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('')
const functionCalls = (out: readonly unknown[]) => (out as Event[]).filter((e) => e.type.startsWith('response.function_call') || (e.item as { type?: string } | undefined)?.type === 'function_call')
/** What came out after the event of type `type`. */
const after = (out: readonly unknown[], type: string) => (out as Event[]).slice((out as Event[]).findIndex((e) => e.type === type) + 1)

/** Every text delta goes into a message item that was added and not yet done; sequence numbers count up by one. */
function expectWellFormed(out: readonly unknown[]): void {
  const openItems = new Set<number>()
  ;(out as Array<Event & { output_index?: number }>).forEach((e, i) => {
    expect(e.sequence_number).toBe(i)
    if (e.type === 'response.output_item.added') openItems.add(e.output_index!)
    if (e.type === 'response.output_item.done') openItems.delete(e.output_index!)
    if (e.type === 'response.output_text.delta') expect(openItems.has(e.output_index!), 'a delta into an open item').toBe(true)
  })
}

describe('sieveResponsesStream, prefer-native: a held rescued call when an error event comes', () => {
  it.each([
    ['whole', [`Hi ${CALL} after`]],
    ['in pieces of 1..7', awkward(`Hi ${CALL} after`)],
  ])('should support its markup going out as text before the error, after the text that went out while it was held (%s)', async (_, pieces) => {
    const { out, error: thrown } = await run([...open(pieces), error])
    expect(thrown).toBeUndefined()
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi  after${CALL}`)
    expect(out.at(-1)).toMatchObject({ type: 'error', code: 'server_error' })
    expectWellFormed(out)
  })

  it('should support the markup of every call it held, in order, before the text the sieve still held', async () => {
    const { out } = await run([...open([`A ${CALL} B ${CALL2} C <｜DSML｜too`]), error])
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`A  B  C ${CALL}${CALL2}<｜DSML｜too`)
    expect(out.at(-1)).toMatchObject({ type: 'error' })
  })

  it('should support its markup going out whole with blank-line trimming on, without the blank space trimmed around it as a call', async () => {
    const { out } = await run([...open([`Hi\n\n${CALL}\n\nafter`]), error], { onConflict: 'prefer-native' })
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hiafter${CALL}`)
  })

  it('should support a text part that ended before the error: its markup in a message item of its own, before the error, and nothing after it', async () => {
    const { out } = await run([...ended([`Hi ${CALL} after`]), error])
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi  after${CALL}`)
    expect(out.at(-1)).toMatchObject({ type: 'error' })
    expectWellFormed(out)
    const added = (out as unknown as Event[]).filter((e) => e.type === 'response.output_item.added').map((e) => (e.item as { id: string }).id)
    expect(added).toEqual(['msg_1', 'msg_1_2'])
  })

  it('should not support the markup of a call held when a native call came: the native call stands for it', async () => {
    const { out } = await run([...open([`Hi ${CALL} after`], [native]), error])
    expect(textOf(out)).toBe('Hi  after')
    expect(functionCalls(out).map((e) => (e.item as { id?: string } | undefined)?.id ?? e.item_id)).toEqual(['fc_n', 'fc_n', 'fc_n'])
    expect(out.at(-1)).toMatchObject({ type: 'error' })
  })
})

describe('sieveResponsesStream, prefer-native: a held rescued call when the response fails', () => {
  const output = (out: readonly unknown[]) => (out.at(-1) as { response: { output: Array<{ type: string; content: Array<{ text: string }> }> } }).response.output

  it('should support its markup as text in the message item, listed in the failed response\'s output', async () => {
    const { out } = await run([...open([`Hi ${CALL} after`]), failed])
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi  after${CALL}`)
    expect(out.at(-1)).toMatchObject({ type: 'response.failed' })
    expect(output(out)).toMatchObject([{ type: 'message', content: [{ text: `Hi  after${CALL}` }] }])
    expectWellFormed(out)
  })

  it('should support a text part that ended before the failure: its markup in a message item of its own, listed, and nothing after the end', async () => {
    const { out } = await run([...ended([`Hi ${CALL} after`]), failed])
    expect(functionCalls(out)).toEqual([])
    expect(out.at(-1)).toMatchObject({ type: 'response.failed' })
    expect(output(out)).toMatchObject([{ type: 'message', content: [{ text: 'Hi  after' }] }, { type: 'message', content: [{ text: CALL }] }])
    expect(after(out, 'response.failed')).toEqual([])
  })
})

describe('sieveResponsesStream, prefer-native: a held rescued call when the source breaks off', () => {
  it('should support its markup going out as text before the source\'s error', async () => {
    const broken = new Error('socket hang up')
    const { out, error: thrown } = await until(sieveResponsesStream(source(open([`Hi ${CALL} after`]), broken), PREFER))
    expect(thrown).toBe(broken)
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi  after${CALL}`)
  })

  it('should support an event of the wrong shape the same way: the markup, then invalid-chunk', async () => {
    const bad = { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 7 }
    const { out, error: thrown } = await run([...open([`Hi ${CALL} after`]), bad])
    expect(thrown).toMatchObject({ code: 'invalid-chunk' })
    expect(functionCalls(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi  after${CALL}`)
  })
})
