/**
 * Which upstream answers the repair can read: the fields `toolsieve/openai`
 * reads must have the types it reads them as. Anything else (content as an
 * array of parts, a `null` choice, a number where text goes) is not the
 * repair's to change: it goes on as it came (a chunk where it stood) rather
 * than fail an answer the upstream gave, and billed.
 */

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const absent = (v: unknown): boolean => v === null || v === undefined
const text = (v: unknown): boolean => absent(v) || typeof v === 'string'
const objects = (v: unknown): boolean => absent(v) || (Array.isArray(v) && v.every(isObject))

/** A choice's index: absent (read as 0) or an integer, 0 or more. */
const index = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 0)

/** A message (whole) or a delta (streamed): text content, tool calls as objects, a legacy call as an object. */
function message(m: unknown): boolean {
  if (absent(m)) return true
  if (!isObject(m)) return false
  return text(m.content) && objects(m.tool_calls) && (absent(m.function_call) || isObject(m.function_call))
}

/** A choices list: absent, or objects whose message (or delta) the repair reads. */
function choices(list: unknown, field: 'message' | 'delta'): boolean {
  if (absent(list)) return true
  return Array.isArray(list) && list.every((c) => isObject(c) && index(c.index) && message(c[field]))
}

/** A native call, or what may be one: an object among `tool_calls` (or `tool_calls` an object), a legacy call object. */
function callIn(m: unknown): boolean {
  if (!isObject(m)) return false
  const calls = m.tool_calls
  return isObject(calls) || (Array.isArray(calls) && calls.some(isObject)) || isObject(m.function_call)
}

/**
 * A chat completion chunk the repair reads: one of the shape it reads, or
 * one that carries a native call whatever else is in it. A native call must
 * pass the adapter's conflict gate (a rescued call beside it could run
 * twice), so such a chunk is never passed as it came: the adapter reads it,
 * or ends the answer with `invalid-chunk`, after the text it held.
 */
export function readableChunk(chunk: unknown): chunk is Record<string, unknown> {
  if (!isObject(chunk)) return false
  const list = chunk.choices
  return choices(list, 'delta') || (Array.isArray(list) && list.some((c) => isObject(c) && callIn(c.delta)))
}

/** A whole chat completion the repair can read. */
export function readableCompletion(completion: unknown): completion is Record<string, unknown> {
  return isObject(completion) && choices(completion.choices, 'message')
}

/** A Responses event that is or holds a native call (its item, or an item of its response's output). */
function responsesCall(event: Record<string, unknown>): boolean {
  const isCall = (item: unknown): boolean => isObject(item) && typeof item.type === 'string' && item.type.includes('call')
  if (typeof event.type === 'string' && event.type.includes('call')) return true
  if (isCall(event.item)) return true
  const output = isObject(event.response) ? event.response.output : undefined
  return Array.isArray(output) && output.some(isCall)
}

/**
 * A Responses stream event the repair reads: a `type`, text where text
 * goes, lists where lists go; or one that is or holds a native call, which
 * the adapter must read whatever else is in it (see {@link readableChunk}).
 */
export function readableResponsesEvent(event: unknown): event is Record<string, unknown> {
  if (!isObject(event) || typeof event.type !== 'string') return false
  return readableEvent(event) || responsesCall(event)
}

function readableEvent(event: Record<string, unknown>): boolean {
  if (event.type === 'response.output_text.delta' && typeof event.delta !== 'string') return false
  if (!absent(event.logprobs) && !Array.isArray(event.logprobs)) return false
  if (!absent(event.item) && !isObject(event.item)) return false
  const response = event.response
  return absent(response) || (isObject(response) && (absent(response.output) || Array.isArray(response.output)))
}
