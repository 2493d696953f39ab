/**
 * The proxy as a server: `startProxy` listens, routes each request, turns
 * an unreachable or silent upstream into a 502 or 504 with a JSON error, and
 * writes one log line per request. The repair itself is `toolsieve/fetch`'s
 * `repairResponse`, the same as `sieveFetch`'s: a repaired route's answer
 * goes to it as a `Response` and what it returns goes to the client. Every
 * other request is a pass-through that streams both ways unbuffered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DiagnosticEvent, ErrorEvent } from '../index.js'
import { resolveAdapterOptions } from '../adapters/index.js'
import type { OpenAIAdapterOptions } from '../openai/index.js'
import { repairResponse, requestOptions, routeOf, type SieveFetchOptions } from '../fetch/index.js'
import { adapterPart } from '../fetch/options.js'
import { SSE_LIMIT } from '../fetch/sse.js'
import { errorFrame } from '../fetch/stream.js'
import { asIsHeaders, closeAgents, forwardHeaders, readBody, relay, requestUpstream, sendError, type UpstreamCall } from './proxy-http.js'
import { upstreamTarget } from './proxy-path.js'
import { representable, sendResponse, upstreamAnswer } from './proxy-response.js'

/** What a request's log line says. */
interface RepairLog {
  /** `stream` or `whole` (repaired), `passed` (relayed as it came), `failed` (the proxy answered with an error). */
  mode: string
  rescued: number
  diagnostics: Map<string, number>
  /** Why the response was not repaired, or what stopped it. */
  note?: string | undefined
  /** The request's path, without its query (which may carry a key). */
  path: string
  /** The repair said what it did (for a stream: once it ended). */
  reported?: boolean
  /** The upstream's side broke off (not the client's). */
  upstreamFailed?: boolean
}

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
  /** Most milliseconds the upstream may stay silent, before its head (then a 504) or between bytes (then the stream ends with an error). Default 120 000; 0 waits for ever. */
  upstreamTimeoutMs?: number
  /** Most characters of one line or event of an upstream's event stream. Default 64 Mi, the bound of a whole completion. */
  maxEventSize?: number
}

/** What a request's handling needs besides the request: the options, resolved. */
interface Settings {
  upstream: URL
  limit: number
  timeoutMs: number
  eventLimit: number
}

export interface RunningProxy {
  server: Server
  /** `http://host:port`, with the port actually bound. */
  url: string
  /** Stops accepting, lets requests in flight finish (at most `graceMs`, default 10 s), then closes what is left. */
  close(graceMs?: number): Promise<void>
}

const describe = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException
  return e.code ?? e.message ?? String(error)
}

const isTimeout = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'upstream-timeout'

/** Starts the proxy; resolves once it listens. */
export function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const log = options.log === undefined ? (line: string) => process.stderr.write(line + '\n') : options.log
  const settings: Settings = {
    upstream: options.upstream,
    limit: options.maxRequestBytes ?? 32 * 1024 * 1024,
    timeoutMs: options.upstreamTimeoutMs ?? 120_000,
    eventLimit: options.maxEventSize ?? SSE_LIMIT,
  }
  const server = createServer((req, res) => {
    const started = performance.now()
    const entry: RepairLog = { mode: 'passed', rescued: 0, diagnostics: new Map(), path: upstreamTarget(settings.upstream, req.url ?? '/').logPath }
    res.on('close', () => {
      if (log === null) return
      const ms = (performance.now() - started).toFixed(0)
      const codes = [...entry.diagnostics].map(([code, n]) => `${code} ${n}`).join(', ')
      const repaired = entry.mode === 'stream' || entry.mode === 'whole'
      const calls = repaired ? `, ${entry.rescued} call${entry.rescued === 1 ? '' : 's'} rescued, diagnostics ${codes === '' ? 'none' : codes}` : ''
      const aborted = res.writableFinished || entry.upstreamFailed === true ? '' : ', client went away'
      log(`toolsieve proxy: ${req.method} ${entry.path} ${res.statusCode} ${entry.mode} ${ms} ms${calls}${entry.note === undefined ? '' : `, ${entry.note}`}${aborted}`)
    })
    handle(req, res, settings, entry).catch((error: unknown) => {
      entry.mode = 'failed'
      const timeout = isTimeout(error)
      entry.note = timeout ? 'upstream timed out' : `failed: ${describe(error)}`
      if (!res.headersSent) sendError(res, timeout ? 504 : 502, timeout ? 'upstream-timeout' : 'proxy-failed', `toolsieve proxy: ${describe(error)}`)
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

async function handle(req: IncomingMessage, res: ServerResponse, settings: Settings, entry: RepairLog): Promise<void> {
  const target = upstreamTarget(settings.upstream, req.url ?? '/')
  if (!target.ok) {
    entry.mode = 'failed'
    entry.note = `refused: ${target.message}`
    req.resume()
    return sendError(res, 400, 'bad-path', `toolsieve proxy: ${target.message}`)
  }
  const call = (method: string, headers: UpstreamCall['headers'], body: UpstreamCall['body']): UpstreamCall => ({
    url: target.url,
    path: target.path,
    method,
    headers,
    body,
    timeoutMs: settings.timeoutMs,
    clientBackedUp: () => res.writableNeedDrain,
  })
  const kind = routeOf(req.method, target.logPath)
  if (kind === undefined) return passThrough(req, res, call(req.method ?? 'GET', asIsHeaders(req.headers), req), entry)

  const body = await readBody(req, settings.limit)
  if (body === undefined) return sendError(res, 413, 'request-too-large', `toolsieve proxy: request body over ${settings.limit} bytes`)
  let request: Record<string, unknown> | undefined
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'))
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed as Record<string, unknown>
  } catch {
    request = undefined
  }
  const options = repairOptions(settings, entry)
  // Decided before the upstream is called (and bills): a request whose tools cannot be read is relayed unrepaired, never answered then failed.
  const unreadable = request === undefined ? undefined : readableOptions({ ...adapterPart(options), ...requestOptions(kind, request) })
  // The body goes as the client sent it; only its length is set again. Identity, so the proxy can read the answer.
  const headers = { ...forwardHeaders(req.headers, ['accept-encoding']), 'content-length': String(body.length) }
  const response = await upstreamResponse(requestUpstream(call('POST', headers, body)), res, target.url, entry)
  if (response === null) return
  if (request === undefined || unreadable !== undefined || !representable(response.statusCode)) {
    entry.note = request === undefined ? 'not repaired: request is not a JSON object' : unreadable !== undefined ? `warning: not repaired, the request's options cannot be read (${unreadable})` : `not repaired: status ${response.statusCode}`
    res.writeHead(response.statusCode ?? 502, asIsHeaders(response.headers) as Record<string, string>)
    relay(response, res, (error) => upstreamFailed(entry, error))
    return
  }
  const answer = upstreamAnswer(response)
  const repaired = await repairResponse(kind, request, answer, options)
  // a stream's report comes when it ends; until then the log says what it is
  if (repaired !== answer && entry.mode === 'passed' && !entry.reported) entry.mode = 'stream'
  const failure = await sendResponse(repaired, res)
  if (failure === undefined) return
  // The body broke off once the head was sent: an event stream the repair read ends with an error event after what it held; anything else is cut.
  const { code, message } = brokeOff(failure)
  entry.upstreamFailed = true
  const why = `upstream failed mid-${entry.mode === 'stream' ? 'stream' : 'body'} (${code === 'upstream-failed' ? describe(failure) : code})`
  if (entry.mode === 'stream') {
    // in place of the repair's own note, which says the same of the failure
    entry.note = why
    res.end(errorFrame(kind, code, message))
  } else {
    entry.note = entry.note === undefined ? why : `${entry.note}, ${why}`
    res.destroy()
  }
}

/** The repair's options for one request: its diagnostics and report go to the request's log line. */
function repairOptions(settings: Settings, entry: RepairLog): SieveFetchOptions {
  return {
    maxEventSize: settings.eventLimit,
    onDiagnostic: (e: DiagnosticEvent | ErrorEvent) => entry.diagnostics.set(e.code, (entry.diagnostics.get(e.code) ?? 0) + 1),
    onReport: (report) => {
      entry.reported = true
      entry.mode = report.mode
      entry.rescued = report.rescued
      entry.note = report.note
    },
  }
}

/**
 * Why the adapter cannot take these options (a tool schema the validator
 * cannot compile: an unknown `$schema`, a remote `$ref`), or `undefined`
 * when it can. Compiled schemas are cached by object, so the repair's own
 * resolving later costs nothing more.
 */
function readableOptions(options: OpenAIAdapterOptions): string | undefined {
  try {
    resolveAdapterOptions(options)
    return undefined
  } catch (error) {
    return (error as Error).message.split('\n')[0]
  }
}

/** The stream broke off upstream: an error of ours keeps its code (`upstream-timeout`); a socket's is `upstream-failed`. */
function brokeOff(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code
  const message = `the upstream's stream broke off: ${(error as Error | null)?.message ?? String(error)}`
  if (code === 'upstream-timeout') return { code, message }
  return { code: 'upstream-failed', message: typeof code === 'string' ? `${message} (${code})` : message }
}

/** A body relayed as it came broke off: the log says the upstream's side, not the client's. */
function upstreamFailed(entry: RepairLog, error: Error): void {
  // The client went away (pipeline's premature close on its side): the log line says so already.
  if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || entry.upstreamFailed === true) return
  entry.upstreamFailed = true
  const why = isTimeout(error) ? 'upstream timed out mid-body' : `upstream failed mid-body (${describe(error)})`
  entry.note = entry.note === undefined ? why : `${entry.note}, ${why}`
}

/** Any other request: both bodies stream through unchanged, headers minus hop-by-hop ones. */
async function passThrough(req: IncomingMessage, res: ServerResponse, call: UpstreamCall, entry: RepairLog): Promise<void> {
  const response = await upstreamResponse(requestUpstream(call), res, call.url, entry)
  if (response === null) return
  res.writeHead(response.statusCode ?? 502, asIsHeaders(response.headers) as Record<string, string>)
  relay(response, res, (error) => upstreamFailed(entry, error))
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
    if (isTimeout(error)) {
      entry.note = 'upstream timed out'
      sendError(res, 504, 'upstream-timeout', `toolsieve proxy: upstream ${url.origin} sent nothing for ${(error as { ms: number }).ms} ms`)
    } else {
      entry.note = `upstream unreachable (${describe(error)})`
      sendError(res, 502, 'upstream-unreachable', `toolsieve proxy: upstream ${url.origin} unreachable: ${describe(error)}`)
    }
    return null
  }
}
