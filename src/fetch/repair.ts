/**
 * `repairResponse`: one upstream answer to a repaired route, repaired. The
 * one repair path of toolsieve's HTTP layer: `sieveFetch` calls it for each
 * request, and a server (the proxy) can call it with the request body it
 * read and the `Response` it got.
 */
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import { adapterPart, refuseUnknownFetchOptions, type RepairReport, type SieveFetchOptions } from './options.js'
import { dialectOfModel, requestOptions, type RouteKind } from './request.js'
import { repairEventStream } from './stream.js'
import { repairWhole } from './whole.js'

type Body = ConstructorParameters<typeof Response>[0]

/** Encodings every `fetch` decodes itself: a body that had one reaches us as plain bytes. */
const decoded = new Set(['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br'])

/** The upstream's headers for a body written anew: without its length and encoding (both change). */
function rewrittenHeaders(upstream: Response): Headers {
  const headers = new Headers(upstream.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  return headers
}

/** A body whose first read fails with `error`, the value itself. */
function failing(error: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      c.error(error)
    },
  })
}

/** Statuses whose response has no body: there is none to fail. */
const bodiless = new Set([101, 103, 204, 205, 304])

/**
 * `out` with its body failing with `error`, what the caller's `onReport`
 * threw: its status and headers kept (a rejected fetch is retried by the
 * SDKs), its own body cancelled. A status with no body cannot carry the
 * error, and it is thrown.
 */
function failed(out: Response, error: unknown, upstream: Response): Response {
  if (bodiless.has(out.status)) throw error
  out.body?.cancel(error).catch(() => {})
  return answer(failing(error), { status: out.status, statusText: out.statusText, headers: rewrittenHeaders(out) }, upstream)
}

/** A new response that still says where it came from (`url` is read by some clients' logs). */
function answer(body: Body | null, init: ResponseInit, upstream: Response): Response {
  const out = new Response(body, init)
  if (upstream.url !== '') Object.defineProperty(out, 'url', { value: upstream.url })
  return out
}

/**
 * Repairs an upstream's answer to a chat completions or Responses request:
 *
 * - an event stream (`text/event-stream`) is repaired as it streams;
 * - a JSON chat completion or Responses object is repaired whole;
 * - anything else passes as it came, the same `Response` object: a status
 *   outside 2xx, another content type, no body, an encoding the runtime
 *   did not decode, a JSON body that is not the route's answer (its bytes),
 *   a request whose `tools` the adapter refuses.
 *
 * The request's `tools`, conversation (`messages` or `input`, for
 * `quoted`) and `thinking` are read from `request`, by the rules of
 * {@link requestOptions}. When the sieve refuses an answer
 * (`native-conflict`, or `call-aborted` with `streamArguments`), a whole
 * answer becomes a 502 and a stream ends with an error event, both in
 * OpenAI's error shape, so the SDKs throw an API error instead of running a
 * call twice or half. An error the caller's `onDiagnostic` throws is not
 * the sieve's: the response keeps the upstream's status and headers and its
 * body fails with that error (a whole answer's at the first read, a
 * stream's after the text the sieve held). So does one `onReport` throws:
 * a stream's body after all it sent (unless it already fails: the first
 * error stays), a whole or passed answer's at its first read (a status with
 * no body, 204 or 304, cannot carry it: then this throws).
 *
 * ```ts
 * const upstream = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request) })
 * return repairResponse('chat', request, upstream, { onDiagnostic: log })
 * ```
 *
 * @param route which API the request went to (see {@link routeOf})
 * @param request the request's body, parsed
 * @param upstream the upstream's response, body unread
 * @throws {ToolsieveError} (rejects with) `invalid-option` for a key that is no option, naming it.
 */
export async function repairResponse(route: RouteKind, request: Record<string, unknown>, upstream: Response, options?: SieveFetchOptions | null): Promise<Response> {
  // a misspelled option would be ignored for every response: refused at once, as sieveFetch refuses it
  refuseUnknownFetchOptions(options)
  const report: RepairReport = { route, mode: 'passed', rescued: 0 }
  const onReport = options?.onReport ?? undefined
  /** Gives the report; what the callback throws is the caller's, returned boxed (`undefined` may be thrown too). */
  const done = (): { error: unknown } | undefined => {
    try {
      onReport?.(report)
    } catch (error) {
      return { error }
    }
    return undefined
  }
  const pass = (note: string | undefined): Response => {
    if (note !== undefined) report.note = `not repaired: ${note}`
    const threw = done()
    return threw === undefined ? upstream : failed(upstream, threw.error, upstream)
  }
  if (upstream.status < 200 || upstream.status > 299) return pass(undefined)
  if (upstream.body === null) return pass('no body')
  const encoding = (upstream.headers.get('content-encoding') ?? '').trim().toLowerCase()
  if (!decoded.has(encoding)) return pass(`content-encoding ${encoding}`)
  const type = (upstream.headers.get('content-type') ?? '').toLowerCase()
  const streamed = type.includes('text/event-stream')
  if (!streamed && !type.includes('json')) return pass(`content-type ${type || 'none'}`)

  const adapter: OpenAIAdapterOptions = { ...adapterPart(options), ...requestOptions(route, request) }
  // no dialect or grammar of the caller's: the request's model picks one the sieve reads (Qwen3-Coder, MiniMax-M2…)
  if (adapter.dialect == null && adapter.grammar == null) {
    const dialect = dialectOfModel(request.model)
    if (dialect !== undefined) {
      adapter.dialect = dialect
      report.dialect = dialect
    }
  }
  const init = { status: upstream.status, statusText: upstream.statusText, headers: rewrittenHeaders(upstream) }
  if (streamed) {
    let body: ReadableStream<Uint8Array>
    try {
      body = repairEventStream(route, upstream.body, adapter, report, done, options?.maxEventSize ?? undefined)
    } catch (error) {
      // a request the adapter cannot take (a tool it refuses) is the upstream's to answer, not a reason to fail the call
      return pass(`${String((error as { code?: unknown }).code ?? 'error')}: ${(error as Error).message}`)
    }
    report.mode = 'stream'
    return answer(body, init, upstream)
  }
  report.mode = 'whole'
  const outcome = await repairWhole(route, upstream.body, adapter, report)
  const threw = done()
  // the response still comes (a rejected fetch is retried by the SDKs); reading its body throws the caller's error, the first one
  if (outcome.kind === 'failed') return answer(failing(outcome.error), init, upstream)
  let out: Response
  if (outcome.kind === 'as-is') out = answer(outcome.body as Body, init, upstream)
  else if (outcome.status !== undefined) out = answer(outcome.text, { status: outcome.status, headers: { 'content-type': 'application/json' } }, upstream)
  else out = answer(outcome.text, init, upstream)
  return threw === undefined ? out : failed(out, threw.error, upstream)
}
