/**
 * What an adapter passes through without sieving it (a refusal, upstream's
 * own reasoning, a native call, a citation, an event of another item) keeps
 * its place: it goes out after the text the sieve held from before it
 * (`hello <｜DSML｜too`, a possible tag start), not ahead of it, so the
 * client reads the pieces in the order the model wrote them. The held text
 * stays what it is: nothing passed makes a call of it.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { accumulate, chunk, collect, counter, iterate } from './openai-helpers.js'
import { readItems } from './openai-responses-helpers.js'
import { finalMessage, messageShell, sieved } from './anthropic-helpers.js'
import type { MessagesStreamEvent } from '../../src/anthropic/index.js'

const held = 'hello <｜DSML｜too'

/** One choice's deltas as [field, value] in the order they went out, consecutive strings of one field joined. */
function order(chunks: readonly ChatCompletionChunk[]): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const c of chunks) {
    for (const choice of c.choices) {
      for (const [field, value] of Object.entries(choice.delta)) {
        if (value === null || value === undefined || value === '' || field === 'role') continue
        const last = out.at(-1)
        if (last !== undefined && last[0] === field && typeof value === 'string') last[1] = (last[1] as string) + value
        else out.push([field, value])
      }
    }
  }
  return out
}

const chat = (chunks: ChatCompletionChunk[], options: Parameters<typeof sieveChatStream>[1] = {}) => collect(sieveChatStream(iterate(chunks), { generateId: counter(), ...options }))
const native = { index: 0, id: 'n1', type: 'function' as const, function: { name: 'ls', arguments: '{}' } }

describe('sieveChatStream: what passes through keeps its place', () => {
  it('should support a refusal after held text: the held text first, then the refusal, then the rest', async () => {
    const out = await chat([chunk({ role: 'assistant', content: held }), chunk({ refusal: 'no' }), chunk({ content: 'k.' }), chunk({ content: null }, 'stop')])
    expect(order(out)).toEqual([['content', held], ['refusal', 'no'], ['content', 'k.']])
    expect(accumulate(out)).toMatchObject({ content: `${held}k.`, calls: [], finish: 'stop' })
  })

  it('should support upstream reasoning and a field of a provider\'s own after held text, in their place', async () => {
    const out = await chat([chunk({ content: held }), chunk({ reasoning_content: 'hm' }), chunk({ content: 'k' }), { ...chunk({}), choices: [{ index: 0, delta: { audio: { id: 'a' } } as never, finish_reason: null }] }, chunk({ content: '!' }, 'stop')])
    expect(order(out)).toEqual([['content', held], ['reasoning_content', 'hm'], ['content', 'k'], ['audio', { id: 'a' }], ['content', '!']])
  })

  it('should support a native call after held text: the held text first, and no call made of it', async () => {
    for (const onConflict of ['error', 'prefer-native'] as const) {
      const out = await chat([chunk({ content: held }), chunk({ tool_calls: [native] }), chunk({ content: 'k' }), chunk({}, 'tool_calls')], { onConflict })
      expect(order(out)).toEqual([['content', held], ['tool_calls', [native]], ['content', 'k']])
      expect(accumulate(out)).toMatchObject({ content: `${held}k`, calls: [{ id: 'n1', name: 'ls' }], finish: 'tool_calls' })
    }
  })

  it('should support what passes through in the middle of text the sieve releases: that text is cut where it stood', async () => {
    const out = await chat([chunk({ content: 'a <｜DS' }), chunk({ refusal: 'r1' }), chunk({ content: 'ML' }), chunk({ refusal: 'r2' }), chunk({ content: '｜x and more' }, 'stop')])
    expect(order(out)).toEqual([['content', 'a <｜DS'], ['refusal', 'r1'], ['content', 'ML'], ['refusal', 'r2'], ['content', '｜x and more']])
  })

  it('should support what passes through while a block is read: it follows the call the block became', async () => {
    const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="ls">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    const out = await chat([chunk({ content: `Look. ${block.slice(0, 30)}` }), chunk({ refusal: 'r' }), chunk({ content: block.slice(30) }, 'stop')])
    expect(order(out).map(([field]) => field)).toEqual(['content', 'tool_calls', 'tool_calls', 'refusal'])
  })

  it('should support a delta of nulls beside held text going out as it came, at once', async () => {
    const out = await chat([chunk({ content: held }), chunk({ content: 'k', reasoning_content: null } as never), chunk({}, 'stop')])
    expect(out[1]!.choices[0]!.delta).toEqual({ reasoning_content: null })
  })

  it('should not support a break losing what waited behind held text: held text, then the refusal, then the error', async () => {
    async function* broken(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk({ content: held })
      yield chunk({ refusal: 'no' })
      throw new Error('cut')
    }
    const out: ChatCompletionChunk[] = []
    await expect(async () => {
      for await (const c of sieveChatStream(broken())) out.push(c)
    }).rejects.toThrow('cut')
    expect(order(out)).toEqual([['content', held], ['refusal', 'no']])
  })
})

describe('sieveResponsesStream: what passes through keeps its place', () => {
  it('should support an item of its own starting before the message\'s held text was released: the text first, the indexes in order', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const call = { type: 'function_call', id: 'fc_n', call_id: 'n1', name: 'ls', arguments: '{}', status: 'completed' }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: held, logprobs: [] },
      { type: 'response.output_item.added', output_index: 1, item: { ...call, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', output_index: 1, item_id: 'fc_n', delta: '{}' },
      { type: 'response.output_item.done', output_index: 1, item: call },
      { type: 'response.output_text.delta', ...at, delta: 'k', logprobs: [] },
    ].map((e, i) => ({ ...e, sequence_number: i })) as unknown as ResponseStreamEvent[]
    const out = await collect(sieveResponsesStream(iterate(events), { generateId: counter() }))
    const texts = out.filter((e) => e.type === 'response.output_text.delta').map((e) => (e as { delta: string }).delta)
    const callAt = out.findIndex((e) => e.type === 'response.output_item.added' && (e as { item: { type: string } }).item.type === 'function_call')
    const heldAt = out.findIndex((e) => e.type === 'response.output_text.delta' && (e as { delta: string }).delta.includes('<｜DSML｜too'))
    expect(texts.join('')).toBe(`${held}k`)
    expect(heldAt).toBeGreaterThan(-1)
    expect(heldAt).toBeLessThan(callAt)
    expect(readItems(out).map((i) => [i.type, i.text ?? i.name])).toEqual([['message', `${held}k`], ['function_call', 'ls']])
  })
})

describe('sieveMessagesStream: what passes through keeps its place', () => {
  it('should support a citation delta after held text: the held text first, then the citation, then the rest', async () => {
    const citation = { type: 'char_location', cited_text: 'x', document_index: 0, document_title: null, start_char_index: 0, end_char_index: 1, file_id: null }
    const events = [
      { type: 'message_start', message: messageShell() },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: held } },
      { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'k' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ] as unknown as MessagesStreamEvent[]
    const out = await sieved(events)
    const deltas = out.flatMap((e) => (e.type === 'content_block_delta' ? [e.delta.type === 'text_delta' ? e.delta.text : `|${e.delta.type}|`] : []))
    expect(deltas.join('')).toBe(`${held}|citations_delta|k`)
    expect((await finalMessage(out)).content).toMatchObject([{ type: 'text', text: `${held}k`, citations: [citation] }])
  })
})

describe('sieveChatStream: what waits behind held text is bounded', () => {
  it('should not support holding a native call\'s stream until text comes: past a few dozen items they go ahead of the held text', async () => {
    const deltas = 200
    let read = 0
    let firstNativeAt = -1
    async function* upstream(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk({ role: 'assistant', content: 'Let me check <' })
      yield chunk({ tool_calls: [{ index: 0, id: 'n1', type: 'function', function: { name: 'ls', arguments: '' } }] })
      for (let i = 0; i < deltas; i++) {
        read++
        yield chunk({ tool_calls: [{ index: 0, function: { arguments: 'x' } }] })
      }
      read++
      yield chunk({}, 'tool_calls')
    }
    const out: ChatCompletionChunk[] = []
    for await (const c of sieveChatStream(upstream(), { generateId: counter() })) {
      if (firstNativeAt < 0 && c.choices[0]?.delta.tool_calls !== undefined) firstNativeAt = read
      out.push(c)
    }
    // the native call streams once its items have waited their share, long before the stream ends
    expect(firstNativeAt).toBeGreaterThan(0)
    expect(firstNativeAt).toBeLessThan(deltas / 2)
    // and nothing is lost or made up: the held `<` is text, the call is the native one with all its arguments
    expect(accumulate(out)).toMatchObject({ content: 'Let me check <', calls: [{ id: 'n1', name: 'ls', arguments: 'x'.repeat(deltas) }], finish: 'tool_calls' })
  })
})

describe('sieveChatStream: a chunk passed unread keeps the fields of the chunk after it', () => {
  it('should support logprobs on a chunk whose text a passed chunk waited for', async () => {
    const { Passed } = await import('../../src/adapters/index.js')
    const logprobs = { content: [{ token: 'T', logprob: -0.1, bytes: null, top_logprobs: [] }] }
    for (const second of ['nk>hmm', 'nk>']) {
      const input = [chunk({ role: 'assistant', content: '<thi' }), new Passed('P') as never, { ...chunk({ content: second }), choices: [{ index: 0, delta: { content: second }, finish_reason: null, logprobs }] }, chunk({}, 'stop')]
      const out = (await collect(sieveChatStream(iterate(input as ChatCompletionChunk[])))) as unknown[]
      const at = out.findIndex((c) => c instanceof Passed)
      expect(at).toBeGreaterThan(0)
      const carried = out.filter((c): c is ChatCompletionChunk => !(c instanceof Passed)).flatMap((c) => c.choices).filter((c) => c.logprobs !== undefined)
      expect(carried.map((c) => c.logprobs)).toEqual([logprobs])
    }
  })
})
