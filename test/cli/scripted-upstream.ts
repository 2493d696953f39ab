/**
 * An upstream on 127.0.0.1 whose answer each test writes (`up.answer = …`),
 * for the proxy's hostile cases: a stream cut mid-block, an upstream that
 * never answers, CR-framed events, shapes the repair does not read. Also a
 * raw HTTP client, since `fetch` normalises the paths those cases send.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  url: string
  body: string
}

export interface ScriptedUpstream {
  url: string
  seen: Seen[]
  /** What the next requests get. Default: 200 with an empty JSON object. */
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>
  close(): Promise<void>
}

export function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const up: ScriptedUpstream = {
    url: '',
    seen: [],
    answer: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    },
    close: () => Promise.resolve(),
  }
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = []
    for await (const part of req as AsyncIterable<Buffer>) parts.push(part)
    const body = Buffer.concat(parts).toString('utf8')
    up.seen.push({ method: req.method ?? '', url: req.url ?? '', body })
    await up.answer(req, res, body)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      up.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      up.close = () =>
        new Promise<void>((r) => {
          server.closeAllConnections()
          server.close(() => r())
        })
      resolve(up)
    })
  })
}

export interface RawResponse {
  status: number
  headers: IncomingMessage['headers']
  text: string
}

/** One request with its target sent exactly as given (`/v1/../x`, `#frag`). */
export function rawRequest(base: string, method: string, target: string, body?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path: target, headers: body === undefined ? {} : { 'content-type': 'application/json' } })
    req.on('response', (res) => {
      const parts: Buffer[] = []
      res.on('data', (b: Buffer) => parts.push(b))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A chat completion chunk with one choice's content. */
export const contentChunk = (content: string): string => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })

/** The `data:` payloads of an event stream as written by the proxy (LF framing), with their event names. */
export function framesOf(text: string): { event: string | undefined; data: string }[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '' && !f.startsWith(':'))
    .map((f) => {
      const lines = f.split('\n')
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7)
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n')
      return { event, data }
    })
}

/** The content a client reads out of the proxy's chat stream, and the error events it ends with. */
export function streamed(text: string): { content: string; errors: { event: string | undefined; error: { code?: string; message?: string } }[]; done: boolean } {
  let content = ''
  const errors: { event: string | undefined; error: { code?: string; message?: string } }[] = []
  let done = false
  for (const { event, data } of framesOf(text)) {
    if (data === '[DONE]') {
      done = true
      continue
    }
    const parsed = JSON.parse(data) as { choices?: { delta?: { content?: string } }[]; error?: { code?: string; message?: string } }
    if (parsed.error !== undefined) errors.push({ event, error: parsed.error })
    for (const c of parsed.choices ?? []) content += c?.delta?.content ?? ''
  }
  return { content, errors, done }
}
