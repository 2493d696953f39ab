/**
 * A whole (non-streamed) JSON answer, repaired: a chat completion through
 * `sieveChatCompletion`, a Responses object through `sieveResponse`. The
 * body is read up to a bound; one over it, one that is not JSON, or not the
 * shape of the route's answer, goes on as the bytes that came. An error the
 * caller's `onDiagnostic` throws is the caller's: none of the answer goes
 * on, and its body fails with that error.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions'
import type { Response as ResponsesObject } from 'openai/resources/responses/responses'
import { sieveChatCompletion } from '../openai/chat-completion.js'
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import { sieveResponse } from '../openai/response.js'
import { CallerError, described } from './caller-error.js'
import type { RepairReport } from './options.js'
import type { RouteKind } from './request.js'
import { readableCompletion } from './shapes.js'
import { errorBody } from './wire.js'

/** Most bytes of a whole answer held to repair it. */
export const WHOLE_LIMIT = 64 * 1024 * 1024

/** What becomes of a whole answer: a new body (and status), the bytes as they came, or a body that fails with the caller's error. */
export type WholeOutcome =
  | { kind: 'repaired'; status: number | undefined; text: string }
  | { kind: 'as-is'; body: ReadableStream<Uint8Array> | Uint8Array }
  | { kind: 'failed'; error: unknown }

/** The bytes read so far, then the rest of the reader: a body over the bound goes on unread. */
function rest(chunks: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (i < chunks.length) return c.enqueue(chunks[i++]!)
      const { done, value } = await reader.read()
      if (done) c.close()
      else c.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/**
 * Counts the calls a repaired answer rescued: the calls it has beyond
 * upstream's. The repair keeps every native call (a choice's
 * `message.tool_calls` first, its legacy `function_call` as one more) and
 * adds the rescued ones after them, so the count is the difference, choice
 * by choice. Not by id: a rescued call's id can be the model's own (Kimi's
 * `functions.get_weather:0`), the same as a native call's in another choice.
 */
function rescuedCalls(kind: RouteKind, before: unknown, after: unknown): number {
  if (kind === 'chat') {
    const choices = (answer: unknown): unknown[] => {
      const list = (answer as { choices?: unknown }).choices
      return Array.isArray(list) ? list : []
    }
    const calls = (choice: unknown, legacy: boolean): number => {
      const message = (choice as { message?: { tool_calls?: unknown; function_call?: unknown } } | null)?.message
      const listed = Array.isArray(message?.tool_calls) ? message.tool_calls.length : 0
      return listed + (legacy && message?.function_call !== null && typeof message?.function_call === 'object' ? 1 : 0)
    }
    const upstream = choices(before)
    return choices(after).reduce<number>((n, choice, i) => n + Math.max(0, calls(choice, false) - calls(upstream[i], true)), 0)
  }
  const items = (answer: unknown): number => {
    const output = (answer as { output?: unknown }).output
    return Array.isArray(output) ? output.filter((i: { type?: unknown } | null) => i?.type === 'function_call').length : 0
  }
  return Math.max(0, items(after) - items(before))
}

/**
 * Reads and repairs a whole answer. An answer with native and rescued calls
 * (`native-conflict`) becomes a 502 with an OpenAI-shaped error, as calls
 * that may run twice are not sent; one the sieve cannot read for any other
 * reason goes on as it came. When the caller's `onDiagnostic` throws, the
 * outcome is `failed` with the thrown value: passing the answer on as it
 * came would lose the caller's error and send the markup it was repairing.
 */
export async function repairWhole(kind: RouteKind, body: ReadableStream<Uint8Array>, options: OpenAIAdapterOptions, report: RepairReport, limit = WHOLE_LIMIT): Promise<WholeOutcome> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size > limit) {
      report.mode = 'passed'
      report.note = `not repaired: body over ${limit} bytes`
      return { kind: 'as-is', body: rest(chunks, reader) }
    }
  }
  const bytes = concat(chunks, size)
  const asIs = (note: string): WholeOutcome => {
    report.mode = 'passed'
    report.note = `not repaired: ${note}`
    return { kind: 'as-is', body: bytes }
  }
  let answer: unknown
  try {
    answer = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return asIs('body is not JSON')
  }
  const shaped = answer !== null && typeof answer === 'object' && Array.isArray((answer as Record<string, unknown>)[kind === 'chat' ? 'choices' : 'output'])
  if (!shaped) return asIs(kind === 'chat' ? 'not a chat completion' : 'not a Responses object')
  if (kind === 'chat' && !readableCompletion(answer)) return asIs('not a shape the repair reads')
  const caller = new CallerError()
  const adapterOptions = caller.options(options)
  let repaired: unknown
  try {
    repaired = kind === 'chat' ? sieveChatCompletion(answer as ChatCompletion, adapterOptions) : sieveResponse(answer as ResponsesObject, adapterOptions)
  } catch (error) {
    if (caller.threw(error)) {
      report.note = `stopped: onDiagnostic threw: ${described(error)}`
      return { kind: 'failed', error }
    }
    const code = (error as { code?: unknown }).code
    // only calls that could run twice are refused; anything else the sieve cannot take (a tool it refuses, a field of another shape) is the upstream's answer, as it came
    if (code !== 'native-conflict') return asIs(`${typeof code === 'string' ? code : 'error'}: ${(error as Error).message}`)
    report.note = `refused: ${code}`
    return { kind: 'repaired', status: 502, text: JSON.stringify(errorBody(code, (error as Error).message)) }
  }
  const text = JSON.stringify(repaired)
  // nothing to repair: the bytes that came, not the same JSON written again
  if (text === JSON.stringify(answer)) return { kind: 'as-is', body: bytes }
  report.rescued = rescuedCalls(kind, answer, repaired)
  return { kind: 'repaired', status: undefined, text }
}
