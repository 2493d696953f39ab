/**
 * Ids in one response, beside what upstream sent. A Responses function_call
 * item's id is `fc_` and its call id without `call_`, so the calls `call_abc`
 * and `abc` (Mistral writes its ids as it likes) would share `fc_abc`: an
 * item id the answer has already goes to the later item with a suffix
 * (`fc_abc_1`), and every other item id stays as it was. Upstream's own
 * calls that pass beside the rescued ones and are no conflict (a Responses
 * `custom_tool_call` or `computer_call`, any item with a `call_id`; an AI
 * SDK provider-executed tool call and its result) hold their ids too: a
 * rescued call the model gave one of them goes out with a made id and an
 * `invalid-call-id` diagnostic, as a repeat of an earlier rescued call does.
 * A whole answer knows all of them before it is read; a stream, those that
 * came before the call started.
 */
import { describe, expect, it } from 'vitest'
import type { Response as ResponsesObject, ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveResponse, sieveResponsesStream } from '../../src/openai/index.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import type { DiagnosticEvent, ErrorEvent } from '../../src/types.js'
import { ID_PATTERN } from '../helpers/chunking.js'
import { collect, iterate } from './openai-helpers.js'
import { readItems, responseEvents } from './openai-responses-helpers.js'
import { generated, middlewareParts, textStream, type Part } from './ai-sdk-helpers.js'

/** A Mistral array of calls to `get_weather`, each `[id, city]`. */
const mistral = (...calls: Array<[string, string]>) => `[TOOL_CALLS] [${calls.map(([id, city]) => `{"name": "get_weather", "arguments": {"city": "${city}"}, "id": "${id}"}`).join(', ')}]`
const made = expect.stringMatching(ID_PATTERN)

function reported(): { codes: string[]; messages: string[]; onDiagnostic: (e: DiagnosticEvent | ErrorEvent) => void } {
  const codes: string[] = []
  const messages: string[] = []
  return { codes, messages, onDiagnostic: (e) => void (codes.push(e.code), messages.push(e.message)) }
}

// ---- Responses ------------------------------------------------------------------

type Item = Record<string, unknown> & { type: string; id: string }
const message = (text: string, id = 'msg_1'): Item => ({ id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] })
const whole = (output: Item[]) => ({ id: 'resp_1', object: 'response', created_at: 1, model: 'mistral', status: 'completed', output, tools: [], parallel_tool_calls: true, tool_choice: 'auto' }) as unknown as ResponsesObject
const customCall = (callId: string, id = 'ctc_1'): Item => ({ type: 'custom_tool_call', id, call_id: callId, name: 'grammar_tool', input: 'x', status: 'completed' })
const computerCall = (callId: string): Item => ({ type: 'computer_call', id: 'cu_1', call_id: callId, action: { type: 'screenshot' }, pending_safety_checks: [], status: 'completed' })
const functionCalls = (output: ReadonlyArray<{ type: string }>) => output.filter((i): i is Item & { call_id: string } => i.type === 'function_call')

async function streamed(text: string, before: Item[] = [], options: object = {}) {
  const events = (await collect(sieveResponsesStream(iterate(responseEvents([text], { before })), { dialect: 'mistral', ...options }))) as ResponseStreamEvent[]
  return readItems(events)
}

describe('Responses: function_call item ids unique in the response', () => {
  const text = mistral(['call_abc', 'Paris'], ['abc', 'Rome'])

  it('should support calls `call_abc` and `abc` in one response (whole): each keeps its call id, the later item gets `fc_abc_1`', () => {
    const calls = functionCalls(sieveResponse(whole([message(text)]), { dialect: 'mistral' }).output)
    expect(calls.map((c) => [c.id, c.call_id])).toEqual([
      ['fc_abc', 'call_abc'],
      ['fc_abc_1', 'abc'],
    ])
  })

  it('should support calls `call_abc` and `abc` in one response (stream), on every event of the items', async () => {
    for (const streamArguments of [false, true]) {
      const calls = (await streamed(text, [], { streamArguments })).filter((i) => i.type === 'function_call')
      expect(calls.map((c) => [c.id, c.call_id]), `streamArguments: ${streamArguments}`).toEqual([
        ['fc_abc', 'call_abc'],
        ['fc_abc_1', 'abc'],
      ])
    }
  })

  it('should support the calls in two message items (whole): the item id is unique across them', () => {
    const calls = functionCalls(sieveResponse(whole([message(mistral(['abc', 'Rome']), 'msg_1'), message(mistral(['call_abc', 'Paris']), 'msg_2')]), { dialect: 'mistral' }).output)
    expect(calls.map((c) => [c.id, c.call_id])).toEqual([
      ['fc_abc', 'abc'],
      ['fc_abc_1', 'call_abc'],
    ])
  })

  it('should support an item id upstream gave another item: the rescued call does not take it', () => {
    const calls = functionCalls(sieveResponse(whole([customCall('call_other', 'fc_abc'), message(mistral(['call_abc', 'Paris']))]), { dialect: 'mistral' }).output)
    expect(calls.map((c) => [c.id, c.call_id])).toEqual([['fc_abc_1', 'call_abc']])
  })

  it('should not support a suffix for ids that do not meet: `call_a` and `call_b` keep `fc_a` and `fc_b`', () => {
    const calls = functionCalls(sieveResponse(whole([message(mistral(['call_a', 'Paris'], ['call_b', 'Rome']))]), { dialect: 'mistral' }).output)
    expect(calls.map((c) => c.id)).toEqual(['fc_a', 'fc_b'])
  })
})

describe("Responses: upstream's call_ids beside rescued calls", () => {
  it('should support a custom_tool_call before the message (whole): a rescued call of its call_id gets a made id', () => {
    const seen = reported()
    const out = sieveResponse(whole([customCall('call_abc'), message(mistral(['call_abc', 'Paris']))]), { dialect: 'mistral', onDiagnostic: seen.onDiagnostic })
    expect(out.output.map((i) => i.type)).toEqual(['custom_tool_call', 'function_call'])
    expect(functionCalls(out.output).map((c) => c.call_id)).toEqual([made])
    expect(seen.codes).toEqual(['invalid-call-id'])
    expect(seen.messages[0]).toContain('call_abc')
  })

  it('should support a computer_call after the message (whole): the response is read knowing it', () => {
    const seen = reported()
    const out = sieveResponse(whole([message(mistral(['call_abc', 'Paris'])), computerCall('call_abc')]), { dialect: 'mistral', onDiagnostic: seen.onDiagnostic })
    expect(functionCalls(out.output).map((c) => c.call_id)).toEqual([made])
    expect(seen.codes).toEqual(['invalid-call-id'])
  })

  it('should support a custom_tool_call before the message (stream): a rescued call of its call_id gets a made id, in its item id too', async () => {
    for (const streamArguments of [false, true]) {
      const seen = reported()
      const items = await streamed(mistral(['call_abc', 'Paris']), [customCall('call_abc')], { streamArguments, onDiagnostic: seen.onDiagnostic })
      expect(items.map((i) => i.type)).toEqual(['custom_tool_call', 'function_call'])
      const call = items[1]!
      expect(call.call_id).toEqual(made)
      expect(call.id).toBe(`fc_${call.call_id!.slice(5)}`)
      expect(seen.codes).toEqual(['invalid-call-id'])
    }
  })

  it("should not support a rescued call's id changing for an upstream call of another id", () => {
    const seen = reported()
    const out = sieveResponse(whole([customCall('call_xyz'), message(mistral(['call_abc', 'Paris']))]), { dialect: 'mistral', onDiagnostic: seen.onDiagnostic })
    expect(functionCalls(out.output).map((c) => [c.id, c.call_id])).toEqual([['fc_abc', 'call_abc']])
    expect(seen.codes).toEqual([])
  })
})

// ---- AI SDK ---------------------------------------------------------------------

/** A web search the provider ran: its call and its result, both `providerExecuted`. */
const providerSearch = (id: string) => [
  { type: 'tool-call', toolCallId: id, toolName: 'web_search', input: '{"query":"weather"}', providerExecuted: true },
  { type: 'tool-result', toolCallId: id, toolName: 'web_search', result: { results: [] }, providerExecuted: true },
]

describe("AI SDK: provider-executed calls' ids beside rescued calls", () => {
  it('should support a provider-executed call before the text (stream): a rescued call of its id gets a made id on every part', async () => {
    const seen = reported()
    const { out, error } = await middlewareParts(textStream([mistral(['srvtoolu_1', 'Paris'])], { before: providerSearch('srvtoolu_1') }), { dialect: 'mistral', generateId: null, onDiagnostic: seen.onDiagnostic })
    expect(error).toBeUndefined()
    const rescued = out.filter((p: Part) => p.type === 'tool-call' && p.providerExecuted !== true)
    expect(rescued.map((p) => p.toolCallId)).toEqual([made])
    const id = rescued[0]!.toolCallId
    expect(out.filter((p) => p.type.startsWith('tool-input-')).map((p) => p.id)).toEqual(out.filter((p) => p.type.startsWith('tool-input-')).map(() => id))
    expect(seen.codes).toEqual(['invalid-call-id'])
  })

  it('should support a provider-executed call after the text (generate): the content is read knowing it', async () => {
    const seen = reported()
    const middleware = toolsieveMiddleware({ dialect: 'mistral', onDiagnostic: seen.onDiagnostic })
    const result = (await middleware.wrapGenerate({ doGenerate: async () => generated([{ type: 'text', text: mistral(['srvtoolu_1', 'Paris']) }, ...providerSearch('srvtoolu_1')]) as never, params: { prompt: [] } as never })) as unknown as { content: Part[] }
    const rescued = result.content.filter((p) => p.type === 'tool-call' && p.providerExecuted !== true)
    expect(rescued.map((p) => p.toolCallId)).toEqual([made])
    expect(seen.codes).toEqual(['invalid-call-id'])
  })

  it("should not support a rescued call's id changing for a provider-executed call of another id", async () => {
    const seen = reported()
    const { out } = await middlewareParts(textStream([mistral(['call_abc', 'Paris'])], { before: providerSearch('srvtoolu_1') }), { dialect: 'mistral', generateId: null, onDiagnostic: seen.onDiagnostic })
    expect(out.filter((p) => p.type === 'tool-call' && p.providerExecuted !== true).map((p) => p.toolCallId)).toEqual(['call_abc'])
    expect(seen.codes).toEqual([])
  })
})
