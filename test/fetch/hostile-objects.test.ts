/**
 * toolsieve/fetch on JSON objects that cannot become a string or a number
 * (`{"toString": 0}` and kin: their `toString` and `valueOf` are data), in
 * the request body and in the upstream's answer. Wherever one stands, the
 * fetch resolves and its body reads to the end: repaired, or the upstream's
 * as it came, never a `TypeError` (thrown, or written into an error event or
 * a report).
 */
import { describe, expect, it } from 'vitest'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { counter } from '../adapters/openai-helpers.js'
import { dsml } from './helpers.js'
import { hostile, paths, setAt } from '../helpers/hostile.js'

const chatUrl = 'http://upstream.test/v1/chat/completions'
const responsesUrl = 'http://upstream.test/v1/responses'
const text = `<think>plan</think>\n\nLet me look.\n\n${dsml('a.ts')}\n\nDone.`
const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
const nativeCall = { id: 'call_native', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } }

const chatRequest = {
  model: 'deepseek-chat',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
    { role: 'assistant', content: 'x', tool_calls: [nativeCall] },
    { role: 'tool', tool_call_id: 'call_native', content: 'ok' },
  ],
  tools: [{ type: 'function', function: { name: 'read_file', parameters: schema } }],
  thinking: { type: 'enabled' },
  stream: true,
}
const responsesRequest = {
  model: 'deepseek-chat',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'Read a.ts' }] }, { type: 'function_call_output', call_id: 'c0', output: 'o' }],
  tools: [{ type: 'function', name: 'read_file', parameters: schema }],
  stream: true,
}
const completion = {
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'deepseek',
  choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, tool_calls: [nativeCall], function_call: { name: 'f', arguments: '{}' } }, finish_reason: 'stop', logprobs: null }],
  usage: { total_tokens: 3 },
}
const response = {
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  output: [
    { type: 'function_call', id: 'fc_0', call_id: 'c0', name: 'read_file', arguments: '{}' },
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] },
  ],
  output_text: text,
}
const chunk = (delta: object, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })
const chunks = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: text.slice(0, 30) }),
  chunk({ content: text.slice(30) }),
  chunk({ tool_calls: [{ index: 0, ...nativeCall }] }),
  chunk({}, 'stop'),
  { id: 'c1', choices: [], usage: { total_tokens: 3 } },
]
const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
const events = [
  { type: 'response.created', response: { id: 'r', output: [] } },
  { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
  { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
  { type: 'response.output_text.delta', ...at, delta: text.slice(0, 30), logprobs: [] },
  { type: 'response.output_text.delta', ...at, delta: text.slice(30), logprobs: [] },
  { type: 'response.output_text.done', ...at, text, logprobs: [] },
  { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] } },
  { type: 'response.output_item.added', output_index: 1, item: { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '' } },
  { type: 'response.completed', response: { id: 'r', output: [{ id: 'msg_1', type: 'message', content: [{ type: 'output_text', text }] }], usage: { total_tokens: 1 } } },
]

/** An event stream of `items`, each named after its `type` when `named` and the type is a name. */
function sse(items: readonly unknown[], named: boolean): string {
  const name = (e: unknown) => {
    const type = (e as { type?: unknown } | null)?.type
    return named && typeof type === 'string' ? `event: ${type}\n` : ''
  }
  return items.map((e) => `${name(e)}data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n'
}

interface Outcome {
  status: number
  text: string
  reports: RepairReport[]
}

/** One request through `sieveFetch` to an upstream that answers `body` with `type`. */
async function through(url: string, request: unknown, body: string, type: string, options: Parameters<typeof sieveFetch>[0] = {}): Promise<Outcome> {
  const reports: RepairReport[] = []
  const fetch = sieveFetch({ generateId: counter(), onReport: (r) => reports.push(r), ...options }, async () => new Response(body, { headers: { 'content-type': type } }))
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(request) })
  return { status: res.status, text: await res.text(), reports }
}

/** Nothing of a TypeError reached the caller: not in the body, not in a report. */
function noTypeError(outcome: Outcome, label: string): void {
  const said = outcome.text + JSON.stringify(outcome.reports)
  expect(said, label).not.toMatch(/Cannot convert|TypeError|repair-failed/)
}

const sseType = 'text/event-stream'
const jsonType = 'application/json'

describe('sieveFetch, a whole answer whose native call id is an object that cannot become a string', () => {
  const wholeChat = { ...chatRequest, thinking: undefined, stream: false }
  for (const id of hostile) {
    it(`should support a chat completion with a native call whose id is ${JSON.stringify(id)}: repaired, the call as it came`, async () => {
      const call = { ...nativeCall, id }
      const answer = { ...completion, choices: [{ index: 0, message: { role: 'assistant', content: '<think>plan</think>Done.', tool_calls: [call] }, finish_reason: 'stop' }] }
      const out = await through(chatUrl, wholeChat, JSON.stringify(answer), jsonType)
      expect(out.status).toBe(200)
      const message = (JSON.parse(out.text) as { choices: { message: Record<string, unknown> }[] }).choices[0]!.message
      expect(message).toMatchObject({ content: 'Done.', reasoning_content: 'plan', tool_calls: [call] })
      expect(out.reports[0]).toMatchObject({ route: 'chat', mode: 'whole', rescued: 0 })
    })

    it(`should support a Responses object with a native function_call whose id is ${JSON.stringify(id)}: repaired, the item as it came`, async () => {
      const item = { type: 'function_call', id, call_id: 'c0', name: 'read_file', arguments: '{}' }
      const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '<think>plan</think>Done.', annotations: [] }] }
      const out = await through(responsesUrl, { ...responsesRequest, stream: false }, JSON.stringify({ ...response, output: [item, message], output_text: undefined }), jsonType)
      expect(out.status).toBe(200)
      const output = (JSON.parse(out.text) as { output: Record<string, unknown>[] }).output
      expect(output[0]).toEqual(item)
      expect(output.map((i) => i.type)).toEqual(['function_call', 'reasoning', 'message'])
      expect(out.reports[0]).toMatchObject({ route: 'responses', mode: 'whole', rescued: 0 })
    })
  }

  it('should support a rescued call in one choice and a native call whose id is such an object in another: the rescued one counted', async () => {
    const answer = { ...completion, choices: [{ index: 0, message: { role: 'assistant', content: `Reading.\n\n${dsml('a.ts')}` }, finish_reason: 'stop' }, { index: 1, message: { role: 'assistant', content: '<think>p</think>x', tool_calls: [{ ...nativeCall, id: { toString: 0 } }] }, finish_reason: 'stop' }] }
    const out = await through(chatUrl, wholeChat, JSON.stringify(answer), jsonType)
    expect(out.status).toBe(200)
    expect(out.reports[0]).toMatchObject({ mode: 'whole', rescued: 1 })
  })
})

describe('sieveFetch, objects that cannot become a string, in every field', () => {
  const requestCases = [
    { name: 'a chat request (streamed answer)', url: chatUrl, request: chatRequest, answer: sse(chunks, false), type: sseType },
    { name: 'a chat request (whole answer)', url: chatUrl, request: { ...chatRequest, stream: false }, answer: JSON.stringify({ ...completion, choices: [{ ...completion.choices[0]!, message: { role: 'assistant', content: text } }] }), type: jsonType },
    { name: 'a Responses request (streamed answer)', url: responsesUrl, request: responsesRequest, answer: sse(events, true), type: sseType },
  ]
  for (const c of requestCases) {
    it(`should not support a TypeError for ${c.name} with such an object in any field of the request`, async () => {
      for (const path of paths(c.request)) {
        for (const value of hostile) {
          const out = await through(c.url, setAt(c.request, path, value), c.answer, c.type)
          noTypeError(out, `${path.join('.')} = ${JSON.stringify(value)}`)
        }
      }
    })
  }

  const answerCases = [
    { name: 'a whole chat completion', url: chatUrl, request: { ...chatRequest, stream: false }, items: [completion], body: (items: unknown[]) => JSON.stringify(items[0]), type: jsonType },
    { name: 'a whole Responses object', url: responsesUrl, request: { ...responsesRequest, stream: false }, items: [response], body: (items: unknown[]) => JSON.stringify(items[0]), type: jsonType },
    { name: 'a chat event stream', url: chatUrl, request: chatRequest, items: chunks, body: (items: unknown[]) => sse(items, false), type: sseType },
    { name: 'a Responses event stream', url: responsesUrl, request: responsesRequest, items: events, body: (items: unknown[]) => sse(items, true), type: sseType },
  ]
  for (const c of answerCases) {
    for (const onConflict of ['error', 'prefer-native'] as const) {
      it(`should not support a TypeError for ${c.name} with such an object in any field (onConflict ${onConflict})`, async () => {
        for (const [i, item] of c.items.entries()) {
          for (const path of paths(item)) {
            for (const value of hostile) {
              const items = [...c.items]
              items[i] = setAt(item, path, value) as never
              const out = await through(c.url, c.request, c.body(items), c.type, { onConflict })
              noTypeError(out, `item ${i}: ${path.join('.')} = ${JSON.stringify(value)}`)
            }
          }
        }
      })
    }
  }
})
