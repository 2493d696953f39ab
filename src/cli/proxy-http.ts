/**
 * The proxy's HTTP plumbing: which headers cross (hop-by-hop ones never do,
 * RFC 9110 §7.6.1), the request to the upstream, reading a body with a
 * bound, decoding a compressed one, and OpenAI-shaped JSON errors.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http'
import https from 'node:https'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { pipeline, type Readable, type Writable } from 'node:stream'

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/**
 * Headers to send on: the hop-by-hop ones, those the `Connection` header
 * names, `host` (the upstream's own is set) and `content-length` (recomputed
 * by whoever sends the body) left out, and any of `drop`.
 */
export function forwardHeaders(headers: IncomingHttpHeaders, drop: readonly string[] = []): OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ''),
  )
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name === 'host' || name === 'content-length' || drop.includes(name)) continue
    out[name] = value
  }
  return out
}

/** Headers of a body relayed unchanged: {@link forwardHeaders}, and its length, which stays true. */
export function asIsHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out = forwardHeaders(headers)
  if (headers['content-length'] !== undefined) out['content-length'] = headers['content-length']
  return out
}

/** Keep-alive sockets to the upstream: a proxy under load must not open a connection per request. */
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }

/** Closes the idle upstream sockets, so that a stopped proxy lets the process exit. */
export function closeAgents(): void {
  agents.http.destroy()
  agents.https.destroy()
}

/** The upstream URL of a request: the upstream's path prefix, then the request's path and query. */
export function upstreamUrl(upstream: URL, path: string): URL {
  const url = new URL(upstream.href)
  const [pathname, query] = path.split(/\?(.*)/s, 2)
  url.pathname = upstream.pathname.replace(/\/+$/, '') + (pathname ?? '')
  url.search = query === undefined || query === '' ? '' : `?${query}`
  return url
}

/** Sends a request upstream; resolves with the response's head (its body still to come) or rejects when it cannot connect. */
export function requestUpstream(url: URL, method: string, headers: OutgoingHttpHeaders, body: Buffer | IncomingMessage): Promise<IncomingMessage> & { abort(): void } {
  const secure = url.protocol === 'https:'
  const req = (secure ? https : http).request(url, { method, headers, agent: secure ? agents.https : agents.http })
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve)
    req.on('error', reject)
  })
  if (Buffer.isBuffer(body)) req.end(body)
  else body.pipe(req)
  return Object.assign(response, { abort: () => req.destroy() })
}

/**
 * `from` into `to`, streamed, and an error on either side destroys the
 * other: an upstream that dies mid-body cuts the client's response instead
 * of leaving it open (which `pipe` would).
 */
export function relay<T extends Writable>(from: Readable, to: T): T {
  pipeline(from, to, () => {
    // Both ends are destroyed on failure; the request's log line says how it ended.
  })
  return to
}

/** A body read whole, for the routes that must see it; past `limit` bytes, `undefined`. */
export async function readBody(stream: Readable, limit: number): Promise<Buffer | undefined> {
  const parts: Buffer[] = []
  let length = 0
  for await (const part of stream as AsyncIterable<Buffer>) {
    length += part.length
    if (length > limit) return undefined
    parts.push(part)
  }
  return Buffer.concat(parts, length)
}

/** The response's body decoded from its `content-encoding` (gzip, deflate, br), or `undefined` for an encoding it does not know. */
export function decodedBody(res: IncomingMessage): Readable | undefined {
  const encoding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  if (encoding === 'identity' || encoding === '') return res
  if (encoding === 'gzip' || encoding === 'x-gzip') return relay(res, createGunzip())
  if (encoding === 'deflate') return relay(res, createInflate())
  if (encoding === 'br') return relay(res, createBrotliDecompress())
  return undefined
}

/** An error in OpenAI's shape (`{ error: { message, type, code } }`), so SDKs surface its message. */
export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { message, type: 'toolsieve_proxy_error', code } })
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** Writes and waits for `drain` when the client reads slower than the upstream writes. */
export async function write(res: ServerResponse, text: string): Promise<void> {
  if (!res.write(text)) await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
