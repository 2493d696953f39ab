/**
 * The Chat Completions fuzz's check of one choice, shared by the stream's
 * fuzz and `sieveFetch`'s: nothing after its finish, a choice the break cut
 * gets none, native calls pass as sent, and every character of its content
 * is accounted for (`account`). Also the chunk upstream may send for a
 * choice after its finish (`placeLate`).
 */
import fc from 'fast-check'
import { expect } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { OpenAIAdapterOptions } from '../../src/openai/index.js'
import { resolveAdapterOptions } from '../../src/adapters/index.js'
import { account, rawsOf, type Said } from './fuzz-helpers.js'

/** A delta the fuzz sent for a choice, and its finish. */
export type Sent = { index: number; delta: Record<string, unknown>; finish?: 'stop' }

/**
 * A chunk for a choice after its finish: usage with no choices, or an empty
 * delta with usage (both pass as they came), or content (with markup) or a
 * native call, which upstream may not send there: the stream ends with
 * `invalid-chunk`, after what the other choices held.
 */
export type Late = { kind: 'usage' | 'empty' | 'content' | 'native'; choice: number }
export const late: fc.Arbitrary<Late | undefined> = fc.option(fc.record({ kind: fc.constantFrom<Late['kind']>('usage', 'empty', 'content', 'native'), choice: fc.nat() }), { nil: undefined })
export const lateUsage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }

/**
 * `sent` with the late chunk (the stream's `head` fields: the SDK reads
 * another `id` as another completion) right after its choice's finish, none
 * when that finish was not sent: `at` is its place among the chunks. A
 * fault ends the stream there, so `sent` stops there too.
 */
export function placeLate(sent: readonly Sent[], late: Late | undefined, choices: number, head: object): { sent: readonly Sent[]; late?: { at: number; chunk: Record<string, unknown> }; fault: boolean } {
  const index = late === undefined ? -1 : late.choice % choices
  const finish = sent.findIndex((m) => m.index === index && m.finish !== undefined)
  if (late === undefined || finish === -1) return { sent, fault: false }
  const native = { index: 0, id: 'nat_late', type: 'function', function: { name: 'ls', arguments: '{}' } }
  const delta = late.kind === 'content' ? { content: 'late <｜DSML｜tool_calls>' } : late.kind === 'native' ? { tool_calls: [native] } : { content: '' }
  const chunk = late.kind === 'usage' ? { ...head, choices: [], usage: lateUsage } : { ...head, choices: [{ index, delta, finish_reason: null }], ...(late.kind === 'empty' ? { usage: lateUsage } : {}) }
  const fault = late.kind === 'content' || late.kind === 'native'
  return { sent: fault ? sent.slice(0, finish + 1) : sent, late: { at: finish + 1, chunk }, fault }
}

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
