/**
 * toolsieve/fetch with `onConflict: 'prefer-native'`, read by the real
 * `openai` client, when the upstream's event stream breaks off (an error
 * event, a body that fails) while a rescued call is held for the turn's end.
 * The wrapper has no hold of its own: the adapters give the held call out
 * as its markup, as text, before the error, so the client reads every
 * character of the answer and no call.
 */
import { describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch } from '../../src/fetch/index.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dsml, sseHeaders } from './helpers.js'

const CALL = dsml('a.ts')
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
const options = { onConflict: 'prefer-native', trimBlankLines: false, generateId: counter() } as const

/** A client whose upstream answers every request with a body of `pieces`. */
const client = (pieces: Parameters<typeof bodyOf>[0]) => {
  const upstream = async () => new Response(bodyOf(pieces), { headers: sseHeaders })
  return new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch(options, upstream) })
}

/** What an SDK stream gave before it failed, and its failure. */
async function readAll<T>(stream: AsyncIterable<T>): Promise<{ out: T[]; error: unknown }> {
  const out: T[] = []
  try {
    for await (const item of stream) out.push(item)
  } catch (error) {
    return { out, error }
  }
  return { out, error: undefined }
}

describe('sieveFetch, prefer-native: a held rescued call when the upstream breaks off, read by the openai client', () => {
  const messages = [{ role: 'user' as const, content: 'Read a.ts' }]
  const answer = [frame(chatChunk({ role: 'assistant', content: '' })), frame(chatChunk({ content: `Hi ${CALL} after` }))]

  it('should support a chat error event: the markup as content before the APIError, and no tool call', async () => {
    const stream = await client([...answer, frame({ error: { message: 'overloaded', type: 'server_error' } })]).chat.completions.create({ model: 'm', messages, stream: true })
    const { out, error } = await readAll(stream)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(accumulate(out as ChatCompletionChunk[])).toEqual({ content: `Hi  after${CALL}`, reasoning: '', calls: [], finish: null })
  })

  it('should support a chat body that fails: the markup as content before the failure, and no tool call', async () => {
    const stream = await client([...answer, new Error('connection reset')]).chat.completions.create({ model: 'm', messages, stream: true })
    const { out, error } = await readAll(stream)
    expect(error).toBeDefined()
    expect(accumulate(out as ChatCompletionChunk[])).toEqual({ content: `Hi  after${CALL}`, reasoning: '', calls: [], finish: null })
  })

  it('should support a Responses error event: the markup as output text before the error event, and no function_call item', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: `Hi ${CALL} after`, logprobs: [] },
      { type: 'error', code: 'server_error', message: 'boom', param: null },
    ].map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
    const stream = await client(events).responses.create({ model: 'm', input: 'Read a.ts', stream: true })
    const { out } = await readAll(stream as AsyncIterable<{ type: string; delta?: string; item?: { type: string } }>)
    expect(out.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).toBe(`Hi  after${CALL}`)
    expect(out.some((e) => e.item?.type === 'function_call')).toBe(false)
  })
})
