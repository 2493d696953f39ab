/**
 * The user's `onDiagnostic` throws again while a stream fails. A stream
 * fails with one error: the first, whether the upstream's break or the
 * callback's own first throw. The release that follows (what the sieve
 * held goes out as text) still reports its diagnostics, an open block's
 * `unterminated-block`, to the callback; a throw of the callback there
 * cannot stop that release (the held text would be lost) and is not the
 * error the stream fails with (it would hide the break, which the client
 * must see, or replace the callback's first error by its reaction to the
 * failure that error caused). So every adapter reports it to the callback
 * and drops its throw.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'
import { upstream } from './anthropic-helpers.js'
import { deltaText, middlewareParts } from './ai-sdk-helpers.js'
import { source, throwing, until } from './stream-helpers.js'
import { accumulate, chunk, counter } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'

/** A block that fails to parse: released as text within its push, with `malformed-block`. */
const BAD = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">oops</｜DSML｜tool_calls>'
/** A block still open at the end of the push: held, and released by a break with `unterminated-block`. */
const OPEN = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">'
const broken = new Error('socket hang up')

/** Each stream adapter over one upstream piece of text, then (with `end`) a break: its text out, and its error. */
const adapters: Array<[string, (text: string, options: object, end?: Error) => Promise<{ text: string; error: unknown }>]> = [
  [
    'chat stream',
    async (text, options, end) => {
      const { out, error } = await until(sieveChatStream(source([chunk({ role: 'assistant', content: '' }), chunk({ content: text })], end), { generateId: counter(), ...options }))
      return { text: accumulate(out as ChatCompletionChunk[]).content, error }
    },
  ],
  [
    'Responses stream',
    async (text, options, end) => {
      const events = responseEvents([text])
      const head = events.slice(0, events.findIndex((e) => e.type === 'response.output_text.delta') + 1)
      const { out, error } = await until(sieveResponsesStream(source(head, end), { generateId: counter(), ...options }))
      return { text: (out as ResponseStreamEvent[]).map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join(''), error }
    },
  ],
  [
    'Messages stream',
    async (text, options, end) => {
      const events = upstream([[text]])
      const head = events.slice(0, events.findIndex((e) => e.type === 'content_block_delta') + 1)
      const { out, error } = await until(sieveMessagesStream(source(head, end), { generateId: counter('toolu_'), ...options }))
      return { text: (out as MessagesStreamEvent[]).map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join(''), error }
    },
  ],
  [
    'AI SDK stream',
    async (text, options, end) => {
      const { out, error } = await middlewareParts([{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }], options, end)
      return { text: deltaText(out), error }
    },
  ],
]

describe('an onDiagnostic that throws again while the stream fails', () => {
  for (const [name, run] of adapters) {
    it(`should not support the callback's throw in the release replacing the upstream's break (${name}): the held block goes out as text, the stream fails with the break`, async () => {
      const callback = throwing()
      const { text, error } = await run(`Hi ${OPEN}`, { onDiagnostic: callback.onDiagnostic }, broken)
      expect(callback.seen).toEqual(['unterminated-block'])
      expect(text).toBe(`Hi ${OPEN}`)
      expect(error).toBe(broken)
    })

    it(`should not support a second throw replacing the callback's first (${name}): the release still goes out, the stream fails with the first`, async () => {
      const callback = throwing()
      const { text, error } = await run(`Hi ${BAD} and ${OPEN}`, { onDiagnostic: callback.onDiagnostic })
      expect(callback.seen).toEqual(['malformed-block', 'unterminated-block'])
      expect(callback.thrown).toHaveLength(2)
      expect(text).toBe(`Hi ${BAD} and ${OPEN}`)
      expect(error).toBe(callback.thrown[0])
    })
  }
})
