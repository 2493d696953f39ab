/**
 * The repaired routes: a chat completion (streamed or not) or a streamed
 * Responses call goes upstream as the client sent it, and its response
 * comes back through `toolsieve/openai`, with the request's `tools`,
 * `messages` (or `input`) and `thinking` as the adapter's options. What
 * cannot be repaired (an upstream error, a body that is not what the route
 * returns, a chunk of a shape the repair does not read) passes through as
 * it came. A stream that breaks off (the upstream fails, falls silent, or
 * sends an event over the bound) gives what the repair held, then an error
 * event.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import type { DiagnosticEvent, ErrorEvent } from '../index.js'
import { resolveAdapterOptions } from '../adapters/index.js'
import { sieveChatStream, sieveResponsesStream, type OpenAIAdapterOptions } from '../openai/index.js'
import { repairCompletion } from './proxy-completion.js'
import { decodedBody, parseJson, relay, rewrittenHeaders, write } from './proxy-http.js'
import { readableChunk, readableResponsesEvent } from './proxy-shapes.js'
import { decodeUtf8, sseEvents, sseFrame, type SseEvent } from './proxy-sse.js'

/** What a request's log line says. */
export interface RepairLog {
  /** `stream` or `whole` (repaired), `passed` (relayed as it came), `failed` (the proxy answered with an error). */
  mode: string
  rescued: number
  diagnostics: Map<string, number>
  /** Why the response was not repaired, or what stopped it. */
  note?: string
  /** The request's path, without its query (which may carry a key). */
  path: string
  /** The upstream's side broke off (not the client's). */
  upstreamFailed?: boolean
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

/**
 * Why the adapter cannot take these options (a tool schema the validator
 * cannot compile: a draft-04 `$schema`, a remote `$ref`), or `undefined`
 * when it can. Compiled schemas are cached by object, so the adapter's own
 * resolving later costs nothing more.
 */
export function readableOptions(options: OpenAIAdapterOptions): string | undefined {
  try {
    resolveAdapterOptions(options)
    return undefined
  } catch (error) {
    return (error as Error).message.split('\n')[0]
  }
}

/** An error inside an event stream, in OpenAI's shape: the SDKs throw it as an APIError. */
function streamError(error: unknown, fallback = 'repair-failed'): string {
  const code = (error as { code?: unknown }).code
  return sseFrame(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error), type: 'toolsieve_error', code: typeof code === 'string' ? code : fallback } }))
}

/** The stream broke off upstream: an error of ours keeps its code (`upstream-timeout`, `event-too-large`); a socket's is `upstream-failed`. */
function brokeOff(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code
  const ours = code === 'upstream-timeout' || code === 'event-too-large'
  const message = `the upstream's stream broke off: ${(error as Error).message ?? String(error)}`
  return { code: ours ? code : 'upstream-failed', message: typeof code === 'string' && !ours ? `${message} (${code})` : message }
}

/** An error event from upstream: named `error`, or a chunk that holds an `error` and no choices (chat), or `type: 'error'` (Responses). */
function isErrorEvent(kind: RouteKind, event: SseEvent & { kind: 'data' }, parsed: unknown): boolean {
  if (event.event === 'error') return true
  if (parsed === null || typeof parsed !== 'object') return false
  const o = parsed as Record<string, unknown>
  return kind === 'chat' ? o.error !== undefined && !Array.isArray(o.choices) : o.type === 'error'
}


/**
 * Streams a repaired event stream. Comments (keep-alives), events that are
 * not JSON and chunks of a shape the repair does not read go out as they
 * arrive; `data: [DONE]` is written after the repaired chunks if upstream
 * sent it. Event names are kept. When upstream sends an error event, or its
 * stream breaks off, the repair's input ends there: what it held goes out
 * first, then the error (and, after upstream's error event, the rest of its
 * stream as it comes). A failure of the adapter itself (`native-conflict`)
 * ends the stream with an error event rather than a call that could
 * duplicate a native one.
 */
async function repairStream(kind: RouteKind, upstream: IncomingMessage, body: Readable, res: ServerResponse, options: OpenAIAdapterOptions, log: RepairLog, eventLimit: number): Promise<void> {
  res.writeHead(upstream.statusCode ?? 200, rewrittenHeaders(upstream))
  const events = sseEvents(decodeUtf8(body as AsyncIterable<Buffer>), eventLimit)[Symbol.asyncIterator]()
  let done = false
  /** Why upstream's stream ended early: a socket error, the timeout, an event over the bound. */
  let failure: unknown
  /** Upstream's own error event, written once the repair has given what it held. */
  let errorFrame: string | undefined
  /** The name of the event the repair is reading: the chunks made from it go out under it. */
  let name: string | undefined
  let unread = 0
  const natives = new Set<string>()
  async function* chunks(): AsyncGenerator<Record<string, unknown>> {
    for (;;) {
      let next: IteratorResult<SseEvent>
      try {
        next = await events.next()
      } catch (error) {
        failure = error
        return
      }
      if (next.done === true) return
      const event = next.value
      if (event.kind === 'comment') {
        await write(res, `${event.line}\n\n`)
        continue
      }
      if (event.data.trim() === '[DONE]') {
        done = true
        continue
      }
      const parsed = parseJson(event.data)
      if (isErrorEvent(kind, event, parsed)) {
        errorFrame = sseFrame(event.data, event.event)
        return
      }
      if (parsed === undefined || !(kind === 'chat' ? readableChunk(parsed) : readableResponsesEvent(parsed))) {
        // Not JSON, or not a shape the repair reads: it goes out where it stood, as it came.
        if (parsed !== undefined) unread++
        await write(res, sseFrame(event.data, event.event))
        continue
      }
      countNative(kind, parsed as Record<string, unknown>, natives)
      name = event.event
      yield parsed as Record<string, unknown>
    }
  }
  try {
    const out =
      kind === 'chat'
        ? sieveChatStream(chunks() as AsyncIterable<ChatCompletionChunk>, options)
        : sieveResponsesStream(chunks() as unknown as AsyncIterable<ResponseStreamEvent>, options)
    for await (const chunk of out as AsyncIterable<Record<string, unknown>>) {
      log.rescued += rescuedIn(kind, chunk, natives)
      await write(res, sseFrame(JSON.stringify(chunk), kind === 'responses' && typeof chunk.type === 'string' ? chunk.type : name))
    }
  } catch (error) {
    if (!res.destroyed) {
      log.note = `stopped: ${(error as { code?: unknown }).code ?? (error as Error).message}`
      await write(res, streamError(error))
    }
    upstream.destroy()
    res.end()
    return
  }
  if (unread > 0) log.note = `${unread} chunk${unread === 1 ? '' : 's'} passed as ${unread === 1 ? 'it' : 'they'} came (not a shape the repair reads)`
  const noted = (why: string): void => {
    log.note = log.note === undefined ? why : `${log.note}, ${why}`
  }
  if (errorFrame !== undefined) {
    noted('upstream sent an error event')
    await write(res, errorFrame)
    await relayEvents(events, res)
  } else if (failure !== undefined) {
    // A client that went away aborts the upstream too: that failure is the client's, and the log says so.
    if (!res.destroyed) {
      const { code, message } = brokeOff(failure)
      log.upstreamFailed = true
      noted(`upstream failed mid-stream (${code === 'upstream-failed' ? describeError(failure) : code})`)
      await write(res, streamError(Object.assign(new Error(message), { code })))
    }
    upstream.destroy()
  } else if (done) await write(res, 'data: [DONE]\n\n')
  res.end()
}

const describeError = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException
  return e.code ?? e.message ?? String(error)
}

/** After upstream's error event: the rest of its stream, as it comes, unrepaired; a failure now only ends it. */
async function relayEvents(events: AsyncIterator<SseEvent>, res: ServerResponse): Promise<void> {
  try {
    for (let next = await events.next(); next.done !== true; next = await events.next()) {
      const e = next.value
      await write(res, e.kind === 'comment' ? `${e.line}\n\n` : sseFrame(e.data, e.event))
    }
  } catch {
    // The error event already went out: the stream just ends.
  }
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

/**
 * The upstream's response to a repaired route. Errors (4xx, 5xx) and bodies
 * of another type pass through as they are; an event stream is repaired as
 * it streams; a JSON chat completion is repaired whole.
 */
export async function repairResponse(
  kind: RouteKind,
  upstream: IncomingMessage,
  res: ServerResponse,
  options: OpenAIAdapterOptions,
  log: RepairLog,
  passThrough: () => void,
  eventLimit: number,
): Promise<void> {
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
    await repairStream(kind, upstream, body, res, options, log, eventLimit)
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
