/**
 * The Chat Completions fuzz's check of one choice, shared by the stream's
 * fuzz and `sieveFetch`'s: nothing after its finish, a choice the break cut
 * gets none, native calls pass as sent, and every character of its content
 * is accounted for (`account`).
 */
import { expect } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { OpenAIAdapterOptions } from '../../src/openai/index.js'
import { resolveAdapterOptions } from '../../src/adapters/index.js'
import { account, rawsOf, type Said } from './fuzz-helpers.js'

/** A delta the fuzz sent for a choice, and its finish. */
export type Sent = { index: number; delta: Record<string, unknown>; finish?: 'stop' }

/** One choice's output: terminal rules, natives as sent, and the accounting. */
export function checkChoice(index: number, kept: readonly Sent[], out: readonly ChatCompletionChunk[], opts: OpenAIAdapterOptions, broke: boolean): void {
  const mine = kept.filter((m) => m.index === index)
  const sent = mine.map((m) => (typeof m.delta.content === 'string' ? m.delta.content : '')).join('')
  const finished = mine.some((m) => m.finish !== undefined)
  const natives = mine.filter((m) => m.delta.tool_calls !== undefined).length
  const said: Said[] = []
  const calls = new Map<number, Said & { call: string }>()
  let finish: string | null = null
  let natOut = 0
  for (const c of out) {
    for (const ch of c.choices) {
      if (ch.index !== index) continue
      const d = ch.delta as { content?: string | null; reasoning_content?: string | null; tool_calls?: ChatCompletionChunk.Choice.Delta.ToolCall[] }
      const says = (d.content ?? '') !== '' || (d.reasoning_content ?? '') !== '' || (d.tool_calls?.length ?? 0) > 0
      expect(finish === null || !says, 'nothing after the finish').toBe(true)
      if (typeof d.reasoning_content === 'string') said.push({ text: d.reasoning_content })
      if (typeof d.content === 'string') said.push({ text: d.content })
      for (const t of d.tool_calls ?? []) {
        if (t.id?.startsWith('nat_') === true) natOut++
        else if (t.id !== undefined) calls.set(t.index, said[said.push({ call: t.function?.arguments ?? '', done: true }) - 1] as Said & { call: string })
        else if (calls.has(t.index)) calls.get(t.index)!.call += t.function?.arguments ?? ''
      }
      if (ch.finish_reason != null) finish = ch.finish_reason
    }
  }
  const cut = broke && !finished
  if (cut) expect(finish, 'a choice the break cut gets no finish').toBeNull()
  expect(natOut, 'native calls pass').toBe(natives)
  const prefer = opts.onConflict === 'prefer-native'
  const lost = account(sent, rawsOf(sent, resolveAdapterOptions(opts).sieve, cut), said, { moved: prefer, dropped: prefer && natives > 0, broke: cut })
  expect(lost, `choice ${index}: ${JSON.stringify(sent)} → ${JSON.stringify(said)}`).toBeUndefined()
  if (finished && !cut) expect(finish).toBe(calls.size > 0 || natives > 0 ? 'tool_calls' : 'stop')
}
