/**
 * A call's id is unique in one response, across the sieves an adapter runs
 * in it. The sieve keeps the model's own ids (Kimi K2's
 * `functions.get_weather:0`) unique in its stream; an adapter reads each
 * Responses text part, each later AI SDK text run, each Messages text run
 * through a sieve of its own, so a model that writes the same id in two of
 * them would give two calls of the response one id, and a caller matching
 * tool results by id would match the wrong one. The later call gets a made
 * id instead, on every event of it (and on its `fc_` item id), with an
 * `invalid-call-id` diagnostic. The choices of a chat completion are
 * alternatives, each an answer of its own: each keeps the model's ids.
 * Through the real clients: `openai` (over `sieveFetch`), `ai`'s
 * `streamText` / `generateText`, `@anthropic-ai/sdk`'s `MessageStream`.
 */
import { describe, expect, it } from 'vitest'
import type { Response as ResponsesObject, ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveFetch } from '../../src/fetch/index.js'
import { sieveResponse, sieveResponsesStream } from '../../src/openai/index.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sieveMessagesStream } from '../../src/anthropic/index.js'
import type { DiagnosticEvent, ErrorEvent } from '../../src/types.js'
import { sdkLines } from '../helpers/sdk-lines.js'
import { ID_PATTERN } from '../helpers/chunking.js'
import { collect, iterate } from './openai-helpers.js'
import { messageOpened, readItems, textDelta } from './openai-responses-helpers.js'
import { generated, loadLines, usage, type LoadedLine } from './ai-sdk-helpers.js'
import { finalMessage, upstream } from './anthropic-helpers.js'
import { sseHeaders } from '../fetch/helpers.js'

/** kimi-k2.json `parallel_tool_calls`'s first call, its head and city given (as in test/dialects/call-ids.test.ts). */
const section = (head: string, city: string) => `<|tool_calls_section_begin|><|tool_call_begin|>${head} <|tool_call_argument_begin|>{"city": "${city}"}<|tool_call_end|><|tool_calls_section_end|>`
/** The id the model gives a call in each of two texts: it counts its calls per message, not per response. */
const REPEATED = 'functions.get_weather:0'
const first = `Beijing first.${section(REPEATED, 'Beijing')}`
const second = `Then Shanghai.${section(REPEATED, 'Shanghai')}`
const beijing = '{"city":"Beijing"}'
const shanghai = '{"city":"Shanghai"}'

/** Every diagnostic an adapter reports, and the options that report them. */
function reported(): { codes: string[]; messages: string[]; onDiagnostic: (e: DiagnosticEvent | ErrorEvent) => void } {
  const codes: string[] = []
  const messages: string[] = []
  return { codes, messages, onDiagnostic: (e) => void (codes.push(e.code), messages.push(e.message)) }
}

/** A made id: `call_` + hex digits, and not the model's. */
const made = expect.stringMatching(ID_PATTERN)

// ---- Responses -------------------------------------------------------------

type Message = { id: string; parts: string[] }
const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', created_at: 1, model: 'kimi-k2', status, output, tools: [], parallel_tool_calls: true, tool_choice: 'auto' })
const messageItem = (m: Message, status = 'completed') => ({ id: m.id, type: 'message', role: 'assistant', status, content: status === 'completed' ? m.parts.map((text) => ({ type: 'output_text', text, annotations: [] })) : [] })

/** A Responses event stream, as SSE, of these message items, each part's text in one delta. */
function responsesSse(messages: readonly Message[]): string {
  const events: Array<Record<string, unknown>> = [{ type: 'response.created', response: response('in_progress', []) }]
  messages.forEach((m, i) => {
    events.push({ type: 'response.output_item.added', output_index: i, item: messageItem(m, 'in_progress') })
    m.parts.forEach((text, k) => {
      const at = { item_id: m.id, output_index: i, content_index: k }
      events.push({ type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } })
      events.push({ type: 'response.output_text.delta', ...at, delta: text, logprobs: [] })
      events.push({ type: 'response.output_text.done', ...at, text, logprobs: [] })
      events.push({ type: 'response.content_part.done', ...at, part: { type: 'output_text', text, annotations: [] } })
    })
    events.push({ type: 'response.output_item.done', output_index: i, item: messageItem(m) })
  })
  events.push({ type: 'response.completed', response: response('completed', messages.map((m) => messageItem(m))) })
  return events.map((e, i) => `event: ${e.type as string}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('')
}

/** An `openai` client of the SDK line whose upstream answers with these message items (an event stream when the request streams), through `sieveFetch` reading Kimi K2. */
async function responsesClient(line: (typeof sdkLines)[number], messages: readonly Message[], options: Parameters<typeof sieveFetch>[0] = {}) {
  const { default: OpenAI } = (await import(line.openai)) as { default: new (options: Record<string, unknown>) => any }
  const upstreamFetch = async (_: unknown, init?: RequestInit) => {
    const streamed = (JSON.parse(String(init?.body)) as { stream?: boolean }).stream === true
    if (streamed) return new Response(responsesSse(messages), { headers: sseHeaders })
    return new Response(JSON.stringify(response('completed', messages.map((m) => messageItem(m)))), { headers: { 'content-type': 'application/json' } })
  }
  return new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch({ dialect: 'kimi-k2', ...options }, upstreamFetch as typeof fetch) })
}

type FunctionCall = { type: 'function_call'; id: string; call_id: string; name: string; arguments: string }
const functionCalls = (output: ReadonlyArray<{ type: string }>) => output.filter((i): i is FunctionCall => i.type === 'function_call')

/**
 * The function_call items of a Responses event stream, each checked to keep
 * one item id and one call id from its `output_item.added` to its
 * `output_item.done` and the completed response's output, its arguments'
 * events naming the same item.
 */
function streamedCalls(events: readonly ResponseStreamEvent[]): FunctionCall[] {
  const added = new Map<number, FunctionCall>()
  for (const raw of events) {
    const e = raw as unknown as { type: string; output_index: number; item_id?: string; item?: FunctionCall }
    if (e.type === 'response.output_item.added' && e.item?.type === 'function_call') added.set(e.output_index, e.item)
    const call = added.get(e.output_index)
    if (call === undefined) continue
    if (e.type === 'response.function_call_arguments.delta' || e.type === 'response.function_call_arguments.done') expect(e.item_id, e.type).toBe(call.id)
    if (e.type === 'response.output_item.done') expect({ id: e.item!.id, call_id: e.item!.call_id }, e.type).toEqual({ id: call.id, call_id: call.call_id })
  }
  const completed = events.find((e) => e.type === 'response.completed') as unknown as { response: { output: Array<{ type: string }> } }
  const done = functionCalls(completed.response.output)
  expect(done.map((c) => [c.id, c.call_id])).toEqual([...added.values()].map((c) => [c.id, c.call_id]))
  return done
}

/** The item id the adapter derives from a call id (`fc_` and the made id's digits). */
const itemIdOf = (callId: string) => `fc_${callId.startsWith('call_') ? callId.slice(5) : callId}`

for (const line of sdkLines) {
  describe(`Responses (openai ${line.major}, through sieveFetch): one sieve per text part, ids unique in the response`, () => {
    const two: Message[] = [
      { id: 'msg_1', parts: [first] },
      { id: 'msg_2', parts: [second] },
    ]

    it('should support a model id given again in a later message item (whole): the later call gets a made id and an invalid-call-id diagnostic', async () => {
      const seen = reported()
      const openai = await responsesClient(line, two, { onDiagnostic: seen.onDiagnostic })
      const calls = functionCalls((await openai.responses.create({ model: 'kimi-k2', input: 'Weather?' })).output)
      expect(calls.map((c) => [c.call_id, c.arguments])).toEqual([
        [REPEATED, beijing],
        [made, shanghai],
      ])
      expect(calls.map((c) => c.id)).toEqual([`fc_${REPEATED}`, itemIdOf(calls[1]!.call_id)])
      expect(seen.codes).toEqual(['invalid-call-id'])
      expect(seen.messages[0]).toContain(REPEATED)
    })

    it('should support a model id given again in a later message item (stream): the made id on every event of the call and its item', async () => {
      for (const streamArguments of [false, true]) {
        const seen = reported()
        const openai = await responsesClient(line, two, { onDiagnostic: seen.onDiagnostic, streamArguments })
        const events = (await collect(await openai.responses.create({ model: 'kimi-k2', input: 'Weather?', stream: true }))) as ResponseStreamEvent[]
        expect(readItems(events).map((i) => i.type)).toEqual(['message', 'function_call', 'message', 'function_call'])
        const calls = streamedCalls(events)
        expect(calls.map((c) => [c.call_id, c.arguments]), `streamArguments: ${streamArguments}`).toEqual([
          [REPEATED, beijing],
          [made, shanghai],
        ])
        expect(calls.map((c) => c.id)).toEqual([`fc_${REPEATED}`, itemIdOf(calls[1]!.call_id)])
        expect(seen.codes).toEqual(['invalid-call-id'])
      }
    })

    it('should support a model id given again in the second output_text part of one message', async () => {
      const openai = await responsesClient(line, [{ id: 'msg_1', parts: [first, second] }])
      const whole = functionCalls((await openai.responses.create({ model: 'kimi-k2', input: 'Weather?' })).output)
      const streamed = streamedCalls((await collect(await openai.responses.create({ model: 'kimi-k2', input: 'Weather?', stream: true }))) as ResponseStreamEvent[])
      for (const calls of [whole, streamed]) {
        expect(calls.map((c) => c.call_id)).toEqual([REPEATED, made])
        expect(new Set(calls.map((c) => c.id)).size).toBe(2)
      }
    })

    it('should support responses.stream(…).finalResponse() reading two calls of two ids', async () => {
      const openai = await responsesClient(line, two)
      const final = await openai.responses.stream({ model: 'kimi-k2', input: 'Weather?' }).finalResponse()
      const calls = functionCalls(final.output)
      expect(calls.map((c) => c.call_id)).toEqual([REPEATED, made])
      expect(calls[1]!.id).toBe(itemIdOf(calls[1]!.call_id))
    })

    it('should support distinct model ids in two message items: each call keeps its own, nothing reported', async () => {
      const seen = reported()
      const openai = await responsesClient(line, [two[0]!, { id: 'msg_2', parts: [second.replace(REPEATED, 'functions.get_weather:1')] }], { onDiagnostic: seen.onDiagnostic })
      const calls = functionCalls((await openai.responses.create({ model: 'kimi-k2', input: 'Weather?' })).output)
      expect(calls.map((c) => c.call_id)).toEqual([REPEATED, 'functions.get_weather:1'])
      expect(seen.codes).toEqual([])
    })

    it("should support generateId making every id: the caller's ids are not checked across the parts", async () => {
      let n = 0
      const seen = reported()
      const openai = await responsesClient(line, two, { generateId: () => `mine_${n++ % 1}`, onDiagnostic: seen.onDiagnostic })
      const calls = functionCalls((await openai.responses.create({ model: 'kimi-k2', input: 'Weather?' })).output)
      expect(calls.map((c) => c.call_id)).toEqual(['mine_0', 'mine_0'])
      expect(seen.codes).toEqual([])
    })
  })
}

describe('sieveResponsesStream: two message items open at once', () => {
  type Event = Record<string, unknown> & { type: string }

  it('should support the model id going to the call that went out first, whichever item it is in', async () => {
    // the first item's block is cut: the second item's call goes out first
    const events = [...messageOpened('msg_1', 0), textDelta('msg_1', 0, 'Beijing first.<|tool_calls_section_begin|>'), ...messageOpened('msg_2', 1), textDelta('msg_2', 1, second), textDelta('msg_1', 0, first.slice(first.indexOf('<|tool_call_begin|>')))]
    const seen = reported()
    const out = (await collect(sieveResponsesStream(iterate(events.map((e, i) => ({ ...e, sequence_number: i })) as unknown as ResponseStreamEvent[]), { dialect: 'kimi-k2', onDiagnostic: seen.onDiagnostic }))) as unknown as Event[]
    const calls = out.flatMap((e) => (e.type === 'response.output_item.done' && (e.item as FunctionCall).type === 'function_call' ? [e.item as FunctionCall] : []))
    expect(calls.map((c) => [c.call_id, c.arguments])).toEqual([
      [REPEATED, shanghai],
      [made, beijing],
    ])
    expect(calls[1]!.id).toBe(itemIdOf(calls[1]!.call_id))
    expect(seen.codes).toEqual(['invalid-call-id'])
  })

  it('should support strict mode: the repeat reported as an error event, the call still going out', async () => {
    const seen: Array<DiagnosticEvent | ErrorEvent> = []
    const input = response('completed', [messageItem({ id: 'msg_1', parts: [first] }), messageItem({ id: 'msg_2', parts: [second] })]) as unknown as ResponsesObject
    const out = sieveResponse(input, { dialect: 'kimi-k2', strict: true, onDiagnostic: (e) => void seen.push(e) })
    expect(functionCalls(out.output).map((c) => c.call_id)).toEqual([REPEATED, made])
    expect(seen).toEqual([{ type: 'error', code: 'invalid-call-id', message: expect.stringContaining(REPEATED), span: { start: 14, end: second.length } }])
  })
})

describe('sieveResponse: a rescued call and a native call of one id', () => {
  it("should not support both going out: native-conflict, or with prefer-native the native call alone", () => {
    const native = { type: 'function_call', id: 'fc_n', call_id: REPEATED, name: 'get_weather', arguments: beijing, status: 'completed' }
    const input = response('completed', [messageItem({ id: 'msg_1', parts: [second] }), native]) as unknown as ResponsesObject
    expect(() => sieveResponse(input, { dialect: 'kimi-k2' })).toThrow(expect.objectContaining({ code: 'native-conflict' }))
    const out = sieveResponse(input, { dialect: 'kimi-k2', onConflict: 'prefer-native' })
    expect(functionCalls(out.output)).toEqual([native])
  })
})

// ---- Chat completions: choices are alternatives --------------------------------

for (const line of sdkLines) {
  describe(`Chat completions (openai ${line.major}, through sieveFetch): one sieve per choice`, () => {
    it('should support the same model id in two choices: each choice is an answer of its own and keeps it', async () => {
      const { default: OpenAI } = (await import(line.openai)) as { default: new (options: Record<string, unknown>) => any }
      const choice = (index: number, content: string) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null })
      const completion = { id: 'c1', object: 'chat.completion', created: 1, model: 'kimi-k2', choices: [choice(0, first), choice(1, second)] }
      const upstreamFetch = async () => new Response(JSON.stringify(completion), { headers: { 'content-type': 'application/json' } })
      const seen = reported()
      const openai = new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch({ dialect: 'kimi-k2', onDiagnostic: seen.onDiagnostic }, upstreamFetch as typeof fetch) })
      const out = await openai.chat.completions.create({ model: 'kimi-k2', messages: [{ role: 'user', content: 'Weather?' }], n: 2 })
      expect(out.choices.map((c: { message: { tool_calls: Array<{ id: string }> } }) => c.message.tool_calls.map((t) => t.id))).toEqual([[REPEATED], [REPEATED]])
      expect(seen.codes).toEqual([])
    })
  })
}

// ---- AI SDK ---------------------------------------------------------------------

const lines = await loadLines()

/** A `get_weather` tool that records the call id each run had. */
function weatherTool(loaded: LoadedLine, ran: string[]) {
  const { tool, jsonSchema } = loaded.ai
  return {
    get_weather: tool({
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
      execute: async (input: { city: string }, { toolCallId }: { toolCallId: string }) => {
        ran.push(`${toolCallId} ${input.city}`)
        return `sunny in ${input.city}`
      },
    }),
  }
}

for (const loaded of lines) {
  const { ai } = loaded
  describe(`ai ${loaded.line.major}: a later run of text parts has its own sieve, ids unique in the result`, () => {
    const middleware = (seen: ReturnType<typeof reported>) => toolsieveMiddleware({ dialect: 'kimi-k2', onDiagnostic: seen.onDiagnostic })
    const reasoning = (id: string) => [
      { type: 'reasoning-start', id },
      { type: 'reasoning-delta', id, delta: 'And Shanghai.' },
      { type: 'reasoning-end', id },
    ]

    it('should support a model id given again after a reasoning part (streamText): the later call gets a made id on its tool-input parts and tool-call', async () => {
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 'txt-0' },
        { type: 'text-delta', id: 'txt-0', delta: first },
        { type: 'text-end', id: 'txt-0' },
        ...reasoning('r1'),
        { type: 'text-start', id: 'txt-1' },
        { type: 'text-delta', id: 'txt-1', delta: second },
        { type: 'text-end', id: 'txt-1' },
        { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
      ]
      const seen = reported()
      const ran: string[] = []
      const model = new loaded.Mock({ doStream: { stream: loaded.stream(parts) } })
      const result = ai.streamText({ model: ai.wrapLanguageModel({ model: model as never, middleware: middleware(seen) }), prompt: 'Weather?', tools: weatherTool(loaded, ran) })
      const stream: Array<Record<string, any>> = []
      for await (const part of result.fullStream) stream.push(part as never)
      const calls = stream.filter((p) => p.type === 'tool-call')
      expect(calls.map((p) => p.toolCallId)).toEqual([REPEATED, made])
      const made2 = calls[1]!.toolCallId as string
      for (const type of ['tool-input-start', 'tool-input-end']) expect(stream.filter((p) => p.type === type).map((p) => p.id), type).toEqual([REPEATED, made2])
      expect(new Set(stream.filter((p) => p.type === 'tool-input-delta').map((p) => p.id))).toEqual(new Set([REPEATED, made2]))
      expect(new Set(stream.filter((p) => p.type === 'tool-result').map((p) => p.toolCallId))).toEqual(new Set([REPEATED, made2]))
      expect(ran.sort()).toEqual([`${REPEATED} Beijing`, `${made2} Shanghai`].sort())
      expect(seen.codes).toEqual(['invalid-call-id'])
    })

    it('should support a model id given again after a reasoning part (generateText)', async () => {
      const content = [{ type: 'text', text: first }, { type: 'reasoning', text: 'And Shanghai.' }, { type: 'text', text: second }]
      const seen = reported()
      const ran: string[] = []
      const model = new loaded.Mock({ doGenerate: generated(content) })
      const result = await ai.generateText({ model: ai.wrapLanguageModel({ model: model as never, middleware: middleware(seen) }), prompt: 'Weather?', tools: weatherTool(loaded, ran) })
      const ids = result.toolCalls.map((c: { toolCallId: string }) => c.toolCallId)
      expect(ids).toEqual([REPEATED, made])
      expect(result.toolResults.map((r: { toolCallId: string }) => r.toolCallId).sort()).toEqual([...ids].sort())
      expect(seen.codes).toEqual(['invalid-call-id'])
    })
  })
}

// ---- Anthropic ------------------------------------------------------------------

describe('Anthropic (@anthropic-ai/sdk MessageStream): one sieve per run of text blocks', () => {
  it("should support ids unique in a message: tool_use ids are made in Anthropic's look, the model's are never used", async () => {
    const thinking = { type: 'thinking', thinking: 'And Shanghai.', signature: 'sig' } as never
    const out = []
    for await (const e of sieveMessagesStream(upstream([[first], thinking, [second]]), { dialect: 'kimi-k2' })) out.push(e)
    const message = await finalMessage(out)
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
    expect(ids).toHaveLength(2)
    for (const id of ids) expect(id).toMatch(/^toolu_[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(2)
  })
})
