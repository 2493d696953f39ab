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

/** A chat completion chunk the repair can read. */
export function readableChunk(chunk: unknown): chunk is Record<string, unknown> {
  return isObject(chunk) && choices(chunk.choices, 'delta')
}

/** A whole chat completion the repair can read. */
export function readableCompletion(completion: unknown): completion is Record<string, unknown> {
  return isObject(completion) && choices(completion.choices, 'message')
}

/** A Responses stream event the repair can read: a `type`, text where text goes, lists where lists go. */
export function readableResponsesEvent(event: unknown): event is Record<string, unknown> {
  if (!isObject(event) || typeof event.type !== 'string') return false
  if (event.type === 'response.output_text.delta' && typeof event.delta !== 'string') return false
  if (!absent(event.logprobs) && !Array.isArray(event.logprobs)) return false
  if (!absent(event.item) && !isObject(event.item)) return false
  const response = event.response
  return absent(response) || (isObject(response) && (absent(response.output) || Array.isArray(response.output)))
}
