/**
 * `wrapGenerate`: the model's content with its text sieved. The text parts go
 * through one sieve, in order, and each becomes what the sieve made of it:
 * text, reasoning and rescued `tool-call` parts, in the order they stood in
 * the text. Other parts stay where they were.
 */
import { createActionSieve, type AdapterAction, type ResolvedAdapterOptions } from '../adapters/index.js'
import { ToolsieveError } from '../errors.js'
import { isNativeCall, toolCallsReason } from './stream.js'
import type { ContentPartLike, FinishReasonLike, GenerateResultLike } from './types.js'

/**
 * The result with its content sieved and, when calls were rescued, the
 * finish reason `tool-calls`. A native call and a rescued call in one result
 * throw `native-conflict` (`onConflict: 'error'`); with `'prefer-native'`
 * the rescued calls are dropped.
 */
export function sieveContent<R extends GenerateResultLike>(result: R, resolved: ResolvedAdapterOptions): R {
  const sieve = createActionSieve(resolved)
  const content: ContentPartLike[] = []
  /** Our own text and reasoning parts (which later pieces of the same kind join) and rescued calls. */
  const mine = new WeakSet<ContentPartLike>()
  let rescued = 0
  let native = false
  const add = (type: 'text' | 'reasoning', text: string) => {
    const last = content[content.length - 1]
    if (last !== undefined && last.type === type && mine.has(last)) last.text = (last.text as string) + text
    else {
      const part = { type, text }
      mine.add(part)
      content.push(part)
    }
  }
  const apply = (actions: AdapterAction[]) => {
    for (const a of actions) {
      if (a.type === 'text') add('text', a.text)
      else if (a.type === 'reasoning') add('reasoning', a.text)
      else if (a.type === 'call-end') {
        rescued++
        const call = { type: 'tool-call', toolCallId: a.id, toolName: a.call.name, input: a.call.arguments }
        mine.add(call)
        content.push(call)
      }
    }
  }
  for (const part of result.content as ReadonlyArray<ContentPartLike>) {
    if (part.type === 'text') {
      apply(sieve.push(typeof part.text === 'string' ? part.text : ''))
      continue
    }
    if (isNativeCall(part)) native = true
    content.push(part)
  }
  apply(sieve.end())
  if (native && rescued > 0) {
    if (resolved.onConflict !== 'prefer-native') {
      throw new ToolsieveError('native-conflict', 'the model returned native tool calls and tool-call markup in its text; one may be the other again, so none is returned (onConflict: "prefer-native" keeps the native calls)')
    }
    return { ...result, content: content.filter((p) => !(p.type === 'tool-call' && mine.has(p))) }
  }
  return rescued > 0 ? { ...result, content, finishReason: toolCallsReason(result.finishReason as FinishReasonLike) } : { ...result, content }
}
