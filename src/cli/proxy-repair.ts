/**
 * The repaired routes: a chat completion (streamed or not) or a streamed
 * Responses call goes upstream as the client sent it, and its response
 * comes back through `toolsieve/openai`, with the request's `tools`,
 * `messages` (or `input`) and `thinking` as the adapter's options. What
 * cannot be repaired (an upstream error, a body that is not what the route
 * returns) passes through as it came.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import type { DiagnosticEvent, ErrorEvent } from '../index.js'
import { sieveChatCompletion, sieveChatStream, sieveResponsesStream, type OpenAIAdapterOptions } from '../openai/index.js'
import { decodedBody, forwardHeaders, readBody, relay, write } from './proxy-http.js'
import { decodeUtf8, sseEvents, sseFrame } from './proxy-sse.js'

/** What a request's log line says. */
export interface RepairLog {
  /** `stream` or `whole` (repaired), `passed` (relayed as it came), `failed` (the proxy answered with an error). */
  mode: string
  rescued: number
  diagnostics: Map<string, number>
  /** Why the response was not repaired, or what stopped it. */
  note?: string
}

export type RouteKind = 'chat' | 'responses'

/** The adapter's options from the request body: its tools, the conversation the last user message is quoted from, thinking. */
export function adapterOptions(kind: RouteKind, request: Record<string, unknown>, log: RepairLog): OpenAIAdapterOptions {
  const options: OpenAIAdapterOptions = {
    onDiagnostic: (e: DiagnosticEvent | ErrorEvent) => log.diagnostics.set(e.code, (log.diagnostics.get(e.code) ?? 0) + 1),
  }
  if (Array.isArray(request.tools)) options.tools = request.tools
  const conversation = kind === 'chat' ? request.messages : request.input
  if (Array.isArray(conversation) || typeof conversation === 'string') options.quoted = conversation
  // Only the shapes the adapter reads (true / false / { type }): anything else is the upstream's business, not a reason to fail.
  const thinking = request.thinking
  if (typeof thinking === 'boolean' || (thinking !== null && typeof thinking === 'object' && typeof (thinking as { type?: unknown }).type === 'string')) {
    options.thinking = thinking as OpenAIAdapterOptions['thinking']
  }
  return options
}

/** Response headers for a body the proxy rewrote: the upstream's, without length and encoding (both change). */
function rewrittenHeaders(upstream: IncomingMessage): Record<string, string | string[]> {
  return forwardHeaders(upstream.headers, ['content-encoding']) as Record<string, string | string[]>
}

/** An error inside an event stream, in OpenAI's shape: the SDKs throw it as an APIError. */
function streamError(error: unknown): string {
  const code = (error as { code?: unknown }).code
  return sseFrame(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error), type: 'toolsieve_error', code: typeof code === 'string' ? code : 'repair-failed' } }))
}

/**
 * Streams a repaired event stream. Comments (keep-alives) go out as they
 * arrive; `data: [DONE]` is written after the repaired chunks if upstream
 * sent it. A failure of the adapter (`native-conflict`) ends the stream with
 * an error event rather than a call that could duplicate a native one.
 */
async function repairStream(kind: RouteKind, upstream: IncomingMessage, body: Readable, res: ServerResponse, options: OpenAIAdapterOptions, log: RepairLog): Promise<void> {
  res.writeHead(upstream.statusCode ?? 200, rewrittenHeaders(upstream))
  let done = false
  const natives = new Set<string>()
  async function* chunks(): AsyncGenerator<Record<string, unknown>> {
    for await (const event of sseEvents(decodeUtf8(body as AsyncIterable<Buffer>))) {
      if (event.kind === 'comment') {
        await write(res, `${event.line}\n\n`)
        continue
      }
      if (event.data.trim() === '[DONE]') {
        done = true
        continue
      }
      let parsed: Record<string, unknown>
      try {
        parsed = JSON.parse(event.data) as Record<string, unknown>
      } catch {
        // Not JSON: no chunk to repair; it goes out where it stood.
        await write(res, sseFrame(event.data, event.event))
        continue
      }
      countNative(kind, parsed, natives)
      yield parsed
    }
  }
  try {
    const out =
      kind === 'chat'
        ? sieveChatStream(chunks() as AsyncIterable<ChatCompletionChunk>, options)
        : sieveResponsesStream(chunks() as unknown as AsyncIterable<ResponseStreamEvent>, options)
    for await (const chunk of out as AsyncIterable<Record<string, unknown>>) {
      log.rescued += rescuedIn(kind, chunk, natives)
      const name = kind === 'responses' && typeof chunk.type === 'string' ? chunk.type : undefined
      await write(res, sseFrame(JSON.stringify(chunk), name))
    }
    if (done) await write(res, 'data: [DONE]\n\n')
  } catch (error) {
    if (res.destroyed) return
    log.note = `stopped: ${(error as { code?: unknown }).code ?? (error as Error).message}`
    await write(res, streamError(error))
  }
  res.end()
}

/** Ids of the calls upstream sent natively, so that they are not counted as rescued. */
function countNative(kind: RouteKind, chunk: Record<string, unknown>, natives: Set<string>): void {
  if (kind === 'chat') {
    for (const choice of (chunk.choices as { delta?: { tool_calls?: { id?: unknown }[] } }[] | undefined) ?? []) {
      for (const call of choice?.delta?.tool_calls ?? []) if (typeof call?.id === 'string') natives.add(call.id)
    }
  } else if (chunk.type === 'response.output_item.added') {
    const item = chunk.item as { type?: unknown; id?: unknown } | undefined
    if (item?.type === 'function_call' && typeof item.id === 'string') natives.add(item.id)
  }
}

/** Calls that went out in a chunk and were not upstream's own. */
function rescuedIn(kind: RouteKind, chunk: Record<string, unknown>, natives: Set<string>): number {
  let n = 0
  if (kind === 'chat') {
    for (const choice of (chunk.choices as { delta?: { tool_calls?: { id?: unknown }[] } }[] | undefined) ?? []) {
      for (const call of choice?.delta?.tool_calls ?? []) if (typeof call?.id === 'string' && !natives.has(call.id)) n++
    }
  } else if (chunk.type === 'response.output_item.added') {
    const item = chunk.item as { type?: unknown; id?: unknown } | undefined
    if (item?.type === 'function_call' && !(typeof item.id === 'string' && natives.has(item.id))) n++
  }
  return n
}

/** Most bytes of a non-streamed completion the proxy holds to repair it. */
const COMPLETION_LIMIT = 64 * 1024 * 1024

/** A whole completion, repaired; one that is not JSON (or too large) goes out as it came. */
async function repairCompletion(upstream: IncomingMessage, body: Readable, res: ServerResponse, options: OpenAIAdapterOptions, log: RepairLog): Promise<void> {
  const bytes = await readBody(body, COMPLETION_LIMIT)
  let completion: ChatCompletion | undefined
  try {
    if (bytes !== undefined) completion = JSON.parse(bytes.toString('utf8')) as ChatCompletion
  } catch {
    completion = undefined
  }
  if (bytes === undefined || completion === undefined || typeof completion !== 'object' || completion === null) {
    log.note = bytes === undefined ? 'not repaired: body over 64 MB' : 'not repaired: body is not JSON'
    const headers = rewrittenHeaders(upstream)
    res.writeHead(upstream.statusCode ?? 200, bytes === undefined ? headers : { ...headers, 'content-length': String(bytes.length) })
    res.end(bytes)
    return
  }
  const natives = new Set((completion.choices ?? []).flatMap((c) => (c?.message?.tool_calls ?? []).map((t) => t.id)))
  let text: string
  let status = upstream.statusCode ?? 200
  let headers = rewrittenHeaders(upstream)
  try {
    const repaired = sieveChatCompletion(completion, options)
    for (const c of repaired.choices ?? []) for (const t of c?.message?.tool_calls ?? []) if (!natives.has(t.id)) log.rescued++
    text = JSON.stringify(repaired)
  } catch (error) {
    // native-conflict (or a bad tool in the request): refuse, rather than send calls that may run twice.
    const code = (error as { code?: unknown }).code
    log.note = `refused: ${typeof code === 'string' ? code : (error as Error).message}`
    status = 502
    headers = { 'content-type': 'application/json' }
    text = JSON.stringify({ error: { message: (error as Error).message, type: 'toolsieve_error', code: typeof code === 'string' ? code : 'repair-failed' } })
  }
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) })
  res.end(text)
}

/**
 * The upstream's response to a repaired route. Errors (4xx, 5xx) and bodies
 * of another type pass through as they are; an event stream is repaired as
 * it streams; a JSON chat completion is repaired whole.
 */
export async function repairResponse(kind: RouteKind, upstream: IncomingMessage, res: ServerResponse, options: OpenAIAdapterOptions, log: RepairLog, passThrough: () => void): Promise<void> {
  const status = upstream.statusCode ?? 200
  const type = String(upstream.headers['content-type'] ?? '')
  const body = status >= 200 && status < 300 ? decodedBody(upstream) : undefined
  if (body === undefined) {
    log.mode = 'passed'
    if (status >= 200 && status < 300) log.note = `not repaired: content-encoding ${String(upstream.headers['content-encoding'])}`
    passThrough()
    return
  }
  if (type.includes('text/event-stream')) {
    log.mode = 'stream'
    await repairStream(kind, upstream, body, res, options, log)
  } else if (kind === 'chat' && type.includes('json')) {
    log.mode = 'whole'
    await repairCompletion(upstream, body, res, options, log)
  } else {
    log.mode = 'passed'
    log.note = kind === 'responses' ? 'not repaired: only streamed Responses are' : `not repaired: content-type ${type || 'none'}`
    if (body !== upstream) {
      // Decoding started: what goes out is the decoded body, without its encoding.
      res.writeHead(status, rewrittenHeaders(upstream))
      relay(body, res)
    } else passThrough()
  }
}
