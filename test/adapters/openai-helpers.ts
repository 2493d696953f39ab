/**
 * Shared by the `toolsieve/openai` specs: chat chunks as a server sends
 * them, streams cut into pieces, and an accumulator that reads the output
 * the way the SDK's ChatCompletionStream does (content joined, tool calls by
 * index, arguments concatenated), checking the wire rules on the way.
 */
import { expect } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'

export const block = (...invokes: string[]) => `<｜DSML｜tool_calls>\n${invokes.join('\n')}\n</｜DSML｜tool_calls>`
export const invoke = (name: string, ...params: string[]) => `<｜DSML｜invoke name="${name}">\n${params.join('\n')}\n</｜DSML｜invoke>`
export const param = (k: string, v: string, string = true) => `<｜DSML｜parameter name="${k}" string="${string}">${v}</｜DSML｜parameter>`

/** A chunk of one choice (index 0 unless given). */
export function chunk(delta: ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }, finish: ChatCompletionChunk.Choice['finish_reason'] = null, index = 0): ChatCompletionChunk {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek', choices: [{ index, delta, finish_reason: finish }] }
}

/** The chunks of one answer: a role chunk, `text` cut into `pieces`, a finish chunk. */
export function answer(pieces: readonly string[], finish: ChatCompletionChunk.Choice['finish_reason'] = 'stop'): ChatCompletionChunk[] {
  return [chunk({ role: 'assistant', content: '' }), ...pieces.map((content) => chunk({ content })), chunk({ content: null }, finish)]
}

/** `text` cut into pieces of `size` code points. */
export function cut(text: string, size: number): string[] {
  const points = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''))
  return out
}

export async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

export interface AccumulatedCall {
  id: string
  name: string
  arguments: string
}

export interface Accumulated {
  content: string
  reasoning: string
  calls: AccumulatedCall[]
  finish: string | null
}

/**
 * One choice of `chunks`, read as a consumer does. Checks that every tool
 * call's first delta brings `id`, `type: 'function'` and the name, and that
 * later deltas of it bring arguments only.
 */
export function accumulate(chunks: readonly ChatCompletionChunk[], index = 0): Accumulated {
  const out: Accumulated = { content: '', reasoning: '', calls: [], finish: null }
  for (const c of chunks) {
    for (const choice of c.choices) {
      if (choice.index !== index) continue
      const delta = choice.delta as ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null }
      if (typeof delta.content === 'string') out.content += delta.content
      if (typeof delta.reasoning_content === 'string') out.reasoning += delta.reasoning_content
      for (const t of delta.tool_calls ?? []) {
        const seen = out.calls[t.index]
        if (seen === undefined) {
          expect(t.id, 'a call opens with its id').toBeTypeOf('string')
          expect(t.type).toBe('function')
          expect(t.function?.name, 'a call opens with its name').toBeTypeOf('string')
          out.calls[t.index] = { id: t.id!, name: t.function!.name!, arguments: t.function?.arguments ?? '' }
        } else {
          expect(t.id === undefined || t.id === seen.id, 'a later delta keeps the id').toBe(true)
          seen.arguments += t.function?.arguments ?? ''
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) out.finish = choice.finish_reason
    }
  }
  expect(out.calls.every((c) => c !== undefined), 'tool call indexes are dense').toBe(true)
  return out
}

/** Ids `call_1`, `call_2`, … for deterministic expectations. */
export function counter(prefix = 'call_'): () => string {
  let n = 0
  return () => `${prefix}${++n}`
}

/** The error a promise rejects with (a test fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise
  } catch (e) {
    return e as { code?: string; message: string }
  }
  throw new Error('expected a rejection')
}
