/**
 * `repairResponse`: one upstream answer to a repaired route, repaired. The
 * one repair path of toolsieve's HTTP layer: `sieveFetch` calls it for each
 * request, and a server (the proxy) can call it with the request body it
 * read and the `Response` it got.
 */
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import { adapterPart, type RepairReport, type SieveFetchOptions } from './options.js'
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
 * stream's after the text the sieve held).
 *
 * ```ts
 * const upstream = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request) })
 * return repairResponse('chat', request, upstream, { onDiagnostic: log })
 * ```
 *
 * @param route which API the request went to (see {@link routeOf})
 * @param request the request's body, parsed
 * @param upstream the upstream's response, body unread
 */
export async function repairResponse(route: RouteKind, request: Record<string, unknown>, upstream: Response, options?: SieveFetchOptions | null): Promise<Response> {
  const report: RepairReport = { route, mode: 'passed', rescued: 0 }
  const onReport = options?.onReport ?? undefined
  const done = (): void => onReport?.(report)
  const pass = (note: string | undefined): Response => {
    if (note !== undefined) report.note = `not repaired: ${note}`
    done()
    return upstream
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
  done()
  if (outcome.kind === 'as-is') return answer(outcome.body as Body, init, upstream)
  // the response still comes (a rejected fetch is retried by the SDKs); reading its body throws the caller's error
  if (outcome.kind === 'failed') return answer(failing(outcome.error), init, upstream)
  if (outcome.status !== undefined) return answer(outcome.text, { status: outcome.status, headers: { 'content-type': 'application/json' } }, upstream)
  return answer(outcome.text, init, upstream)
}
