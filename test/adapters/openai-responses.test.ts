/**
 * `sieveResponsesStream` (toolsieve/openai): a Responses API stream with the
 * calls its output text held rescued as function_call items.
 */
import { describe, expect, it } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveResponsesStream } from '../../src/openai/index.js'
import { block, collect, counter, cut, invoke, iterate, param, rejection } from './openai-helpers.js'
import { readItems, responseEvents } from './openai-responses-helpers.js'

const ls = block(invoke('ls', param('dir', 'src')))
const run = (events: ResponseStreamEvent[], options: Parameters<typeof sieveResponsesStream>[1] = {}) => collect(sieveResponsesStream(iterate(events), { generateId: counter(), ...options }))

describe('sieveResponsesStream', () => {
  it('should support a rescued call as a function_call item after the cleaned message, in every chunking', async () => {
    for (const size of [1, 3, 10_000]) {
      expect(readItems(await run(responseEvents(cut(`Let me look.\n\n${ls}`, size))))).toEqual([
        { type: 'message', id: 'msg_1', text: 'Let me look.' },
        { type: 'function_call', id: 'fc_1', name: 'ls', call_id: 'call_1', arguments: '{"dir":"src"}' },
      ])
    }
  })

  it('should support text after the calls as a message item of its own, in the text\'s order', async () => {
    expect(readItems(await run(responseEvents(cut(`A ${ls}\n\nB`, 4))))).toEqual([
      { type: 'message', id: 'msg_1', text: 'A' },
      { type: 'function_call', id: 'fc_1', name: 'ls', call_id: 'call_1', arguments: '{"dir":"src"}' },
      { type: 'message', id: 'msg_1_2', text: 'B' },
    ])
  })

  it('should support a message that held only calls leaving no empty message behind', async () => {
    const two = block(invoke('ls', param('dir', 'a')), invoke('ls', param('dir', 'b')))
    expect(readItems(await run(responseEvents(cut(two, 5)))).map((i) => [i.type, i.arguments])).toEqual([
      ['function_call', '{"dir":"a"}'],
      ['function_call', '{"dir":"b"}'],
    ])
  })

  it('should support rewriting the text items\' done events and response.completed\'s output to the cleaned text', async () => {
    const out = await run(responseEvents([`Hi ${ls}`]))
    const texts = out.flatMap((e) => (e.type === 'response.output_text.done' ? [e.text] : e.type === 'response.content_part.done' && e.part.type === 'output_text' ? [e.part.text] : []))
    expect(texts).toEqual(['Hi', 'Hi'])
    const completed = out.find((e) => e.type === 'response.completed')
    expect(completed?.type === 'response.completed' && completed.response.output.map((i) => i.type)).toEqual(['message', 'function_call'])
  })

  it('should support reasoning as a reasoning item, and items before the text renumbered', async () => {
    const before = [{ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } }]
    expect(readItems(await run(responseEvents(cut(`<think>plan</think>Answer ${ls}`, 2), { before })))).toEqual([
      { type: 'web_search_call', id: 'ws_1', text: '' },
      { type: 'reasoning', id: 'rs_msg_1', text: 'plan' },
      { type: 'message', id: 'msg_1', text: 'Answer' },
      { type: 'function_call', id: 'fc_1', name: 'ls', call_id: 'call_1', arguments: '{"dir":"src"}' },
    ])
  })

  it('should not support running an example in a code fence: the message keeps it', async () => {
    const example = `Like this:\n\`\`\`\n${ls}\n\`\`\``
    expect(readItems(await run(responseEvents(cut(example, 3))))).toEqual([{ type: 'message', id: 'msg_1', text: example }])
  })

  it('should support a stream cut before response.completed: what was held still goes out', async () => {
    const items = readItems(await run(responseEvents([`Hi ${ls}`], { completed: false })))
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call'])
  })

  it('should not support a rescued call in a response with a native function_call: native-conflict', async () => {
    const before = [{ type: 'function_call', id: 'fc_native', call_id: 'call_native', name: 'nat', arguments: '{}', status: 'completed' }]
    expect((await rejection(run(responseEvents([ls], { before })))).code).toBe('native-conflict')
    const preferred = readItems(await run(responseEvents([`x ${ls}`], { before }), { onConflict: 'prefer-native' }))
    expect(preferred.map((i) => [i.type, i.name ?? i.text])).toEqual([['function_call', 'nat'], ['message', 'x']])
  })

  it('should support Responses function tools: schemas coerce the arguments', async () => {
    const tools = [{ type: 'function' as const, name: 'add', parameters: { type: 'object', properties: { a: { type: 'number' } } }, strict: false }]
    const items = readItems(await run(responseEvents([block(invoke('add', param('a', '2')))]), { tools }))
    expect(items[0]?.arguments).toBe('{"a":2}')
  })

  it('should support a server that skips content_part.added: its text is still read', async () => {
    const events = responseEvents([`Hi ${ls}`]).filter((e) => e.type !== 'response.content_part.added').map((e, i) => ({ ...e, sequence_number: i }))
    expect(readItems(await run(events)).map((i) => i.type)).toEqual(['message', 'function_call'])
  })

  it('should not support losing a message whose text came only in its done event, or a refusal: they go out as they came', async () => {
    const noDeltas = responseEvents([`Hi ${ls}`]).filter((e) => !e.type.startsWith('response.output_text') && !e.type.startsWith('response.content_part')).map((e, i) => ({ ...e, sequence_number: i }))
    const out = await run(noDeltas)
    const done = out.find((e) => e.type === 'response.output_item.done')
    expect(done?.type === 'response.output_item.done' && done.item.type === 'message' && done.item.content[0]).toMatchObject({ text: `Hi ${ls}` })
    expect(out.map((e) => e.type)).toEqual(noDeltas.map((e) => e.type))
    const refusal = responseEvents([]).map((e) => (e.type === 'response.content_part.added' ? { ...e, part: { type: 'refusal' as const, refusal: '' } } : e))
    expect((await run(refusal)).map((e) => e.type)).toEqual(refusal.map((e) => e.type))
  })
})
