/**
 * The Chat Completions fuzz's check of one choice, shared by the stream's
 * fuzz and `sieveFetch`'s: nothing after its finish, a choice the break cut
 * gets none, native calls pass as sent, and every character of its content
 * is accounted for (`account`), the text sent after its finish too (raw,
 * after the finish). Also the chunk upstream may send for a choice after
 * its finish (`placeLate`).
 */
import fc from 'fast-check'
import { expect } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { OpenAIAdapterOptions } from '../../src/openai/index.js'
import { resolveAdapterOptions } from '../../src/adapters/index.js'
import { account, answer, cutAt, rawsOf, type Said } from './fuzz-helpers.js'

/** A delta the fuzz sent for a choice, and its finish; `late` when it came after the choice's finish. */
export type Sent = { index: number; delta: Record<string, unknown>; finish?: 'stop'; late?: true }

/** One choice: its answer cut into deltas, and where a native call comes (past the end: none). */
export const choice = fc.record({ answer, cuts: fc.array(fc.nat(), { maxLength: 12 }), native: fc.option(fc.nat(), { nil: undefined }) })
export type Choice = { answer: string; cuts: number[]; native?: number | undefined }

const nativeDelta = (index: number) => ({ tool_calls: [{ index: 0, id: `nat_${index}`, type: 'function' as const, function: { name: 'ls', arguments: '{"n":1}' } }] })

/** Each choice's deltas (its role, its content pieces with the native call among them, its finish), interleaved as `picks` say. */
export function interleave(choices: readonly Choice[], picks: readonly number[]): Sent[] {
  const lists = choices.map((c, index) => {
    const deltas: Array<{ delta: Record<string, unknown>; finish?: 'stop' }> = [{ delta: { role: 'assistant', content: '' } }]
    const pieces = cutAt(c.answer, c.cuts)
    pieces.forEach((content, i) => {
      if (c.native !== undefined && c.native % (pieces.length + 1) === i) deltas.push({ delta: nativeDelta(index) })
      deltas.push({ delta: { content } })
    })
    if (c.native !== undefined && c.native % (pieces.length + 1) === pieces.length) deltas.push({ delta: nativeDelta(index) })
    deltas.push({ delta: {}, finish: 'stop' })
    return deltas.map((d) => ({ index, ...d }))
  })
  const merged: Sent[] = []
  const next = lists.map(() => 0)
  let p = 0
  while (merged.length < lists.reduce((n, l) => n + l.length, 0)) {
    const open = lists.map((_, i) => i).filter((i) => next[i]! < lists[i]!.length)
    const i = open[(picks[p++ % Math.max(1, picks.length)] ?? 0) % open.length]!
    merged.push(lists[i]![next[i]!++]!)
  }
  return merged
}

/**
 * A chunk for a choice after its finish: usage with no choices, or an empty
 * delta with usage (both pass as they came), content (with markup), which
 * goes out raw as that choice's content, never read for calls, or a native
 * call, which passes as one before the finish would (`native-conflict` under
 * `'error'` once a rescued call went out).
 */
export type Late = { kind: 'usage' | 'empty' | 'content' | 'native'; choice: number }
export const late: fc.Arbitrary<Late | undefined> = fc.option(fc.record({ kind: fc.constantFrom<Late['kind']>('usage', 'empty', 'content', 'native'), choice: fc.nat() }), { nil: undefined })
export const lateUsage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }

/**
 * The late chunk (the stream's `head` fields: the SDK reads another `id` as
 * another completion) for right after its choice's finish, none when that
 * finish was not sent: `at` is its place among the chunks of `sent`.
 * `checked` is `sent` with the late delta in its place, marked `late`, for
 * {@link checkChoice}: its text is held to "every character out once" too.
 */
export function placeLate(sent: readonly Sent[], late: Late | undefined, choices: number, head: object): { sent: readonly Sent[]; checked: readonly Sent[]; late?: { at: number; chunk: Record<string, unknown> } } {
  const index = late === undefined ? -1 : late.choice % choices
  const finish = sent.findIndex((m) => m.index === index && m.finish !== undefined)
  if (late === undefined || finish === -1) return { sent, checked: sent }
  const native = { index: 0, id: 'nat_late', type: 'function', function: { name: 'ls', arguments: '{}' } }
  const delta = late.kind === 'content' ? { content: 'late <｜DSML｜tool_calls>' } : late.kind === 'native' ? { tool_calls: [native] } : { content: '' }
  const chunk = late.kind === 'usage' ? { ...head, choices: [], usage: lateUsage } : { ...head, choices: [{ index, delta, finish_reason: null }], ...(late.kind === 'empty' ? { usage: lateUsage } : {}) }
  const checked = late.kind === 'usage' ? sent : [...sent.slice(0, finish + 1), { index, delta, late: true as const }, ...sent.slice(finish + 1)]
  return { sent, checked, late: { at: finish + 1, chunk } }
}

/** One choice's output: terminal rules, natives as sent, and the accounting; what came after its finish goes out raw after it. */
export function checkChoice(index: number, kept: readonly Sent[], out: readonly ChatCompletionChunk[], opts: OpenAIAdapterOptions, broke: boolean): void {
  const all = kept.filter((m) => m.index === index)
  const mine = all.filter((m) => m.late !== true)
  const text = (list: readonly Sent[]) => list.map((m) => (typeof m.delta.content === 'string' ? m.delta.content : '')).join('')
  const sent = text(mine)
  const lateSent = text(all.filter((m) => m.late === true))
  const finished = mine.some((m) => m.finish !== undefined)
  const natives = mine.filter((m) => m.delta.tool_calls !== undefined).length
  const lateNatives = all.filter((m) => m.late === true && m.delta.tool_calls !== undefined).length
  const said: Said[] = []
  const calls = new Map<number, Said & { call: string }>()
  let finish: string | null = null
  let natOut = 0
  /** What went out for the choice after its finish: its late text, raw. */
  let lateSaid = ''
  for (const c of out) {
    for (const ch of c.choices) {
      if (ch.index !== index) continue
      const d = ch.delta as { content?: string | null; reasoning_content?: string | null; tool_calls?: ChatCompletionChunk.Choice.Delta.ToolCall[] }
      if (finish !== null) {
        expect(d.tool_calls?.every((t) => t.id?.startsWith('nat_') === true) ?? true, 'no rescued call after the finish').toBe(true)
        expect(ch.finish_reason ?? null, 'one finish').toBeNull()
        lateSaid += (d.reasoning_content ?? '') + (d.content ?? '')
        natOut += d.tool_calls?.length ?? 0
        continue
      }
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
  expect(natOut, 'native calls pass').toBe(natives + lateNatives)
  expect(lateSaid, `choice ${index}: the text after its finish goes out raw`).toBe(lateSent)
  const prefer = opts.onConflict === 'prefer-native'
  const lost = account(sent, rawsOf(sent, resolveAdapterOptions(opts).sieve, cut), said, { moved: prefer, dropped: prefer && natives > 0, broke: cut })
  expect(lost, `choice ${index}: ${JSON.stringify(sent)} → ${JSON.stringify(said)}`).toBeUndefined()
  if (finished && !cut) expect(finish).toBe(calls.size > 0 || natives > 0 ? 'tool_calls' : 'stop')
}
