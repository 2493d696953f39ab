/**
 * The proxy as a server: `startProxy` listens, routes each request (the
 * repaired routes, or a pass-through that streams both ways unbuffered),
 * turns an unreachable upstream into a 502 with a JSON error, and writes
 * one log line per request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { asIsHeaders, closeAgents, forwardHeaders, readBody, relay, requestUpstream, sendError, upstreamUrl } from './proxy-http.js'
import { adapterOptions, repairResponse, type RepairLog, type RouteKind } from './proxy-repair.js'

export interface ProxyOptions {
  /** The upstream's base URL; a request's path is appended to its path (`https://api.deepseek.com` + `/v1/chat/completions`). */
  upstream: URL
  /** Default 8787; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Where each request's log line goes. Default: stderr. `null`: nowhere. */
  log?: ((line: string) => void) | null
  /** Most bytes of a request body the repaired routes read (they need its tools and messages). Default 32 MiB. */
  maxRequestBytes?: number
}

export interface RunningProxy {
  server: Server
  /** `http://host:port`, with the port actually bound. */
  url: string
  /** Stops accepting, lets requests in flight finish (at most `graceMs`, default 10 s), then closes what is left. */
  close(graceMs?: number): Promise<void>
}

/** Which route a request takes: the repaired kinds by the path's end, so any prefix (`/v1`, `/api/v1`) works. */
function routeOf(req: IncomingMessage): RouteKind | undefined {
  if (req.method !== 'POST') return undefined
  const path = (req.url ?? '').split('?')[0]!
  if (path.endsWith('/chat/completions')) return 'chat'
  if (path.endsWith('/responses')) return 'responses'
  return undefined
}

const describe = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException
  return e.code ?? e.message ?? String(error)
}

/** Starts the proxy; resolves once it listens. */
export function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const log = options.log === undefined ? (line: string) => process.stderr.write(line + '\n') : options.log
  const limit = options.maxRequestBytes ?? 32 * 1024 * 1024
  const server = createServer((req, res) => {
    const started = performance.now()
    const entry: RepairLog = { mode: 'passed', rescued: 0, diagnostics: new Map() }
    res.on('close', () => {
      if (log === null) return
      const ms = (performance.now() - started).toFixed(0)
      const codes = [...entry.diagnostics].map(([code, n]) => `${code} ${n}`).join(', ')
      const repaired = entry.mode === 'stream' || entry.mode === 'whole'
      const calls = repaired ? `, ${entry.rescued} call${entry.rescued === 1 ? '' : 's'} rescued, diagnostics ${codes === '' ? 'none' : codes}` : ''
      const aborted = res.writableFinished ? '' : ', client went away'
      log(`toolsieve proxy: ${req.method} ${req.url} ${res.statusCode} ${entry.mode} ${ms} ms${calls}${entry.note === undefined ? '' : `, ${entry.note}`}${aborted}`)
    })
    handle(req, res, options.upstream, limit, entry).catch((error: unknown) => {
      entry.mode = 'failed'
      entry.note = `failed: ${describe(error)}`
      if (!res.headersSent) sendError(res, 502, 'proxy-failed', `toolsieve proxy: ${describe(error)}`)
      else res.destroy()
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address() as AddressInfo
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      resolve({ server, url: `http://${host}:${address.port}`, close: (graceMs = 10_000) => closeGracefully(server, graceMs) })
    })
  })
}

async function handle(req: IncomingMessage, res: ServerResponse, upstream: URL, limit: number, entry: RepairLog): Promise<void> {
  const url = upstreamUrl(upstream, req.url ?? '/')
  const kind = routeOf(req)
  if (kind === undefined) return passThrough(req, res, url, entry)

  const body = await readBody(req, limit)
  if (body === undefined) return sendError(res, 413, 'request-too-large', `toolsieve proxy: request body over ${limit} bytes`)
  let request: Record<string, unknown> | undefined
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'))
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed as Record<string, unknown>
  } catch {
    request = undefined
  }
  // The body goes as the client sent it; only its length is set again. Identity, so the proxy can read the answer.
  const headers = { ...forwardHeaders(req.headers, ['accept-encoding']), 'content-length': String(body.length) }
  const response = await upstreamResponse(requestUpstream(url, 'POST', headers, body), res, url, entry)
  if (response === null) return
  const pipeAsIs = (): void => {
    res.writeHead(response.statusCode ?? 502, asIsHeaders(response.headers) as Record<string, string>)
    relay(response, res)
  }
  if (request === undefined) {
    entry.note = 'not repaired: request is not a JSON object'
    return pipeAsIs()
  }
  await repairResponse(kind, response, res, adapterOptions(kind, request, entry), entry, pipeAsIs)
}

/** Any other request: both bodies stream through unchanged, headers minus hop-by-hop ones. */
async function passThrough(req: IncomingMessage, res: ServerResponse, url: URL, entry: RepairLog): Promise<void> {
  const response = await upstreamResponse(requestUpstream(url, req.method ?? 'GET', asIsHeaders(req.headers), req), res, url, entry)
  if (response === null) return
  res.writeHead(response.statusCode ?? 502, asIsHeaders(response.headers) as Record<string, string>)
  relay(response, res)
}

/** `server.close()` waits for requests in flight (Node closes idle keep-alive sockets itself); past the grace, the rest are cut. */
function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    timer.unref()
    server.close(() => {
      clearTimeout(timer)
      closeAgents()
      resolve()
    })
    server.closeIdleConnections()
  })
}

/**
 * The upstream's answer to a request on its way; a client that goes away
 * aborts it. An upstream that cannot be reached is answered here, with a 502
 * (null is returned).
 */
async function upstreamResponse(pending: ReturnType<typeof requestUpstream>, res: ServerResponse, url: URL, entry: RepairLog): Promise<IncomingMessage | null> {
  res.on('close', () => {
    if (!res.writableFinished) pending.abort()
  })
  try {
    return await pending
  } catch (error) {
    entry.mode = 'failed'
    entry.note = `upstream unreachable (${describe(error)})`
    sendError(res, 502, 'upstream-unreachable', `toolsieve proxy: upstream ${url.origin} unreachable: ${describe(error)}`)
    return null
  }
}
