/**
 * toolsieve/fetch when the upstream's event stream breaks off: a chunk the
 * adapter must read but cannot (`invalid-chunk`), an upstream error event, a
 * body that fails. What the sieve held reaches the client as text, in
 * order, before the error; a block the break cut is never a call.
 */
import { describe, expect, it } from 'vitest'
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
