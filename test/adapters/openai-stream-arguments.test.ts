/**
 * toolsieve/openai with `streamArguments: true`: a rescued call's name goes
 * out as soon as the sieve reads it and its arguments as they arrive; a call
 * already sent whose block then fails stops the stream (`call-aborted`).
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { accumulate, answer, chunk, collect, counter, iterate, rejection } from './openai-helpers.js'
import { readItems, responseEvents } from './openai-responses-helpers.js'

const open = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="write">\n<｜DSML｜parameter name="text" string="true">'
const close = '</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const pieces = ['Writing.\n\n', open, 'first line\n', 'second line\n', 'third line', close]

/** Runs `inputs` through, logging each input as it is read and each output as it comes, to see what went out when. */
async function timeline(inputs: ChatCompletionChunk[], options: Parameters<typeof sieveChatStream>[1]): Promise<string[]> {
  const log: string[] = []
  async function* upstream() {
    for (const [i, c] of inputs.entries()) {
      log.push(`in ${i}`)
      yield c
    }
  }
  for await (const c of sieveChatStream(upstream(), options)) {
    for (const t of c.choices[0]?.delta.tool_calls ?? []) log.push(t.function?.name !== undefined ? `start ${t.function.name}` : `args ${JSON.stringify(t.function?.arguments)}`)
  }
  return log
}

describe('sieveChatStream with streamArguments', () => {
  it('should support the name going out when the invoke is read, and the arguments as they arrive', async () => {
    const log = await timeline(answer(pieces), { streamArguments: true, generateId: counter() })
    const start = log.indexOf('start write')
    expect(start).toBeGreaterThan(log.indexOf('in 2'))
    expect(start).toBeLessThan(log.indexOf('in 3'))
    // some of the value went out before its closer was read
    expect(log.findIndex((l) => l.startsWith('args'))).toBeLessThan(log.indexOf('in 6'))
  })

  it('should support the argument deltas concatenating to the final arguments', async () => {
    const got = accumulate(await collect(sieveChatStream(iterate(answer(pieces)), { streamArguments: true, generateId: counter() })))
    expect(got).toEqual({ content: 'Writing.', reasoning: '', calls: [{ id: 'call_1', name: 'write', arguments: JSON.stringify({ text: 'first line\nsecond line\nthird line' }) }], finish: 'tool_calls' })
  })

  it('should not support default streaming: without streamArguments nothing of a call goes out before the call is complete', async () => {
    const log = await timeline(answer(pieces), { generateId: counter() })
    expect(log.indexOf('start write')).toBeGreaterThan(log.indexOf('in 6'))
  })

  it('should not support leaving a partial call: a sent call whose block fails throws call-aborted', async () => {
    const broken = [chunk({ role: 'assistant', content: open }), chunk({ content: 'half a value' })]
    const out: ChatCompletionChunk[] = []
    const error = await rejection((async () => { for await (const c of sieveChatStream(iterate(broken), { streamArguments: true })) out.push(c) })())
    expect(error.code).toBe('call-aborted')
    expect(out.some((c) => c.choices.some((ch) => ch.delta.tool_calls !== undefined)), 'the start had gone out').toBe(true)
  })

  it('should support the same block ending as text without streamArguments (nothing was sent)', async () => {
    const broken = [chunk({ role: 'assistant', content: open }), chunk({ content: 'half a value' })]
    expect(accumulate(await collect(sieveChatStream(iterate(broken))))).toEqual({ content: `${open}half a value`, reasoning: '', calls: [], finish: null })
  })

  it('should support prefer-native holding streamed calls: a held call that aborts is dropped, no error', async () => {
    const broken = [chunk({ role: 'assistant', content: `x ${open}` }), chunk({ content: 'half' })]
    expect(accumulate(await collect(sieveChatStream(iterate(broken), { streamArguments: true, onConflict: 'prefer-native' })))).toEqual({ content: `x ${open}half`, reasoning: '', calls: [], finish: null })
  })
})

describe('sieveResponsesStream with streamArguments', () => {
  it('should support the function_call item added before its arguments are complete, deltas joining to them', async () => {
    const events = responseEvents(pieces)
    const out = await collect(sieveResponsesStream(iterate(events), { streamArguments: true, generateId: counter() }))
    const deltas = out.filter((e) => e.type === 'response.function_call_arguments.delta')
    expect(deltas.length).toBeGreaterThan(1)
    expect(readItems(out).map((i) => [i.type, i.arguments ?? i.text])).toEqual([
      ['message', 'Writing.'],
      ['function_call', JSON.stringify({ text: 'first line\nsecond line\nthird line' })],
    ])
  })

  it('should not support leaving a partial function_call: call-aborted', async () => {
    const events = responseEvents([open, 'half'], { completed: false })
    const cut = events.slice(0, events.findIndex((e: ResponseStreamEvent) => e.type === 'response.output_text.done'))
    expect((await rejection(collect(sieveResponsesStream(iterate(cut), { streamArguments: true })))).code).toBe('call-aborted')
  })
})
