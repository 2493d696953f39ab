/**
 * The user's `onDiagnostic` throws. A diagnostic is one event of a push among
 * others (the text around a failed block, a call after it): every adapter
 * still applies the push's later events and sends what they made, in order,
 * then fails the stream with the callback's first error as it fails it for an
 * upstream break, after what its sieve held. So the answer reads exactly as
 * if the upstream had broken off right after that chunk.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveFetch } from '../../src/fetch/index.js'
import { sieveChatCompletion, sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { upstream } from './anthropic-helpers.js'
import { deltaText as textOfParts, middlewareParts } from './ai-sdk-helpers.js'
import { source, throwing, until } from './stream-helpers.js'
import { accumulate, block, chunk, counter, invoke, param } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'
import { bodyOf, chatChunk, dataOf, sseHeaders, stubFetch } from '../fetch/helpers.js'

const CALL = block(invoke('read_file', param('path', 'a.ts')))
/** A block that fails to parse: released as text, with a `malformed-block` diagnostic, within the push that completes it. */
const BAD = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">oops</｜DSML｜tool_calls>'
/** One push: text, a failed block (its diagnostic), text, a call, and text the sieve holds at the push's end. */
const PUSH = `Hi ${BAD} then ${CALL} and <｜DSML｜too`
/** A second failed block in the same push: its diagnostic comes after the first one's. */
const TWICE = `Hi ${BAD} then ${BAD} and ${CALL} done.`
/** An unclosed block: only the end of the stream releases it, with an `unterminated-block` diagnostic. */
const OPEN = 'Hi <｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">'
const broken = new Error('socket hang up')

const quiet = { onDiagnostic: () => {} }

describe('chat stream: an onDiagnostic that throws', () => {
  const text = (out: ChatCompletionChunk[]) => accumulate(out)
  const chunks = [chunk({ role: 'assistant', content: '' }), chunk({ content: PUSH }), chunk({ content: ' later' }), chunk({}, 'stop')]

  it('should support the rest of the push after its diagnostic: its text and its call go out, then what was held, then the error', async () => {
    const callback = throwing()
    const taken = { read: 0 }
    const { out, error } = await until(sieveChatStream(source(chunks, undefined, taken), { generateId: counter(), onDiagnostic: callback.onDiagnostic }))
    const got = text(out)
    expect(got.content).toBe(`Hi ${BAD} then  and <｜DSML｜too`)
    expect(got.calls).toMatchObject([{ name: 'read_file', arguments: '{"path":"a.ts"}' }])
    expect(error).toBe(callback.thrown[0])
    // the stream stopped at that chunk: the one after it was never read
    expect(taken.read).toBe(2)
  })

  it('should support the same answer as an upstream break right after that chunk', async () => {
    const { out, error } = await until(sieveChatStream(source(chunks), { generateId: counter(), onDiagnostic: throwing().onDiagnostic }))
    const cut = await until(sieveChatStream(source(chunks.slice(0, 2), broken), { generateId: counter(), ...quiet }))
    expect(out).toEqual(cut.out)
    expect(error).not.toBe(broken)
  })

  it('should support every diagnostic of the push reaching the callback, and the first error ending the stream', async () => {
    const callback = throwing()
    const { out, error } = await until(sieveChatStream(source([chunk({ content: TWICE })]), { generateId: counter(), onDiagnostic: callback.onDiagnostic }))
    expect(callback.seen).toEqual(['malformed-block', 'malformed-block'])
    expect(error).toBe(callback.thrown[0])
    expect(text(out).content).toBe(`Hi ${BAD} then ${BAD} and  done.`)
    expect(text(out).calls.map((c) => c.name)).toEqual(['read_file'])
  })

  it('should support a diagnostic of the stream\'s end: what the end released goes out, then the error', async () => {
    const callback = throwing()
    const { out, error } = await until(sieveChatStream(source([chunk({ content: OPEN })]), { onDiagnostic: callback.onDiagnostic }))
    expect(callback.seen).toEqual(['unterminated-block'])
    expect(text(out).content).toBe(OPEN)
    expect(error).toBe(callback.thrown[0])
  })

  it('should not support a later error replacing the callback\'s: a malformed choice after it in the same chunk still fails with the callback\'s error', async () => {
    const callback = throwing()
    const two = { ...chunk({ content: PUSH }), choices: [{ index: 0, delta: { content: PUSH }, finish_reason: null }, { index: 1, delta: { content: 7 }, finish_reason: null }] }
    const { out, error } = await until(sieveChatStream(source<unknown>([two]) as never, { generateId: counter(), onDiagnostic: callback.onDiagnostic }))
    expect(text(out as ChatCompletionChunk[]).content).toBe(`Hi ${BAD} then  and <｜DSML｜too`)
    expect(error).toBe(callback.thrown[0])
  })
})

describe('whole answers: an onDiagnostic that throws', () => {
  it('should support every diagnostic reaching the callback before its first error is thrown', () => {
    const callback = throwing()
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: TWICE, refusal: null }, finish_reason: 'stop', logprobs: null }] }
    expect(() => sieveChatCompletion(completion as never, { onDiagnostic: callback.onDiagnostic })).toThrow(callback.thrown[0])
    expect(callback.seen).toEqual(['malformed-block', 'malformed-block'])
    expect(callback.thrown).toHaveLength(2)
  })
})

describe('Responses stream: an onDiagnostic that throws', () => {
  const textOf = (out: ResponseStreamEvent[]) => out.map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('')
  const calls = (out: ResponseStreamEvent[]) => out.flatMap((e) => (e.type === 'response.output_item.done' && e.item.type === 'function_call' ? [e.item.name] : []))
  const events = responseEvents([PUSH, ' later'])
  const upTo = events.findIndex((e) => e.type === 'response.output_text.delta') + 1

  it('should support the rest of the push after its diagnostic: its text and its call go out, then what was held, then the error', async () => {
    const callback = throwing()
    const { out, error } = await until(sieveResponsesStream(source(events), { generateId: counter(), onDiagnostic: callback.onDiagnostic }))
    expect(textOf(out)).toBe(`Hi ${BAD} then and <｜DSML｜too`)
    expect(calls(out)).toEqual(['read_file'])
    expect(error).toBe(callback.thrown[0])
  })

  it('should support the same answer as an upstream break right after that event', async () => {
    const { out } = await until(sieveResponsesStream(source(events), { generateId: counter(), onDiagnostic: throwing().onDiagnostic }))
    const cut = await until(sieveResponsesStream(source(events.slice(0, upTo), broken), { generateId: counter(), ...quiet }))
    expect(out).toEqual(cut.out)
  })
})

describe('Messages stream: an onDiagnostic that throws', () => {
  const events = upstream([[PUSH, ' later']])
  const upTo = events.findIndex((e) => e.type === 'content_block_delta') + 1
  const textOf = (out: MessagesStreamEvent[]) => out.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')
  const toolUses = (out: MessagesStreamEvent[]) => out.flatMap((e) => (e.type === 'content_block_start' && e.content_block.type === 'tool_use' ? [e.content_block.name] : []))

  it('should support the rest of the push after its diagnostic: its text and its call go out, then what was held, then the error', async () => {
    const callback = throwing()
    const { out, error } = await until(sieveMessagesStream(source(events), { generateId: counter('toolu_'), onDiagnostic: callback.onDiagnostic }))
    expect(textOf(out)).toBe(`Hi ${BAD} then and <｜DSML｜too`)
    expect(toolUses(out)).toEqual(['read_file'])
    expect(error).toBe(callback.thrown[0])
  })

  it('should support the same answer as an upstream break right after that event', async () => {
    const { out } = await until(sieveMessagesStream(source(events), { generateId: counter('toolu_'), onDiagnostic: throwing().onDiagnostic }))
    const cut = await until(sieveMessagesStream(source(events.slice(0, upTo), broken), { generateId: counter('toolu_'), ...quiet }))
    expect(out).toEqual(cut.out)
  })
})

describe('AI SDK stream: an onDiagnostic that throws', () => {
  const head = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: PUSH }]
  const rest = [{ type: 'text-delta', id: 't', delta: ' later' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }]

  it('should support the rest of the push after its diagnostic: its text and its call go out, then what was held, then the error', async () => {
    const callback = throwing()
    const { out, error } = await middlewareParts([...head, ...rest], { onDiagnostic: callback.onDiagnostic })
    expect(textOfParts(out)).toBe(`Hi ${BAD} then and <｜DSML｜too`)
    expect(out.filter((p) => p.type === 'tool-call').map((p) => p.toolName)).toEqual(['read_file'])
    expect(error).toBe(callback.thrown[0])
  })

  it('should support the same answer as an upstream break right after that part', async () => {
    const { out } = await middlewareParts([...head, ...rest], { onDiagnostic: throwing().onDiagnostic })
    const cut = await middlewareParts(head, quiet, broken)
    expect(out).toEqual(cut.out)
  })
})

describe('sieveFetch: an onDiagnostic that throws', () => {
  it('should support the rest of the push after its diagnostic: its text and its call reach the client before the body fails with the callback\'s error', async () => {
    const callback = throwing()
    const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
    const stub = stubFetch(() => new Response(bodyOf([frame(chatChunk({ content: PUSH })), frame(chatChunk({ content: ' later' })), 'data: [DONE]\n\n']), { headers: sseHeaders }))
    const init = { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true }) }
    const answer = await sieveFetch({ generateId: counter(), onDiagnostic: callback.onDiagnostic }, stub.fetch)('http://upstream.test/v1/chat/completions', init)
    const decoder = new TextDecoder()
    const { out, error } = await until(answer.body as unknown as AsyncIterable<Uint8Array>)
    const text = out.map((bytes) => decoder.decode(bytes, { stream: true })).join('')
    const chunks = dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]
    const got = accumulate(chunks)
    expect(got.content).toBe(`Hi ${BAD} then  and <｜DSML｜too`)
    expect(got.calls.map((c) => c.name)).toEqual(['read_file'])
    expect(error).toBe(callback.thrown[0])
  })
})
