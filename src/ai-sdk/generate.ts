/**
 * `wrapGenerate`: the model's content with its text sieved. Consecutive text
 * parts are one text for the sieve (as in `wrapStream`: a fence opened in
 * one part hides a block in the next), and become what the sieve made of
 * it: text, reasoning and rescued `tool-call` parts, in the order they stood
 * in the text; what the sieve gives while reading a part goes into parts of
 * its own (text it held across a part's end comes out with the next part).
 * Other parts stay where they were.
 */
import { AnswerSieves, optionalArray, optionalString, record, type ActionSieve, type AdapterAction, type ResolvedAdapterOptions } from '../adapters/index.js'
import { ToolsieveError } from '../errors.js'
import { isNativeCall, toolCallsReason, upstreamCallId } from './stream.js'
import type { ContentPartLike, GenerateResultLike } from './types.js'

/**
 * The result with its content sieved and, when calls were rescued, the
 * finish reason `tool-calls`. A native call and a rescued call in one result
 * throw `native-conflict` (`onConflict: 'error'`); with `'prefer-native'`
 * the rescued calls are dropped. A result of the wrong shape (not an
 * object, `content` not a list, a part not an object, a text part's `text`
 * not a string, a finish reason neither a string nor `{ unified }` where it
 * is rewritten) throws `invalid-chunk` naming the field. A rescued call's
 * id is unique in the result, beside the ids of its provider-executed calls
 * (`upstreamCallId`), wherever they stand.
 */
export function sieveContent<R extends GenerateResultLike>(result: R, resolved: ResolvedAdapterOptions): R {
  record(result, 'result')
  const given = optionalArray(result.content, 'content')
  if (given === undefined) return result
  const content: ContentPartLike[] = []
  /** The rescued calls. */
  const mine = new WeakSet<ContentPartLike>()
  /** The text or reasoning part the next piece of the same kind joins: one of ours, from the same upstream part. */
  let open: ContentPartLike | null = null
  let rescued = 0
  let native = false
  /** A sieve per run of text parts: only the first starts inside the reasoning, and call ids are unique over all of them. */
  const sieves = new AnswerSieves(resolved)
  // the whole result is known before it is read: a provider-executed call after the text holds its id as well
  for (const part of given) if (part !== null && typeof part === 'object') sieves.holdId(upstreamCallId(part as ContentPartLike))
  const add = (type: 'text' | 'reasoning', text: string) => {
    if (open !== null && open.type === type) open.text = (open.text as string) + text
    else {
      open = { type, text }
      content.push(open)
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
        open = null
      }
    }
  }
  /** The sieve of the run of consecutive text parts being read. */
  let sieve: ActionSieve | null = null
  for (const [i, item] of given.entries()) {
    const part = record(item, `content[${i}]`) as ContentPartLike
    if (part.type === 'text') {
      const text = optionalString(part.text, `content[${i}].text`)
      open = null
      sieve ??= sieves.next()
      apply(sieve.push(text))
      continue
    }
    // the run of text is over: what its sieve held joins the last text part's output
    if (sieve !== null) apply(sieve.end())
    sieve = null
    open = null
    if (isNativeCall(part)) native = true
    content.push(part)
  }
  if (sieve !== null) apply(sieve.end())
  if (native && rescued > 0) {
    if (resolved.onConflict !== 'prefer-native') {
      throw new ToolsieveError('native-conflict', 'the model returned native tool calls and tool-call markup in its text; one may be the other again, so none is returned (onConflict: "prefer-native" keeps the native calls)')
    }
    return { ...result, content: content.filter((p) => !(p.type === 'tool-call' && mine.has(p))) }
  }
  return rescued > 0 ? { ...result, content, finishReason: toolCallsReason(result.finishReason) } : { ...result, content }
}
