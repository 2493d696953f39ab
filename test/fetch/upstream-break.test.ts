/**
 * toolsieve/fetch when the upstream's event stream breaks off: a chunk the
 * adapter must read but cannot (`invalid-chunk`), an upstream error event, a
 * body that fails. What the sieve held reaches the client as text, in
 * order, before the error; a block the break cut is never a call.
 */
import { describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch } from '../../src/fetch/index.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dataOf, dsml, framesOf, readUntilFailure, sseHeaders, stubFetch } from './helpers.js'

const url = 'http://upstream.test/v1/chat/completions'
const init = { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true }) }
const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const chunksOf = (text: string) => dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]
const HELD = 'hello <｜DSML｜too'
const CUT = dsml('a.ts').slice(0, dsml('a.ts').lastIndexOf('</｜DSML｜tool_calls>'))

/** The repaired body's text up to its end or failure, and the failure. */
async function read(pieces: Parameters<typeof bodyOf>[0], responses = false): Promise<{ text: string; error: unknown }> {
  const stub = stubFetch(() => new Response(bodyOf(pieces), { headers: sseHeaders }))
  const target = responses ? 'http://upstream.test/v1/responses' : url
  const body = responses ? { method: 'POST', body: JSON.stringify({ input: 'hi', stream: true }) } : init
  const answer = await sieveFetch({ generateId: counter() }, stub.fetch)(target, body)
  return readUntilFailure(answer.body!)
}

describe('sieveFetch, the upstream breaks off', () => {
  it('should support a malformed chunk after held text: the held text, then an invalid-chunk error event', async () => {
    // a native call the adapter must read, of a shape it cannot: the answer ends there
    const bad = { ...chatChunk({}), choices: [{ index: 0, delta: { tool_calls: [{ id: 'n1', function: { name: 'read_file' } }] }, finish_reason: null }] }
    const { text } = await read([frame(chatChunk({ content: HELD })), frame(bad), frame(chatChunk({ content: ' world' })), 'data: [DONE]\n\n'])
    expect(accumulate(chunksOf(text)).content).toBe(HELD)
    expect(dataOf(framesOf(text).at(-1)!)).toMatchObject([{ error: { type: 'toolsieve_error', code: 'invalid-chunk' } }])
  })

  it('should not support a call from a block an upstream error event cut: its markup as text, then the error event', async () => {
    const error = frame({ error: { message: 'overloaded', type: 'server_error' } })
    const { text } = await read([frame(chatChunk({ content: `Reading. ${CUT}` })), error])
    const got = accumulate(chunksOf(text))
    expect(got.calls).toEqual([])
    expect(got.content).toBe(`Reading. ${CUT}`)
    expect(framesOf(text).at(-1)).toBe(error)
  })

  it('should not support a call from a block a failed body cut: its markup as text, then the failure', async () => {
    const failure = new Error('connection reset')
    const { text, error } = await read([frame(chatChunk({ content: `Reading. ${CUT}` })), failure])
    const got = accumulate(chunksOf(text))
    expect(got.calls).toEqual([])
    expect(got.content).toBe(`Reading. ${CUT}`)
    expect(error).toBe(failure)
  })

  it('should support a Responses error event after held text: the held text, then the error event', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: `Hi ${CUT}`, logprobs: [] },
      { type: 'error', code: 'server_error', message: 'boom', param: null },
    ]
    const { text } = await read(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`), true)
    const data = dataOf(text) as Array<{ type: string; delta?: string; item?: { type: string } }>
    expect(data.filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta).join('')).toBe(`Hi ${CUT}`)
    expect(data.some((d) => d.type === 'response.output_item.added' && d.item?.type === 'function_call')).toBe(false)
    expect(data.at(-1)).toMatchObject({ type: 'error', code: 'server_error' })
  })
})

describe('sieveFetch, a chunk for a choice after its finish, read through the openai client', () => {
  const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }
  const finished = [frame(chatChunk({ role: 'assistant', content: '' })), frame(chatChunk({ content: `Reading. ${dsml('a.ts')}` })), frame(chatChunk({}, 'stop'))]
  const readCall = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }]
  /** The client's stream over `pieces`: the chunks it gave, and what it threw. */
  async function client(pieces: string[]): Promise<{ out: ChatCompletionChunk[]; error: unknown }> {
    const stub = stubFetch(() => new Response(bodyOf(pieces), { headers: sseHeaders }))
    const openai = new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch({ generateId: counter() }, stub.fetch) })
    const out: ChatCompletionChunk[] = []
    try {
      for await (const c of await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true })) out.push(c)
    } catch (error) {
      return { out, error }
    }
    return { out, error: undefined }
  }
  const invalidChunk = expect.objectContaining({ code: 'invalid-chunk', error: expect.objectContaining({ type: 'toolsieve_error' }) })

  it('should support content after the finish arriving raw, after the finished answer: markup in it is no call', async () => {
    const { out, error } = await client([...finished, frame(chatChunk({ content: ` More. ${dsml('b.ts')}` })), frame({ ...chatChunk({ content: '\n' }), usage }), 'data: [DONE]\n\n'])
    expect(error).toBeUndefined()
    expect(accumulate(out)).toEqual({ content: `Reading. More. ${dsml('b.ts')}\n`, reasoning: '', calls: readCall, finish: 'tool_calls' })
    expect(out.map((c) => c.usage).filter(Boolean)).toEqual([usage])
  })

  it('should support a late chunk for choice 1 not ending choice 0: both answers arrive whole', async () => {
    const two = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({ ...chatChunk({}), choices: [{ index, delta, finish_reason: finish }] })
    const pieces = [two(0, { role: 'assistant', content: 'A' }), two(1, { role: 'assistant', content: 'b' }), two(1, {}, 'stop'), two(1, { content: ' late' }), two(0, { content: ` ${dsml('a.ts')}` }), two(0, {}, 'stop')]
    const { out, error } = await client([...pieces.map(frame), 'data: [DONE]\n\n'])
    expect(error).toBeUndefined()
    expect(accumulate(out, 0)).toEqual({ content: 'A', reasoning: '', calls: readCall, finish: 'tool_calls' })
    expect(accumulate(out, 1)).toEqual({ content: 'b late', reasoning: '', calls: [], finish: 'stop' })
  })

  it('should not support a native call after the finish of a turn with a rescued call: a native-conflict error, never a second call', async () => {
    const native = chatChunk({ tool_calls: [{ index: 0, id: 'native_0', type: 'function', function: { name: 'ls', arguments: '{}' } }] })
    const { out, error } = await client([...finished, frame(native), 'data: [DONE]\n\n'])
    expect(error).toEqual(expect.objectContaining({ code: 'native-conflict' }))
    expect(accumulate(out).calls).toEqual(readCall)
  })

  it('should not support a native call of a shape the adapter cannot read after the finish: an invalid-chunk error, not passed unread', async () => {
    const bad = chatChunk({ tool_calls: [{ id: 'n1', function: { name: 'ls' } }] })
    const { out, error } = await client([...finished, frame(bad), 'data: [DONE]\n\n'])
    expect(error).toEqual(invalidChunk)
    expect(accumulate(out).calls).toEqual(readCall)
  })

  it('should support usage after the finish, with no choices or with an empty delta, going out as it came', async () => {
    const late = [{ ...chatChunk({}), choices: [], usage }, { ...chatChunk({ content: '' }), usage }]
    const { out, error } = await client([...finished, ...late.map(frame), 'data: [DONE]\n\n'])
    expect(error).toBeUndefined()
    expect(out.slice(-2)).toEqual(late)
    expect(accumulate(out)).toEqual({ content: 'Reading.', reasoning: '', calls: readCall, finish: 'tool_calls' })
  })
})
