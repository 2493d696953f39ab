/**
 * toolsieve/fetch passes a chunk of a shape the repair does not read as it
 * came, and where it stood: after the text the sieve held from before it
 * (`hello <｜DSML｜too`, a possible tag start), not ahead of it.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch } from '../../src/fetch/index.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, dataOf, framesOf, sseHeaders, stubFetch } from './helpers.js'

const held = 'hello <｜DSML｜too'
const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const parts = '{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"PARTS"}]}}]}'

async function through(url: string, pieces: string[]): Promise<string> {
  const stub = stubFetch(() => new Response(bodyOf(pieces), { headers: sseHeaders }))
  return (await sieveFetch({ generateId: counter() }, stub.fetch)(url, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], stream: true }) })).text()
}

/** The text of the content deltas and of the frames passed unread, in the order they went out. */
function story(text: string): string {
  return dataOf(text)
    .map((d) => {
      if (d === '[DONE]') return ''
      if (typeof d !== 'object' || d === null) return `[${String(d)}]`
      const choice = (d as ChatCompletionChunk).choices?.[0] as { delta?: { content?: unknown } } | undefined
      const content = choice?.delta?.content
      return typeof content === 'string' ? content : Array.isArray(content) ? '[PARTS]' : ''
    })
    .join('')
}

describe('sieveFetch: a chunk passed unread keeps its place', () => {
  it('should support content as a list of parts after held text: the held text, then the chunk as it came, then the rest', async () => {
    const text = await through('http://upstream.test/v1/chat/completions', [frame(chatChunk({ content: held })), frame(parts), frame(chatChunk({ content: 'k.' })), frame(chatChunk({}, 'stop')), 'data: [DONE]\n\n'])
    expect(story(text)).toBe(`${held}[PARTS]k.`)
    expect(framesOf(text)).toContain(frame(parts))
    expect(accumulate(dataOf(text).filter((d) => typeof d === 'object' && d !== null && !JSON.stringify(d).includes('PARTS')) as ChatCompletionChunk[])).toMatchObject({ content: `${held}k.`, calls: [], finish: 'stop' })
  })

  it('should support data that is not a JSON object after held text, in its place', async () => {
    const text = await through('http://upstream.test/v1/chat/completions', [frame(chatChunk({ content: held })), 'data: 42\n\n', frame(chatChunk({ content: 'k' }, 'stop')), 'data: [DONE]\n\n'])
    expect(story(text)).toBe(`${held}[42]k`)
  })

  it('should support a Responses event of a shape the sieve does not read after held text, in its place', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: held, logprobs: [] },
      { type: 'response.output_text.delta', ...at, delta: 7, logprobs: [] },
      { type: 'response.output_text.delta', ...at, delta: 'k', logprobs: [] },
    ]
    const text = await through('http://upstream.test/v1/responses', events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`))
    const deltas = (dataOf(text) as Array<{ type: string; delta?: unknown }>).filter((d) => d.type === 'response.output_text.delta').map((d) => String(d.delta))
    expect(deltas.join('')).toBe(`${held}7k`)
  })
})
