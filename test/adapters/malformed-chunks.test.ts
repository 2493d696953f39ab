/**
 * Upstream data of the wrong shape: every adapter answers a chunk, event,
 * part or response it cannot read with a ToolsieveError `invalid-chunk`
 * naming the field, never a TypeError from inside; fields it does not act
 * on pass through.
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sieveMessage, sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveChatCompletion, sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { generated, textStream, usage } from './ai-sdk-helpers.js'
import { messageShell, upstream } from './anthropic-helpers.js'
import { answer, chunk, collect, iterate } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'
import { drain, readableOf } from './stream-helpers.js'

/** The error an async run fails with, or `undefined` when it does not. */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
    return undefined
  } catch (e) {
    return e
  }
}

const invalidChunk = (field: string) => expect.objectContaining({ name: 'ToolsieveError', code: 'invalid-chunk', field })

const chat = (chunks: unknown[]) => failure(() => collect(sieveChatStream(iterate(chunks) as never)))
const completion = (choices: unknown) => ({ id: 'c1', object: 'chat.completion', created: 1, model: 'deepseek', choices }) as never
const responses = (events: unknown[]) => failure(() => collect(sieveResponsesStream(iterate(events) as never)))
const messages = (events: unknown[]) => failure(() => collect(sieveMessagesStream(events as MessagesStreamEvent[])))
const aiStream = (parts: unknown[]) =>
  failure(async () => {
    const { stream } = await toolsieveMiddleware().wrapStream({ doStream: async () => ({ stream: readableOf(parts) }), params: { prompt: [] } })
    return drain(stream)
  })
const aiGenerate = (result: unknown) => failure(() => toolsieveMiddleware().wrapGenerate({ doGenerate: async () => result as never, params: { prompt: [] } }))

const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="ls">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'

describe('malformed chat completion chunks', () => {
  it('should not support a choice that is not an object', async () => {
    expect(await chat([{ ...chunk({ content: 'a' }), choices: [null] }])).toEqual(invalidChunk('choices[0]'))
    expect(await chat([{ ...chunk({ content: 'a' }), choices: 'x' }])).toEqual(invalidChunk('choices'))
    expect(await chat([null])).toEqual(invalidChunk('chunk'))
  })

  it('should not support tool_calls that are not a list of indexed objects', async () => {
    expect(await chat([chunk({ tool_calls: [null] } as never)])).toEqual(invalidChunk('choices[0].delta.tool_calls[0]'))
    expect(await chat([chunk({ tool_calls: 'x' } as never)])).toEqual(invalidChunk('choices[0].delta.tool_calls'))
    expect(await chat([chunk({ tool_calls: { index: 0 } } as never)])).toEqual(invalidChunk('choices[0].delta.tool_calls'))
    expect(await chat([chunk({ tool_calls: [{ function: { name: 'ls' } }] } as never)])).toEqual(invalidChunk('choices[0].delta.tool_calls[0].index'))
  })

  it('should not support a delta, content, function_call or finish reason of the wrong type', async () => {
    expect(await chat([chunk('x' as never)])).toEqual(invalidChunk('choices[0].delta'))
    expect(await chat([chunk({ content: 42 } as never)])).toEqual(invalidChunk('choices[0].delta.content'))
    expect(await chat([chunk({ function_call: [] } as never)])).toEqual(invalidChunk('choices[0].delta.function_call'))
    expect(await chat([chunk({ function_call: { name: 1 } } as never)])).toEqual(invalidChunk('choices[0].delta.function_call.name'))
    expect(await chat([chunk({ content: 'a' }, 7 as never)])).toEqual(invalidChunk('choices[0].finish_reason'))
    expect(await chat([{ ...chunk({ content: 'a' }), choices: [{ index: -1, delta: {} }] }])).toEqual(invalidChunk('choices[0].index'))
  })

  it('should support chunks whose fields are absent or not read: usage chunks, a null delta, a missing index', async () => {
    const out = (await collect(sieveChatStream(iterate<unknown>([{ ...chunk({}), choices: [{ delta: null, finish_reason: null }] }, { id: 'u', usage: { total_tokens: 1 } }, ...answer(['Hi'])]) as never))) as unknown[]
    expect(out.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }] })
    expect(out).toContainEqual({ id: 'u', usage: { total_tokens: 1 } })
  })
})

describe('malformed chat completions', () => {
  it('should not support a choice, message, content or tool_calls of the wrong shape', () => {
    expect(() => sieveChatCompletion(completion([null]))).toThrow(invalidChunk('choices[0]'))
    expect(() => sieveChatCompletion(completion('x'))).toThrow(invalidChunk('choices'))
    expect(() => sieveChatCompletion(completion([{ index: 0, message: 'x' }]))).toThrow(invalidChunk('choices[0].message'))
    expect(() => sieveChatCompletion(completion([{ index: 0, message: { content: ['x'] } }]))).toThrow(invalidChunk('choices[0].message.content'))
    expect(() => sieveChatCompletion(completion([{ index: 0, message: { content: 'x', tool_calls: 'x' } }]))).toThrow(invalidChunk('choices[0].message.tool_calls'))
    expect(() => sieveChatCompletion(completion([{ index: 0, message: { content: 'x', function_call: 1 } }]))).toThrow(invalidChunk('choices[0].message.function_call'))
  })

  it('should not support a completion that is not an object (the argument: invalid-option)', () => {
    expect(() => sieveChatCompletion(null as never)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'completion' }))
  })

  it('should support a completion without choices, and a choice without a message, as they came', () => {
    expect(sieveChatCompletion({ id: 'c1' } as never)).toEqual({ id: 'c1' })
    expect(sieveChatCompletion(completion([{ index: 0, finish_reason: 'stop' }])).choices).toEqual([{ index: 0, finish_reason: 'stop' }])
  })
})

describe('malformed Responses events', () => {
  const events = responseEvents(['Hi ', 'there']) as unknown as Array<Record<string, unknown>>
  const at = (type: string) => events.findIndex((e) => e.type === type)
  const replace = (i: number, e: unknown) => events.map((x, j) => (j === i ? e : x))

  it('should not support an event that is not an object', async () => {
    expect(await responses([null])).toEqual(invalidChunk('event'))
    expect(await responses(replace(at('response.output_text.delta'), 'x'))).toEqual(invalidChunk('event'))
  })

  it('should not support a text delta that is not a string, or a final response of the wrong shape', async () => {
    const delta = at('response.output_text.delta')
    expect(await responses(replace(delta, { ...events[delta], delta: 5 }))).toEqual(invalidChunk('delta'))
    const done = at('response.completed')
    expect(await responses(replace(done, { ...events[done], response: 'x' }))).toEqual(invalidChunk('response'))
    expect(await responses(replace(done, { ...events[done], response: { output: 'x' } }))).toEqual(invalidChunk('response.output'))
  })

  it('should support events of unknown types and items it does not read, passed through', async () => {
    const out = await collect(sieveResponsesStream(iterate<unknown>([{ type: 'x.custom', data: null }, { type: 'response.output_item.added', output_index: 0, item: null }, ...events]) as never))
    expect(out.slice(0, 2)).toMatchObject([{ type: 'x.custom', data: null }, { type: 'response.output_item.added', item: null }])
  })
})

describe('malformed Anthropic events', () => {
  const events = upstream([['Hi ', 'there']]) as unknown as Array<Record<string, unknown>>
  const at = (type: string) => events.findIndex((e) => e.type === type)
  const replace = (i: number, e: unknown) => events.map((x, j) => (j === i ? e : x))

  it('should not support a content_block_delta whose delta is not an object, or text that is not a string', async () => {
    const delta = at('content_block_delta')
    expect(await messages(replace(delta, { ...events[delta], delta: null }))).toEqual(invalidChunk('delta'))
    expect(await messages(replace(delta, { ...events[delta], delta: { type: 'text_delta', text: 1 } }))).toEqual(invalidChunk('delta.text'))
  })

  it('should not support an event that is not an object, a block event without an index, a content_block that is not an object', async () => {
    expect(await messages([null])).toEqual(invalidChunk('event'))
    const start = at('content_block_start')
    expect(await messages(replace(start, { ...events[start], content_block: null }))).toEqual(invalidChunk('content_block'))
    expect(await messages(replace(start, { ...events[start], index: '0' }))).toEqual(invalidChunk('index'))
    expect(await messages(replace(start, { ...events[start], content_block: { type: 'text', text: [] } }))).toEqual(invalidChunk('content_block.text'))
  })

  it('should not support a message_delta without a delta object once calls were rescued (its stop reason is rewritten)', async () => {
    const withCall = upstream([[call]]) as unknown as Array<Record<string, unknown>>
    const i = withCall.findIndex((e) => e.type === 'message_delta')
    expect(await messages(withCall.map((e, j) => (j === i ? { ...e, delta: null } : e)))).toEqual(invalidChunk('delta'))
  })

  it('should not support a message whose content blocks are not objects, or whose text is not a string', () => {
    const message = (content: unknown[]) => ({ ...messageShell(), content }) as never
    expect(() => sieveMessage(message([null]))).toThrow(invalidChunk('content[0]'))
    expect(() => sieveMessage(message([{ type: 'text', text: 'a', citations: null }, { type: 'text', text: null }]))).toThrow(invalidChunk('content[1].text'))
    expect(() => sieveMessage(message([{ type: 'text', text: 'a', citations: 3 }]))).toThrow(invalidChunk('content[0].citations'))
  })
})

describe('malformed AI SDK parts and results', () => {
  it('should not support a stream part that is not an object, or a text delta that is not a string', async () => {
    expect(await aiStream([null])).toEqual(invalidChunk('part'))
    expect(await aiStream([{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 5 }])).toEqual(invalidChunk('delta'))
  })

  it('should not support a finish reason of the wrong shape when it is rewritten for rescued calls', async () => {
    const parts = textStream([call]) as Array<Record<string, unknown>>
    expect(await aiStream([...parts.slice(0, -1), { type: 'finish', usage, finishReason: 5 }])).toEqual(invalidChunk('finishReason'))
    expect(await aiStream([...parts.slice(0, -1), { type: 'finish', usage, finishReason: { raw: 'stop' } }])).toEqual(invalidChunk('finishReason.unified'))
  })

  it('should not support a generate result whose content or parts are of the wrong shape', async () => {
    expect(await aiGenerate(null)).toEqual(invalidChunk('result'))
    expect(await aiGenerate({ ...generated([]), content: 'x' })).toEqual(invalidChunk('content'))
    expect(await aiGenerate(generated([null as never]))).toEqual(invalidChunk('content[0]'))
    expect(await aiGenerate(generated([{ type: 'text', text: 3 }]))).toEqual(invalidChunk('content[0].text'))
  })
})
