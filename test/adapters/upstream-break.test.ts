/**
 * The upstream breaks off mid-answer (a chunk, event or part of the wrong
 * shape; a source that throws; an error event or part; a failed response):
 * every adapter sends what its sieve held, as text, in order, before the
 * error, and never makes a call of it (no lenient end at an error).
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { block, chunk, counter, invoke, param } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'
import { upstream } from './anthropic-helpers.js'
import { deltaText as textOfParts, middlewareParts } from './ai-sdk-helpers.js'
import { source, until } from './stream-helpers.js'

const HELD = 'hello <｜DSML｜too'
const CALL = block(invoke('read_file', param('path', 'a.ts')))
/** A block the break cuts after its complete invoke: the stream's end would make it a call (unclosed-wrapper). */
const CUT = CALL.slice(0, CALL.lastIndexOf('</｜DSML｜tool_calls>'))
const broken = new Error('socket hang up')

const invalidChunk = expect.objectContaining({ name: 'ToolsieveError', code: 'invalid-chunk' })

describe('chat stream: the upstream breaks off', () => {
  const content = (out: ChatCompletionChunk[], index = 0) => out.flatMap((c) => c.choices.filter((ch) => ch.index === index).map((ch) => ch.delta.content ?? '')).join('')
  const calls = (out: ChatCompletionChunk[]) => out.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))

  it('should support a malformed chunk after held text: the held text, then invalid-chunk', async () => {
    const { out, error } = await until(sieveChatStream(source<unknown>([chunk({ role: 'assistant', content: '' }), chunk({ content: HELD }), chunk({ content: 42 } as never)]) as never))
    expect(content(out as ChatCompletionChunk[])).toBe(HELD)
    expect(error).toEqual(invalidChunk)
  })

  it('should support a source that throws after held text: the held text, then its error', async () => {
    const { out, error } = await until(sieveChatStream(source([chunk({ content: HELD })], broken)))
    expect(content(out)).toBe(HELD)
    expect(error).toBe(broken)
  })

  it('should not support a call from a block the break cut, though its invoke is complete', async () => {
    const { out, error } = await until(sieveChatStream(source([chunk({ content: `Reading. ${CUT}` })], broken), { generateId: counter() }))
    expect(calls(out)).toEqual([])
    expect(content(out)).toBe(`Reading. ${CUT}`)
    expect(error).toBe(broken)
  })

  it('should support a chunk whose second choice is malformed: the first choice\'s text of it still goes out', async () => {
    const bad = { ...chunk({ content: 'and <｜DSML｜x' }), choices: [{ index: 0, delta: { content: 'and <｜DSML｜x' }, finish_reason: null }, { index: 1, delta: { content: 7 }, finish_reason: null }] }
    const { out, error } = await until(sieveChatStream(source<unknown>([chunk({ content: 'one ' }), bad]) as never))
    expect(content(out as ChatCompletionChunk[])).toBe('one and <｜DSML｜x')
    expect(error).toEqual(invalidChunk)
  })

  it('should support streamArguments with a call started when the break comes: the error is the upstream\'s, its markup text', async () => {
    const started = `${CALL.slice(0, CALL.indexOf('a.ts'))}a.`
    const { out, error } = await until(sieveChatStream(source([chunk({ content: started })], broken), { streamArguments: true, generateId: counter() }))
    expect(calls(out)).toMatchObject([{ index: 0, id: expect.stringMatching(/^call_/), function: { name: 'read_file' } }, { index: 0, function: { arguments: '{"path":"a.' } }])
    expect(content(out)).toBe(started)
    expect(error).toBe(broken)
  })
})

describe('Responses stream: the upstream breaks off', () => {
  const textOf = (out: ResponseStreamEvent[], type = 'response.output_text.delta') => out.map((e) => (e.type === type ? (e as { delta: string }).delta : '')).join('')
  const head = (text: string) => responseEvents([text], { completed: false }).filter((e) => e.type !== 'response.output_text.done' && e.type !== 'response.content_part.done' && e.type !== 'response.output_item.done')

  it('should support an event of the wrong shape after held text: the held text, then invalid-chunk', async () => {
    const events = [...head(HELD), { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 7 }]
    const { out, error } = await until(sieveResponsesStream(source(events as ResponseStreamEvent[])))
    expect(textOf(out)).toBe(HELD)
    expect(error).toEqual(invalidChunk)
  })

  it('should support a source that throws inside the reasoning: the held reasoning, then its error', async () => {
    const { out, error } = await until(sieveResponsesStream(source(head('<think>plan </thi'), broken)))
    expect(textOf(out, 'response.reasoning_text.delta')).toBe('plan </thi')
    expect(error).toBe(broken)
  })

  it('should not support a call from a block a failed response cut: its markup is text, listed in the output', async () => {
    const failed = { type: 'response.failed', sequence_number: 99, response: { id: 'resp_1', status: 'failed', output: [] } }
    const { out, error } = await until(sieveResponsesStream(source([...head(`Reading. ${CUT}`), failed] as ResponseStreamEvent[]), { generateId: counter() }))
    expect(error).toBeUndefined()
    expect(out.some((e) => e.type === 'response.output_item.added' && (e.item as { type: string }).type === 'function_call')).toBe(false)
    expect(textOf(out)).toBe(`Reading. ${CUT}`)
    const last = out.at(-1) as { type: string; response: { output: Array<{ type: string; content: Array<{ text: string }> }> } }
    expect(last.type).toBe('response.failed')
    expect(last.response.output).toMatchObject([{ type: 'message', content: [{ text: `Reading. ${CUT}` }] }])
  })

  it('should support an error event after held text: the held text goes before it, and no call', async () => {
    const error = { type: 'error', sequence_number: 99, code: 'server_error', message: 'boom', param: null }
    const { out } = await until(sieveResponsesStream(source([...head(`Hi ${CUT}`), error] as ResponseStreamEvent[])))
    expect(textOf(out)).toBe(`Hi ${CUT}`)
    expect(out.at(-1)).toMatchObject({ type: 'error', code: 'server_error' })
    expect(out.some((e) => e.type === 'response.output_item.added' && (e.item as { type: string }).type === 'function_call')).toBe(false)
  })

  it('should not support a call prefer-native held when the response fails or errors: nothing follows the end', async () => {
    const failed = { type: 'response.failed', sequence_number: 99, response: { id: 'resp_1', status: 'failed', output: [] } }
    const error = { type: 'error', sequence_number: 99, code: 'server_error', message: 'boom', param: null }
    for (const end of [failed, error]) {
      const { out } = await until(sieveResponsesStream(source([...head(`Reading. ${CALL} more`), end] as ResponseStreamEvent[]), { onConflict: 'prefer-native', generateId: counter() }))
      expect(out.some((e) => e.type === 'response.output_item.added' && (e.item as { type: string }).type === 'function_call')).toBe(false)
      expect(out.at(-1)).toMatchObject({ type: end.type })
    }
  })
})

describe('Messages stream: the upstream breaks off', () => {
  const head = (text: string) => upstream([[text]]).slice(0, 4)
  const textOf = (out: MessagesStreamEvent[]) => out.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')
  const toolUse = (out: MessagesStreamEvent[]) => out.some((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')

  it('should support an event of the wrong shape after held text: the held text, then invalid-chunk', async () => {
    const { out, error } = await until(sieveMessagesStream(source<MessagesStreamEvent>([...head(HELD), { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } } as never])))
    expect(textOf(out)).toBe(HELD)
    expect(error).toEqual(invalidChunk)
  })

  it('should support a source that throws after a cut block: its markup as text, no tool_use, then the error', async () => {
    const { out, error } = await until(sieveMessagesStream(source(head(`Reading. ${CUT}`), broken)))
    expect(textOf(out)).toBe(`Reading. ${CUT}`)
    expect(toolUse(out)).toBe(false)
    expect(error).toBe(broken)
  })

  it('should support an error event after held text: the held text goes before it', async () => {
    const failure: MessagesStreamEvent = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
    const { out } = await until(sieveMessagesStream(source([...head(HELD), failure])))
    expect(textOf(out)).toBe(HELD)
    expect(out.at(-1)).toEqual(failure)
  })

  it('should support prefer-native holding text after a rescued call when an error event comes: the text goes out, the call as its markup, no tool_use', async () => {
    const failure: MessagesStreamEvent = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
    const { out } = await until(sieveMessagesStream(source([...head(`Reading. ${CALL}\n\nDone, and <｜DSML｜x`), failure]), { onConflict: 'prefer-native' }))
    // the blank space around the block was trimmed when it was a call
    expect(textOf(out)).toBe(`Reading.${CALL}Done, and <｜DSML｜x`)
    expect(toolUse(out)).toBe(false)
    expect(out.at(-1)).toEqual(failure)
  })
})

describe('AI SDK stream: the upstream breaks off', () => {
  const start = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }]

  it('should support a part of the wrong shape after held text: the held text, then invalid-chunk', async () => {
    const { out, error } = await middlewareParts([...start, { type: 'text-delta', id: 't', delta: HELD }, { type: 'text-delta', id: 't', delta: 7 }], {})
    expect(textOfParts(out)).toBe(HELD)
    expect(error).toEqual(invalidChunk)
  })

  it('should support a source that fails after a cut block: its markup as text, no tool call, then the error', async () => {
    const { out, error } = await middlewareParts([...start, { type: 'text-delta', id: 't', delta: `Reading. ${CUT}` }], {}, broken)
    expect(textOfParts(out)).toBe(`Reading. ${CUT}`)
    expect(out.some((p) => p.type === 'tool-call')).toBe(false)
    expect(error).toBe(broken)
  })

  it('should support an error part after a cut block: its markup as text before it, no tool call', async () => {
    const failure = { type: 'error', error: 'overloaded' }
    const finish = { type: 'finish', finishReason: 'error', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }
    const { out, error } = await middlewareParts([...start, { type: 'text-delta', id: 't', delta: `Reading. ${CUT}` }, failure, finish], {})
    expect(error).toBeUndefined()
    expect(textOfParts(out)).toBe(`Reading. ${CUT}`)
    expect(out.some((p) => p.type === 'tool-call')).toBe(false)
    const lastText = out.map((p) => p.type).lastIndexOf('text-delta')
    expect(out.findIndex((p) => p.type === 'error')).toBeGreaterThan(lastText)
  })
})
