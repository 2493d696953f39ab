/**
 * toolsieve/fetch on upstream answers of a shape the sieve does not read
 * (a `null` choice, content as an array of parts, a number where text
 * goes): they are the upstream's, so they go on as they came (a chunk where
 * it stood, a whole answer as its bytes) and the rest is repaired, instead
 * of the answer ending in an `invalid-chunk` error. Also the event bound,
 * `maxEventSize`.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { ToolsieveError } from '../../src/errors.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dataOf, dsml, framesOf, sseHeaders, stubFetch } from './helpers.js'

const url = 'http://upstream.test/v1/chat/completions'
const request = { model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true }
const init = { method: 'POST', body: JSON.stringify(request) }
const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const chunksOf = (text: string) => dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]

async function through(pieces: string[], options: Parameters<typeof sieveFetch>[0] = {}): Promise<string> {
  const stub = stubFetch(() => new Response(bodyOf(pieces), { headers: sseHeaders }))
  return (await sieveFetch({ generateId: counter(), ...options }, stub.fetch)(url, init)).text()
}

describe('sieveFetch, chunks of a shape the sieve does not read', () => {
  for (const [name, shape] of [
    ['a null choice', '{"choices":[null]}'],
    ['a choice that is a string', '{"choices":["x"]}'],
    ['content that is a number', '{"choices":[{"index":0,"delta":{"content":7}}]}'],
    ['content as an array of parts', '{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"hi"}]}}]}'],
    ['tool_calls holding null', '{"choices":[{"index":0,"delta":{"tool_calls":[null]}}]}'],
    ['a choice index that is not an integer', '{"choices":[{"index":"0","delta":{"content":"x"}}]}'],
  ] as const) {
    it(`should support ${name}: passed where it stood, the call around it rescued`, async () => {
      const reports: RepairReport[] = []
      const text = await through([frame(chatChunk({ content: 'Reading. ' })), frame(shape), frame(chatChunk({ content: dsml('a.ts') })), 'data: [DONE]\n\n'], { onReport: (r) => reports.push(r) })
      const frames = framesOf(text)
      expect(frames[1]).toBe(frame(shape))
      expect(accumulate(chunksOf(frames.filter((_, i) => i !== 1).join('')))).toMatchObject({ content: 'Reading.', calls: [{ name: 'read_file', arguments: '{"path":"a.ts"}' }], finish: 'tool_calls' })
      expect(frames.at(-1)).toBe('data: [DONE]\n\n')
      expect(reports).toEqual([{ route: 'chat', mode: 'stream', rescued: 1, note: '1 chunk passed as it came (not a shape the repair reads)' }])
    })
  }

  // a native call goes through the adapter, whatever its shape: passed unread, it would reach the client beside the
  // rescued one (the conflict gate never saw it), and held text would come out after it
  for (const [name, delta, finish] of [
    ['a streamed tool call without its index', { tool_calls: [{ id: 'n1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] }, null],
    ['a streamed tool call whose index is not an integer', { tool_calls: [{ index: '0', id: 'n1', function: { name: 'read_file' } }] }, null],
    ['a legacy function call whose name is not text', { function_call: { name: 7 } }, null],
    ['a legacy function call whose arguments are not text', { function_call: { name: 'read_file', arguments: {} } }, null],
    ['a finish reason that is not text, on text that finishes a held tag', { content: 'ls_calls>' }, 7],
    ['a native call beside a null in tool_calls', { tool_calls: [{ index: 0, id: 'n1', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } }, null] }, null],
    ['a native call in a delta whose content is a number', { content: 7, tool_calls: [{ index: 0, id: 'n1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] }, null],
    ['a legacy call in a delta whose content is a list of parts', { content: [{ type: 'text', text: 'x' }], function_call: { name: 'n1', arguments: '{}' } }, null],
  ] as const) {
    it(`should not support ${name} after a rescued call or beside held text: the answer ends with invalid-chunk, in order`, async () => {
      for (const before of [dsml('a.ts'), 'hello <｜DSML｜too']) {
        const bad = { ...chatChunk(delta as Record<string, unknown>), choices: [{ index: 0, delta, finish_reason: finish }] }
        const text = await through([frame(chatChunk({ content: before })), frame(bad), frame(chatChunk({ content: ' world' })), 'data: [DONE]\n\n'])
        const frames = framesOf(text)
        expect(text).not.toContain('"n1"')
        expect(text).not.toContain(' world')
        expect(dataOf(frames.at(-1)!)).toMatchObject([{ error: { type: 'toolsieve_error', code: 'invalid-chunk' } }])
        const got = accumulate(chunksOf(text))
        expect(got.calls.length).toBeLessThanOrEqual(1)
        if (before === dsml('a.ts')) expect(got.calls).toMatchObject([{ name: 'read_file', arguments: '{"path":"a.ts"}' }])
        else expect(got.content.startsWith('hello')).toBe(true)
      }
    })
  }

  it('should support a Responses event of a shape the sieve does not read: passed where it stood', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: 'Hi ', logprobs: [] },
      { type: 'response.output_text.delta', ...at, delta: 7, logprobs: [] },
      { type: 'response.output_text.delta', ...at, delta: 'there', logprobs: [] },
    ]
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
    const stub = stubFetch(() => new Response(bodyOf(sse), { headers: sseHeaders }))
    const text = await (await sieveFetch({}, stub.fetch)('http://upstream.test/v1/responses', { method: 'POST', body: JSON.stringify({ input: 'hi', stream: true }) })).text()
    expect(framesOf(text)).toContain(sse[3])
    expect(text).not.toContain('invalid-chunk')
  })

  it('should not support a Responses function call in an event of a shape the sieve does not read passing beside a rescued call', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: dsml('a.ts'), logprobs: [] },
      { type: 'response.output_item.added', output_index: 1, logprobs: 5, item: { id: 'fc_1', type: 'function_call', call_id: 'n1', name: 'read_file', arguments: '{"path":"b.ts"}', status: 'completed' } },
    ]
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
    const stub = stubFetch(() => new Response(bodyOf(sse), { headers: sseHeaders }))
    const text = await (await sieveFetch({}, stub.fetch)('http://upstream.test/v1/responses', { method: 'POST', body: JSON.stringify({ input: 'hi', stream: true }) })).text()
    expect(framesOf(text)).not.toContain(sse[3])
    expect(text).not.toContain('"call_id":"n1"')
    expect(text).toMatch(/"code":"(native-conflict|invalid-chunk)"/)
  })

  it('should support a whole completion whose content is an array of parts: its bytes, status 200', async () => {
    const body = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: `Reading. ${dsml('a.ts')}` }] } }] })
    const reports: RepairReport[] = []
    const stub = stubFetch(() => new Response(body, { headers: { 'content-type': 'application/json' } }))
    const answer = await sieveFetch({ onReport: (r) => reports.push(r) }, stub.fetch)(url, { method: 'POST', body: JSON.stringify({ messages: [] }) })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe(body)
    expect(reports).toEqual([{ route: 'chat', mode: 'passed', rescued: 0, note: 'not repaired: not a shape the repair reads' }])
  })
})

describe('sieveFetch, maxEventSize', () => {
  it('should not support a line over maxEventSize: the held text, then an error event, and nothing after', async () => {
    const held = 'Look: <｜DSML｜tool'
    const text = await through([frame(chatChunk({ content: held })), frame(chatChunk({ content: 'x'.repeat(5000) })), frame(chatChunk({ content: 'after' }))], { maxEventSize: 4096 })
    const frames = framesOf(text)
    expect(accumulate(chunksOf(text)).content).toBe(held)
    expect(dataOf(frames.at(-1)!)).toEqual([{ error: { message: 'an event-stream line or event is over 4096 characters', type: 'toolsieve_error', code: 'event-too-large' } }])
    expect(text).not.toContain('after')
  })

  it('should support a line exactly at maxEventSize', async () => {
    const line = frame(chatChunk({ content: 'ok' })).trimEnd()
    const text = await through([`${line}\n\n`], { maxEventSize: line.length })
    expect(accumulate(chunksOf(text)).content).toBe('ok')
  })

  it('should not support a maxEventSize that is not a whole number, 1 or more: refused at once, naming the field', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '10', Infinity]) {
      let error: unknown
      try {
        sieveFetch({ maxEventSize: bad as never })
      } catch (e) {
        error = e
      }
      expect(error, String(bad)).toBeInstanceOf(ToolsieveError)
      expect(error, String(bad)).toMatchObject({ code: 'invalid-option', field: 'maxEventSize' })
    }
  })
})

describe('sieveFetch, an event type with a line break', () => {
  it('should not support a line break in a Responses event type starting frames of its own: the name stays on one line', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const injected = 'x\n\ndata: {"type":"response.output_text.delta","delta":"INJECTED"}'
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: injected, ...at },
      { type: 'response.output_text.delta', ...at, delta: 'Hi', logprobs: [] },
    ]
    const sse = events.map((e) => `event: ${e.type.split('\n')[0]}\ndata: ${JSON.stringify(e)}\n\n`)
    const stub = stubFetch(() => new Response(bodyOf(sse), { headers: sseHeaders }))
    const text = await (await sieveFetch({}, stub.fetch)('http://upstream.test/v1/responses', { method: 'POST', body: JSON.stringify({ input: 'hi', stream: true }) })).text()
    const data = dataOf(text) as Array<{ type?: unknown; delta?: unknown }>
    expect(data.some((d) => d.delta === 'INJECTED')).toBe(false)
    expect(data.map((d) => d.type)).toContain(injected)
    expect(text).toContain('event: x  data: {"type":"response.output_text.delta","delta":"INJECTED"}\n')
  })
})
