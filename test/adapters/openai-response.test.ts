/**
 * `sieveResponse`: a whole Responses API object. Its message items become
 * the items the streamed path makes for the same text (the same shapes, in
 * the same order), where the message stood; what needs no repair is left
 * exactly as it came.
 */
import { describe, expect, it } from 'vitest'
import type { Response } from 'openai/resources/responses/responses'
import { sieveResponse, sieveResponsesStream } from '../../src/openai/index.js'
import { block, collect, counter, invoke, iterate, param } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'

const calls = block(invoke('read_file', param('path', 'a.ts')), invoke('read_file', param('path', 'b.ts')))
const message = (text: string, extra: Record<string, unknown> = {}) => ({ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }], ...extra })
const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'resp_1', object: 'response', created_at: 1, model: 'deepseek', status: 'completed', tools: [], parallel_tool_calls: true, tool_choice: 'auto', output, ...extra }) as unknown as Response

describe('sieveResponse', () => {
  it('should support calls in a message: reasoning, the clean message and function_call items where the message stood', () => {
    const search = { id: 'ws_1', type: 'web_search_call', status: 'completed' }
    const input = response([search, message(`<think>plan</think>Reading both.\n\n${calls}`)], { output_text: 'raw' })
    const copy = structuredClone(input)
    const out = sieveResponse(input, { generateId: counter() })
    expect(out.output).toEqual([
      search,
      { type: 'reasoning', id: 'rs_msg_1', summary: [], content: [{ type: 'reasoning_text', text: 'plan' }], status: 'completed' },
      { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Reading both.', annotations: [] }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}', status: 'completed' },
      { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'read_file', arguments: '{"path":"b.ts"}', status: 'completed' },
    ])
    expect(out.output_text).toBe('Reading both.')
    expect(input).toEqual(copy)
  })

  it('should support the same items as the streamed path for the same text', async () => {
    for (const text of [`Before.\n\n${calls}\n\nAfter.`, calls, '<think>a</think>b', `Text with \`${calls}\` in code.`]) {
      const events = await collect(sieveResponsesStream(iterate(responseEvents([text])), { generateId: counter() }))
      const completed = events.find((e) => e.type === 'response.completed') as { response: { output: unknown[] } }
      expect(sieveResponse(response([message(text)]), { generateId: counter() }).output, text).toEqual(
        // a message the stream rebuilt carries no logprobs; an untouched one is upstream's
        completed.response.output.map((item) => ((item as { type: string }).type === 'message' && text.includes('in code') ? message(text) : item)),
      )
    }
  })

  it('should support a message with nothing to rescue: the same object back', () => {
    const input = response([message('Just text, with `<｜DSML｜tool_calls>` in code.', { content: [{ type: 'output_text', text: 'Just text.', annotations: [{ type: 'url_citation', url: 'u' }], logprobs: [] }] })])
    expect(sieveResponse(input)).toBe(input)
  })

  it('should support a message that held only calls: no empty message is left', () => {
    const out = sieveResponse(response([message(calls)]), { generateId: counter() })
    expect(out.output.map((i) => i.type)).toEqual(['function_call', 'function_call'])
  })

  it('should not support a message with a refusal part: left as it came', () => {
    const refused = { ...message(calls), content: [{ type: 'output_text', text: calls, annotations: [] }, { type: 'refusal', refusal: 'no' }] }
    const input = response([refused])
    expect(sieveResponse(input)).toBe(input)
  })

  it('should not support native and rescued calls in one response: native-conflict, or with prefer-native the native ones only', () => {
    const native = { type: 'function_call', id: 'fc_n', call_id: 'call_n', name: 'read_file', arguments: '{}', status: 'completed' }
    expect(() => sieveResponse(response([message(calls), native]))).toThrow(expect.objectContaining({ code: 'native-conflict' }))
    const out = sieveResponse(response([message(`Ok.\n\n${calls}`), native]), { onConflict: 'prefer-native' })
    expect(out.output.filter((i) => i.type === 'function_call')).toEqual([native])
  })

  it('should support streamArguments given by the caller: a broken block is text, nothing throws', () => {
    const broken = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts'
    const input = response([message(broken)])
    expect(sieveResponse(input, { streamArguments: true })).toBe(input)
  })

  it('should support a response without an output list: as it came', () => {
    const odd = { id: 'x' } as unknown as Response
    expect(sieveResponse(odd)).toBe(odd)
  })
})
