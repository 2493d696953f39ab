/**
 * A local stand-in for an OpenAI-compatible server (a DeepSeek deployment
 * without tool parsing): it answers chat completions and Responses requests
 * with a fixed text, streamed as SSE cut at the places that break naive
 * parsers. 127.0.0.1 only, port 0; the tests close it in `afterAll`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The answer's content, already cut into the deltas the server sends. */
export interface FakeAnswer {
  deltas: readonly string[]
}

const encoder = new TextEncoder()
const BAR = encoder.encode('｜')

/** The byte offset in `bytes` just inside the first fullwidth bar (after its first byte), or -1. */
function insideBar(bytes: Uint8Array): number {
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === BAR[0] && bytes[i + 1] === BAR[1] && bytes[i + 2] === BAR[2]) return i + 1
  return -1
}

/**
 * Writes one SSE event. One that holds a fullwidth bar goes out in two
 * writes, split between the bar's UTF-8 bytes, with a turn of the event loop
 * between them, so the client reads the character in two pieces.
 */
async function writeEvent(res: import('node:http').ServerResponse, text: string): Promise<void> {
  const bytes = encoder.encode(text)
  const at = insideBar(bytes)
  if (at === -1) {
    res.write(bytes)
    return
  }
  res.write(bytes.subarray(0, at))
  await new Promise((resolve) => setTimeout(resolve, 1))
  res.write(bytes.subarray(at))
}

function chatChunk(delta: Record<string, unknown>, finish: string | null): unknown {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] }
}

async function chatStream(res: import('node:http').ServerResponse, answer: FakeAnswer, usage: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const events = [chatChunk({ role: 'assistant', content: '' }, null), ...answer.deltas.map((content) => chatChunk({ content }, null)), chatChunk({}, 'stop')]
  if (usage) events.push({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4', choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } })
  for (const e of events) await writeEvent(res, `data: ${JSON.stringify(e)}\n\n`)
  res.end('data: [DONE]\n\n')
}

function chatCompletion(answer: FakeAnswer): unknown {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek-v4',
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: answer.deltas.join(''), refusal: null } }],
    usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
  }
}

async function responsesStream(res: import('node:http').ServerResponse, answer: FakeAnswer): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const text = answer.deltas.join('')
  const base = { id: 'resp_fake', object: 'response', created_at: 1, model: 'deepseek-v4', tools: [], parallel_tool_calls: true, tool_choice: 'auto' }
  const at = { item_id: 'msg_fake', output_index: 0, content_index: 0 }
  const part = { type: 'output_text', text, annotations: [] }
  const item = { id: 'msg_fake', type: 'message', role: 'assistant', status: 'completed', content: [part] }
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', ...at, part: { ...part, text: '' } },
    ...answer.deltas.map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...base, status: 'completed', output: [item] } },
  ]
  for (const [i, e] of events.entries()) await writeEvent(res, `event: ${e.type as string}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
  res.end()
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string
  /** The request bodies received, parsed. */
  requests: Record<string, unknown>[]
  close(): Promise<void>
}

/** Starts the server; every request is answered with `answer`. */
export async function startFakeServer(answer: FakeAnswer): Promise<FakeServer> {
  const requests: Record<string, unknown>[] = []
  const server: Server = createServer((req, res) => {
    const body: Buffer[] = []
    req.on('data', (b: Buffer) => body.push(b))
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(body).toString('utf8') || '{}') as Record<string, unknown>
      requests.push(parsed)
      const stream = parsed.stream === true
      const reply = req.url === '/v1/chat/completions' && stream
        ? chatStream(res, answer, (parsed.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true)
        : req.url === '/v1/chat/completions'
          ? Promise.resolve(void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletion(answer))))
          : req.url === '/v1/responses' && stream
            ? responsesStream(res, answer)
            : Promise.resolve(void res.writeHead(404).end())
      reply.catch(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  }
}
