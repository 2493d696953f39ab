/**
 * A local OpenAI-compatible upstream (a DeepSeek deployment without tool
 * parsing) for the specs that run real clients against a server
 * (`toolsieve/fetch`, the OpenAI adapters): chat completions and Responses,
 * streamed and whole, with the model's text holding DSML; its event streams
 * are written with the line endings asked for and cut every few bytes (so
 * CRLFs, fullwidth bars and JSON are split between reads) or inside each
 * event's first fullwidth bar; once a request carries a tool's result it can
 * answer another text (an agent's second turn, so that a run ends). It also
 * serves the routes that must pass through: `GET /v1/models`, an error
 * status, a body that is not JSON. 127.0.0.1 only, port 0.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Ending = '\n' | '\r' | '\r\n'

export interface UpstreamOptions {
  /** The model's text, as the deltas it streams. */
  deltas: readonly string[]
  /** Line ending of the event streams. Default LF. */
  ending?: Ending
  /** Bytes per write of an event stream (a turn of the event loop between writes). Default 5. */
  piece?: number
  /**
   * `bar`: each event in one write, but one that holds a fullwidth bar in
   * two, split between the bar's UTF-8 bytes with a millisecond between
   * them, so the client reads the character in two pieces (`piece` is then
   * not used). Default: every `piece` bytes.
   */
  cut?: 'bar'
  /**
   * The model's text once a tool has run: the answer to a request whose
   * `messages` hold a `tool` message or whose `input` holds a
   * `function_call_output` item (an agent's second turn). Default: `deltas`.
   */
  afterTool?: readonly string[]
}

/**
 * The answer the OpenAI client specs have the upstream give: reasoning,
 * prose, then a DSML call cut where a parser that looks at one delta at a
 * time breaks (inside the opener, inside `string="true"`, inside closers);
 * the request that asks for it, and the call a sieve must find in it.
 */
export const readFile = {
  deltas: [
    '<think>The user wants a.ts.</think>',
    'Let me read it.\n\n<｜DS',
    'ML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" str',
    'ing="tr',
    'ue">src/a.ts</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">40</｜DSML｜parameter>\n</｜DSML｜inv',
    'oke>\n</｜DSML｜tool_calls',
    '>',
  ],
  messages: [{ role: 'user' as const, content: 'Read src/a.ts' }],
  tools: [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } } } } }],
  call: { name: 'read_file', arguments: '{"path":"src/a.ts","limit":40}' },
}

/** True when the request carries a tool's result, as an agent's turn after a call does. */
function carriesToolResult(body: Record<string, unknown>): boolean {
  const items = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : []
  return items.some((m: { role?: unknown; type?: unknown } | null) => m?.role === 'tool' || m?.type === 'function_call_output')
}

/** The answers of the routes that pass through, as the exact bytes sent. */
export const MODELS = '{"object":"list","data":[{"id":"deepseek-v4","object":"model","created":1,"owned_by":"deepseek"}]}\n'
export const ERROR_BODY = '{ "error": { "message": "bad key ｜DSML｜", "type": "invalid_request_error", "code": "invalid_api_key" } }'
export const PLAIN = 'not json: <｜DSML｜tool_calls>\r\n'

const encoder = new TextEncoder()

const BAR = encoder.encode('｜')

/** The byte offset in `bytes` just inside the first fullwidth bar (after its first byte), or -1. */
function insideBar(bytes: Uint8Array): number {
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === BAR[0] && bytes[i + 1] === BAR[1] && bytes[i + 2] === BAR[2]) return i + 1
  return -1
}

/** Writes the events of a stream cut as `o` asks. */
async function writeCut(res: ServerResponse, events: readonly string[], o: UpstreamOptions): Promise<void> {
  if (o.cut === 'bar') {
    for (const event of events) {
      const bytes = encoder.encode(event)
      const at = insideBar(bytes)
      if (at === -1) res.write(bytes)
      else {
        res.write(bytes.subarray(0, at))
        await new Promise((resolve) => setTimeout(resolve, 1))
        res.write(bytes.subarray(at))
      }
    }
    return
  }
  const bytes = encoder.encode(events.join(''))
  const piece = o.piece ?? 5
  for (let i = 0; i < bytes.length; i += piece) {
    res.write(bytes.subarray(i, i + piece))
    await new Promise((resolve) => setImmediate(resolve))
  }
}

function frame(data: unknown, ending: Ending, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}${ending}`}data: ${JSON.stringify(data)}${ending}${ending}`
}

const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'deepseek-v4',
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
})

function chatEvents(o: UpstreamOptions, usage: boolean): string[] {
  const e = o.ending ?? '\n'
  const chunks = [chunk({ role: 'assistant', content: '' }, null), ...o.deltas.map((content) => chunk({ content }, null)), chunk({}, 'stop')]
  if (usage) chunks.push({ ...chunk({}, null), choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } } as never)
  return [`: keep-alive${e}${e}`, ...chunks.map((c) => frame(c, e)), `data: [DONE]${e}${e}`]
}

export function chatCompletion(text: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek-v4',
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: text, refusal: null } }],
    usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
  }
}

const base = { id: 'resp_fake', object: 'response', created_at: 1, model: 'deepseek-v4', tools: [], parallel_tool_calls: true, tool_choice: 'auto', error: null, incomplete_details: null, instructions: null, metadata: {}, temperature: 1, top_p: 1 }

export function responseObject(text: string): Record<string, unknown> {
  const item = { id: 'msg_fake', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] }
  return { ...base, status: 'completed', output: [item], usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } }
}

function responsesEvents(o: UpstreamOptions): string[] {
  const e = o.ending ?? '\n'
  const text = o.deltas.join('')
  const at = { item_id: 'msg_fake', output_index: 0, content_index: 0 }
  const part = { type: 'output_text', text, annotations: [] }
  const item = { id: 'msg_fake', type: 'message', role: 'assistant', status: 'completed', content: [part] }
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', ...at, part: { ...part, text: '' } },
    ...o.deltas.map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...base, status: 'completed', output: [item] } },
  ]
  return events.map((ev, i) => frame({ ...ev, sequence_number: i }, e, ev.type as string))
}

export interface Upstream {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string
  /** The request bodies received (POSTs), parsed. */
  requests: Record<string, unknown>[]
  close(): Promise<void>
}

export async function startUpstream(options: UpstreamOptions): Promise<Upstream> {
  const requests: Record<string, unknown>[] = []
  const server: Server = createServer((req, res) => {
    const body: Buffer[] = []
    req.on('data', (b: Buffer) => body.push(b))
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]
      if (req.method === 'GET' && path === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS)
      const parsed = JSON.parse(Buffer.concat(body).toString('utf8') || '{}') as Record<string, unknown>
      requests.push(parsed)
      if (req.headers['x-fail'] !== undefined) return void res.writeHead(401, { 'content-type': 'application/json' }).end(ERROR_BODY)
      if (req.headers['x-plain'] !== undefined) return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PLAIN)
      const stream = parsed.stream === true
      const turn = options.afterTool !== undefined && carriesToolResult(parsed) ? { ...options, deltas: options.afterTool } : options
      const text = turn.deltas.join('')
      let reply: Promise<void>
      if (path === '/v1/chat/completions' && stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        reply = writeCut(res, chatEvents(turn, (parsed.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true), turn).then(() => void res.end())
      } else if (path === '/v1/responses' && stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        reply = writeCut(res, responsesEvents(turn), turn).then(() => void res.end())
      } else if (path === '/v1/chat/completions') reply = Promise.resolve(void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletion(text))))
      else if (path === '/v1/responses') reply = Promise.resolve(void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(responseObject(text))))
      else reply = Promise.resolve(void res.writeHead(404).end())
      reply.catch(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((e) => (e ? reject(e) : resolve()))
      }),
  }
}
