/**
 * A fake OpenAI-compatible upstream on 127.0.0.1 that leaks DeepSeek DSML
 * into `content`, for the proxy's end-to-end tests (`test/cli/proxy.test.ts`)
 * and its load test (`bench/proxy-load.ts`): shared, so the load test times
 * the path the tests check.
 *
 * - `POST …/chat/completions`: the answer as SSE chunks cut at awkward
 *   places (inside `<｜DSML｜`, between the bar and the name, inside an
 *   attribute, across the closer), or whole as one completion; a request
 *   whose model is `bad-model` gets a 400 with OpenAI's error body.
 * - `POST …/responses` (streamed): the same answer as output_text deltas.
 * - `GET …/models`: a model list.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the fake model answers: prose, a leaked block, prose. */
export const LEAKED_ANSWER =
  'I will read the file first.\n\n' +
  '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n' +
  '<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'

/** The answer's chunks: every cut falls somewhere a naive parser would trip. */
export function awkwardChunks(text: string = LEAKED_ANSWER): string[] {
  const cuts = new Set<number>()
  for (const marker of ['<｜DSML｜tool_calls>', '<｜DSML｜invoke', 'name="read_file"', 'string="true">', '</｜DSML｜parameter>', '</｜DSML｜tool_calls>']) {
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
      cuts.add(at + 1)
      cuts.add(at + Math.floor(marker.length / 2))
    }
  }
  // And every 7 characters, as a tokenizer would.
  for (let i = 7; i < text.length; i += 7) cuts.add(i)
  const sorted = [...cuts].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b)
  const out: string[] = []
  let start = 0
  for (const cut of sorted) {
    out.push(text.slice(start, cut))
    start = cut
  }
  out.push(text.slice(start))
  return out
}

export interface FakeUpstream {
  server: Server
  url: string
  /** Requests seen, with their headers and parsed bodies, for the tests to look at. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: unknown }[]
  close(): Promise<void>
}

export interface FakeUpstreamOptions {
  /** What the model writes. Default {@link LEAKED_ANSWER}. */
  answer?: string
  /** Milliseconds between streamed chunks. Default 0 (each chunk its own write). */
  gapMs?: number
  /** Keep no record of requests (the load test sends thousands). */
  record?: boolean
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const part of req as AsyncIterable<Buffer>) parts.push(part)
  return Buffer.concat(parts).toString('utf8')
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Starts the fake upstream on 127.0.0.1, on a free port. */
export function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const answer = options.answer ?? LEAKED_ANSWER
  const chunks = awkwardChunks(answer)
  const requests: FakeUpstream['requests'] = []
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req)
    let body: Record<string, unknown> = {}
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>)
    } catch {
      body = { unparsed: text }
    }
    if (options.record !== false) requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    const path = (req.url ?? '').split('?')[0]!
    const created = 1_700_000_000
    if (req.method === 'GET' && path.endsWith('/models')) {
      const list = JSON.stringify({ object: 'list', data: [{ id: 'deepseek-chat', object: 'model', created, owned_by: 'fake' }] })
      res.writeHead(200, { 'content-type': 'application/json', 'x-fake': 'models' })
      res.end(list)
      return
    }
    if (body.model === 'bad-model') {
      res.writeHead(400, { 'content-type': 'application/json', 'x-fake': 'error' })
      res.end(JSON.stringify({ error: { message: 'Model Not Exist', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }))
      return
    }
    const gap = async (): Promise<void> => {
      if ((options.gapMs ?? 0) > 0) await sleep(options.gapMs!)
    }
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      const base = { id: 'chatcmpl-fake', created, model: 'deepseek-chat' }
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop', logprobs: null }], usage: { prompt_tokens: 10, completion_tokens: 50, total_tokens: 60 } }))
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const frame = (chunk: unknown): boolean => res.write(`data: ${JSON.stringify(chunk)}\n\n`)
      frame({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })
      res.write(': keep-alive\n\n')
      for (const content of chunks) {
        await gap()
        frame({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })
      }
      frame({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
      frame({ ...base, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 50, total_tokens: 60 } })
      res.end('data: [DONE]\n\n')
      return
    }
    if (req.method === 'POST' && path.endsWith('/responses') && body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      let seq = 0
      const event = (e: Record<string, unknown>): boolean => res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: seq++ })}\n\n`)
      const response = { id: 'resp_fake', object: 'response', created_at: created, model: 'deepseek-chat', status: 'in_progress', output: [] }
      const item = { id: 'msg_fake', type: 'message', role: 'assistant', status: 'in_progress', content: [] }
      event({ type: 'response.created', response })
      event({ type: 'response.output_item.added', output_index: 0, item })
      event({ type: 'response.content_part.added', item_id: 'msg_fake', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
      for (const delta of chunks) {
        await gap()
        event({ type: 'response.output_text.delta', item_id: 'msg_fake', output_index: 0, content_index: 0, delta, logprobs: [] })
      }
      const part = { type: 'output_text', text: answer, annotations: [] }
      event({ type: 'response.output_text.done', item_id: 'msg_fake', output_index: 0, content_index: 0, text: answer, logprobs: [] })
      event({ type: 'response.content_part.done', item_id: 'msg_fake', output_index: 0, content_index: 0, part })
      const done = { ...item, status: 'completed', content: [part] }
      event({ type: 'response.output_item.done', output_index: 0, item: done })
      event({ type: 'response.completed', response: { ...response, status: 'completed', output: [done] } })
      res.end()
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'not_found' } }))
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        server,
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections()
            server.close(() => r())
          }),
      })
    })
  })
}

/**
 * As a command (`tsx bench/fake-upstream.ts [--gap MS]`), for the load test
 * to run the upstream in a process of its own: prints its URL, stops on SIGTERM.
 */
async function main(): Promise<void> {
  const { parseArgs } = await import('node:util')
  const { values } = parseArgs({ options: { gap: { type: 'string', default: '0' } } })
  const upstream = await startFakeUpstream({ gapMs: Number(values.gap), record: false })
  process.stdout.write(`${upstream.url}\n`)
  process.once('SIGTERM', () => void upstream.close().then(() => process.exit(0)))
}

if (process.argv[1] !== undefined && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) await main()
