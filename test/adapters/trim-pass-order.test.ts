/**
 * Whitespace the blank-line trimmer holds and an item passed through beside
 * it. The trimmer holds blanks at the end of the text so far (they go if a
 * call's block follows, and with the text that follows otherwise); what
 * passes through (a refusal, a provider's field) is another field of the
 * delta, not text, and does not say which. So the held blanks are not the
 * sieve's held text, and an item passed through does not wait for them:
 * they may go out after it, within the same content string.
 * Sending them ahead of the item would make trimming depend on the timing
 * of fields beside the text: a provider that sends a field of its own with
 * every delta would keep the blank lines before every block.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveChatStream } from '../../src/openai/index.js'
import { accumulate, block, chunk, collect, counter, invoke, iterate, param } from './openai-helpers.js'

const CALL = block(invoke('read_file', param('path', 'a.ts')))
const chat = (chunks: ChatCompletionChunk[]) => collect(sieveChatStream(iterate(chunks), { generateId: counter() }))
/** A chunk whose delta carries a field of the provider's own beside its content, as some send with every delta. */
const withMeta = (content: string, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk => ({ ...chunk({}), choices: [{ index: 0, delta: { content, provider_meta: {} } as never, finish_reason: finish }] })

describe('sieveChatStream: blanks the trimmer holds beside an item passed through', () => {
  it('should support the blank lines before a block trimmed when every delta carries a field of the provider\'s own', async () => {
    const out = await chat([withMeta('Let me check.\n\n'), withMeta(CALL), withMeta('', 'stop')])
    expect(accumulate(out)).toMatchObject({ content: 'Let me check.', calls: [{ name: 'read_file' }], finish: 'tool_calls' })
  })

  it('should support a refusal between text and the blank lines the trimmer holds: the content is the text as it came, the refusal whole', async () => {
    const out = await chat([chunk({ role: 'assistant', content: 'Hello\n\n' }), chunk({ refusal: 'no' }), chunk({ content: 'World' }), chunk({}, 'stop')])
    expect(accumulate(out).content).toBe('Hello\n\nWorld')
    expect(out.map((c) => c.choices[0]?.delta).filter((d) => d?.refusal !== undefined || (typeof d?.content === 'string' && d.content !== ''))).toEqual([{ content: 'Hello' }, { refusal: 'no' }, { content: '\n\nWorld' }])
  })
})
