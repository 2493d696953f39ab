/**
 * `sieveChatStream` with `onConflict: 'prefer-native'` when the upstream
 * breaks off (its iterator throws: a cut connection, or the SDK's error
 * event; a chunk of the wrong shape) while rescued calls are held for the
 * choice's finish. A broken turn runs nothing, and with no native call to
 * stand for them, dropping the held calls would lose their text: each goes
 * out as the markup it was read from, as `content`, before the error.
 *
 * The shared gate holds the calls only: the content after a held call went
 * out while it was held, so its markup comes at the break, after that
 * content, not where it stood in the answer.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveChatStream, type OpenAIAdapterOptions } from '../../src/openai/index.js'
import { accumulate, block, chunk, counter, invoke, param } from './openai-helpers.js'
import { awkward, source, until } from './stream-helpers.js'

const CALL = block(invoke('read_file', param('path', 'a.ts')))
const CALL2 = block(invoke('write_file', param('path', 'b.ts'), param('content', 'x')))
const PREFER: OpenAIAdapterOptions = { onConflict: 'prefer-native', trimBlankLines: false }
const broken = new Error('socket hang up')

const run = (chunks: readonly unknown[], options: OpenAIAdapterOptions = PREFER) => until(sieveChatStream(source(chunks as ChatCompletionChunk[], broken), { ...options, generateId: counter() }))
const contents = (pieces: readonly string[], index = 0) => [chunk({ role: 'assistant', content: '' }, null, index), ...pieces.map((content) => chunk({ content }, null, index))]

describe('sieveChatStream, prefer-native: a held rescued call when the upstream breaks off', () => {
  it.each([
    ['whole', [`Hi ${CALL} after`]],
    ['in pieces of 1..7', awkward(`Hi ${CALL} after`)],
  ])('should support its markup going out as content before the error, after the content that went out while it was held (%s)', async (_, pieces) => {
    const { out, error } = await run(contents(pieces))
    expect(error).toBe(broken)
    expect(accumulate(out)).toEqual({ content: `Hi  after${CALL}`, reasoning: '', calls: [], finish: null })
  })

  it('should support the markup of every call it held, in order, before the text the sieve still held', async () => {
    const { out } = await run(contents([`A ${CALL} B ${CALL2} C <｜DSML｜too`]))
    expect(accumulate(out)).toMatchObject({ content: `A  B  C ${CALL}${CALL2}<｜DSML｜too`, calls: [] })
  })

  it('should support its markup going out whole with blank-line trimming on, the blank space trimmed around it as a call staying trimmed', async () => {
    // one content: the blank lines before the block stay as the separator of the texts around it
    const { out } = await run(contents([`Hi\n\n${CALL}\n\nafter`]), { onConflict: 'prefer-native' })
    expect(accumulate(out)).toMatchObject({ content: `Hi\n\nafter${CALL}`, calls: [] })
  })

  it('should support a chunk of the wrong shape the same way: the markup, then invalid-chunk', async () => {
    const { out, error } = await until(sieveChatStream(source<unknown>([...contents([`Hi ${CALL} after`]), chunk({ content: 42 } as never)]) as never, PREFER))
    expect(error).toMatchObject({ code: 'invalid-chunk' })
    expect(accumulate(out as ChatCompletionChunk[])).toMatchObject({ content: `Hi  after${CALL}`, calls: [] })
  })

  it('should support each open choice giving its own held markup in its own content', async () => {
    const both = [...contents([`one ${CALL}`], 0), ...contents([`two ${CALL2} more`], 1)]
    const { out } = await run(both)
    expect(accumulate(out, 0)).toMatchObject({ content: `one ${CALL}`, calls: [] })
    expect(accumulate(out, 1)).toMatchObject({ content: `two  more${CALL2}`, calls: [] })
  })

  it('should not support the markup of a call held when a native call came: the native call stands for it', async () => {
    const native = chunk({ tool_calls: [{ index: 0, id: 'call_n', type: 'function', function: { name: 'read_file', arguments: '{}' } }] })
    const { out } = await run([...contents([`Hi ${CALL} after`]), native])
    expect(accumulate(out)).toMatchObject({ content: 'Hi  after', calls: [{ id: 'call_n', name: 'read_file', arguments: '{}' }] })
  })

  it('should not support a choice that finished before the break giving anything more: its calls went out at its finish', async () => {
    const { out } = await run([...contents([`Hi ${CALL}`]), chunk({}, 'stop')])
    expect(accumulate(out)).toEqual({ content: 'Hi ', reasoning: '', calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }], finish: 'tool_calls' })
  })
})
