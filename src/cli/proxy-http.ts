/**
 * The proxy's HTTP plumbing: which headers cross (hop-by-hop ones never do,
 * RFC 9110 §7.6.1), the request to the upstream, reading a body with a
 * bound, decoding a compressed one, and OpenAI-shaped JSON errors.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http'
import https from 'node:https'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { pipeline, type Duplex, type Readable, type Writable } from 'node:stream'

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

/** The upstream sent nothing for the timeout (`code` `upstream-timeout`): before its head (a 504) or between bytes. */
export class UpstreamTimeout extends Error {
  override name = 'UpstreamTimeout'
  readonly code = 'upstream-timeout'
  constructor(readonly ms: number) {
    super(`the upstream sent nothing for ${ms} ms`)
  }
}

/** Where a request goes and how long the upstream may stay silent. */
export interface UpstreamCall {
  /** For the protocol, host and port; `path` goes on the request line as it is. */
  url: URL
  path: string
  method: string
  headers: OutgoingHttpHeaders
  body: Buffer | IncomingMessage
  /** Most milliseconds without a byte from the upstream, before its head and between reads; 0 waits for ever. */
  timeoutMs: number
  /** The client is not reading (its socket needs a drain): silence then is the client's doing, not the upstream's, and the clock starts again. */
  clientBackedUp(): boolean
}

/**
 * Sends a request upstream; resolves with the response's head (its body
 * still to come) or rejects when it cannot connect or stays silent past the
 * timeout. A timeout mid-body destroys the response with the
 * {@link UpstreamTimeout}, so whoever reads it sees why it ended.
 */
export function requestUpstream(call: UpstreamCall): Promise<IncomingMessage> & { abort(): void } {
  const secure = call.url.protocol === 'https:'
  const req = (secure ? https : http).request(call.url, { method: call.method, headers: call.headers, path: call.path, agent: secure ? agents.https : agents.http })
  let head: IncomingMessage | undefined
  let timer: NodeJS.Timeout | undefined
  let socket: Duplex | undefined
  const fire = (): void => {
    if (call.clientBackedUp()) return arm()
    const error = new UpstreamTimeout(call.timeoutMs)
    if (head === undefined) req.destroy(error)
    else head.destroy(error)
  }
  const arm = (): void => {
    clearTimeout(timer)
    if (call.timeoutMs > 0) timer = setTimeout(fire, call.timeoutMs)
  }
  const stop = (): void => {
    clearTimeout(timer)
    socket?.off('data', arm)
    if (!Buffer.isBuffer(call.body)) call.body.off('data', arm)
  }
  // Every byte read from the upstream's socket starts the clock again (a keep-alive socket's listener goes with the request).
  req.on('socket', (s) => {
    socket = s
    s.on('data', arm)
  })
  req.on('close', stop)
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      head = res
      arm()
      res.on('end', stop)
      res.on('close', stop)
      resolve(res)
    })
    req.on('error', reject)
  })
  arm()
  if (Buffer.isBuffer(call.body)) req.end(call.body)
  else {
    // A client still sending its body is not a silent upstream.
    call.body.on('data', arm)
    call.body.pipe(req)
  }
  return Object.assign(response, {
    abort: () => {
      stop()
      req.destroy()
    },
  })
}

/**
 * `from` into `to`, streamed, and an error on either side destroys the
 * other: an upstream that dies mid-body cuts the client's response instead
 * of leaving it open (which `pipe` would).
 */
export function relay<T extends Writable>(from: Readable, to: T, onError?: (error: Error) => void): T {
  pipeline(from, to, (error) => {
    // Both ends are destroyed on failure; the request's log line says how it ended.
    if (error !== null && error !== undefined) onError?.(error)
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
