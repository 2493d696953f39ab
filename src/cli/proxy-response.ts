/**
 * The bridge between Node's HTTP and the WHATWG `Response` that
 * `toolsieve/fetch`'s `repairResponse` takes and returns: the upstream's
 * answer as a `Response` (its body decoded from gzip, deflate or br, as a
 * `fetch` would have), and a `Response` written to the client, streamed,
 * with the client's backpressure respected.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { asIsHeaders, decodedBody, forwardHeaders } from './proxy-http.js'

/** Statuses whose response has no body: `new Response` refuses one. */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** True when `new Response` can carry this status (200 to 599). */
export const representable = (status: number | undefined): boolean => status !== undefined && status >= 200 && status <= 599

function toHeaders(headers: OutgoingHttpHeaders): Headers {
  const out = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) out.append(name, v)
    else out.set(name, String(value))
  }
  return out
}

/**
 * The upstream's answer as a `Response`, hop-by-hop headers left out. A 2xx
 * body in an encoding Node decodes comes decoded, without its encoding and
 * length (as `fetch` gives it); one in another encoding comes as it is, so
 * the repair passes it on untouched.
 *
 * @param upstream a response whose status {@link representable} accepts
 */
export function upstreamAnswer(upstream: IncomingMessage): Response {
  const status = upstream.statusCode ?? 502
  const decoded = status >= 200 && status < 300 ? decodedBody(upstream) : undefined
  const headers = decoded === undefined || decoded === upstream ? asIsHeaders(upstream.headers) : forwardHeaders(upstream.headers, ['content-encoding'])
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(decoded ?? upstream) as ReadableStream<Uint8Array>)
  return new Response(body, { status, statusText: upstream.statusMessage ?? '', headers: toHeaders(headers) })
}

/** A `Response`'s headers for `writeHead`: each name once, `set-cookie` as its list. */
function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of headers) if (name !== 'set-cookie') out[name] = value
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) out['set-cookie'] = cookies
  return out
}

/** Resolves when the client has read what was written, or has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * Writes a `Response` to the client: its status, headers and body, each
 * piece as it comes and no faster than the client reads. A client that goes
 * away cancels the body (and so the repair and the upstream's body).
 *
 * @returns the error the body failed with, once the head is sent (the
 *   caller says how the answer ends), or `undefined` when it ended well or
 *   the client went away
 */
export async function sendResponse(answer: Response, res: ServerResponse): Promise<unknown> {
  // a Response made here has no status text: Node's own reason phrase then
  if (answer.statusText === '') res.writeHead(answer.status, nodeHeaders(answer.headers))
  else res.writeHead(answer.status, answer.statusText, nodeHeaders(answer.headers))
  if (answer.body === null) {
    res.end()
    return undefined
  }
  const reader = answer.body.getReader()
  const gone = (): void => {
    if (!res.writableFinished) reader.cancel(new Error('the client went away')).catch(() => {})
  }
  res.on('close', gone)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (res.destroyed) return undefined
      if (!res.write(value)) await drained(res)
    }
  } catch (error) {
    return res.destroyed ? undefined : error
  } finally {
    res.off('close', gone)
  }
  res.end()
  return undefined
}
