/**
 * `toolsieve/anthropic` end to end: the real `@anthropic-ai/sdk` client
 * against a fake Messages server on 127.0.0.1 that streams SSE with DeepSeek
 * markup split at awkward byte offsets (inside tags, inside multi-byte
 * characters). Two ways in: `sieveMiddleware` in the client (so
 * `messages.stream()` and `messages.create()` work unchanged), and the
 * adapter over the client's raw event stream.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic, { type Middleware } from '@anthropic-ai/sdk'
import type { Message, MessageCreateParams, MessageParam, StopReason, Tool } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessage, sieveMessagesStream, sieveMiddleware, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { awkward, blocks, dsml, finalMessage, messageShell, nativeCall, upstream, type UpstreamBlock } from './anthropic-helpers.js'

const tools: Tool[] = [
  { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] } },
  { name: 'write_file', description: 'Write a file', input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
]
const READ = dsml('read_file', { path: 'src/文件.ts', limit: '20' })
const messages: MessageParam[] = [{ role: 'user', content: 'Read src/文件.ts' }]

/** What the fake server answers next: its blocks and stop reason. */
let reply: { blocks: UpstreamBlock[]; stop: StopReason; status?: number } = { blocks: [], stop: 'end_turn' }
let server: Server
let baseURL = ''

/** The SSE of a stream, cut into pieces of 1..13 bytes: boundaries fall inside tags, lines and UTF-8 sequences. */
function sseBytes(events: readonly MessagesStreamEvent[]): Buffer[] {
  const bytes = Buffer.from(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''), 'utf8')
  const pieces: Buffer[] = []
  for (let i = 0, size = 1; i < bytes.length; size = (size % 13) + 1) {
    pieces.push(bytes.subarray(i, i + size))
    i += size
  }
  return pieces
}

/** The whole Message the fake server answers a non-streaming request with. */
function wholeMessage(): Message {
  const content = reply.blocks.map((b) => (Array.isArray(b) ? { type: 'text' as const, text: b.join(''), citations: null } : b))
  return { ...messageShell(), content, stop_reason: reply.stop, usage: { input_tokens: 10, output_tokens: 42 } } as Message
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const body: Buffer[] = []
    req.on('data', (b: Buffer) => body.push(b))
    req.on('end', () => {
      const params = JSON.parse(Buffer.concat(body).toString('utf8')) as MessageCreateParams
      if (req.url?.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ input_tokens: 7 }))
      } else if (reply.status !== undefined) {
        res.writeHead(reply.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `${READ} is not allowed` } }))
      } else if (params.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        for (const piece of sseBytes(upstream(reply.blocks, reply.stop))) res.write(piece)
        res.end()
      } else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(wholeMessage()))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())))
})

const client = (middleware: Middleware[] = []) => new Anthropic({ apiKey: 'test', baseURL, maxRetries: 0, middleware })
const request = { model: 'deepseek-chat', max_tokens: 1024, messages, tools }

describe('the Anthropic SDK, end to end', () => {
  it('should support client.messages.stream() through the middleware: finalMessage has tool_use blocks with parsed input and clean text', async () => {
    reply = { blocks: [awkward(`好的，我来读一下。\n\n${READ}\n\n读完了。`)], stop: 'end_turn' }
    const stream = client([sieveMiddleware()]).messages.stream(request)
    const texts: string[] = []
    stream.on('text', (t) => texts.push(t))
    const message = await stream.finalMessage()
    expect(blocks(message)).toEqual([
      { type: 'text', text: '好的，我来读一下。' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_[0-9a-f]{24}$/), name: 'read_file', input: { path: 'src/文件.ts', limit: 20 } },
      { type: 'text', text: '读完了。' },
    ])
    expect(message.stop_reason).toBe('tool_use')
    expect(texts.join('')).toBe('好的，我来读一下。读完了。')
  })

  it('should support client.messages.create() without streaming, through the middleware and through sieveMessage', async () => {
    reply = { blocks: [[`Reading.\n\n${READ}`]], stop: 'end_turn' }
    const viaMiddleware = await client([sieveMiddleware()]).messages.create(request)
    const direct = sieveMessage(await client().messages.create(request), { tools })
    for (const message of [viaMiddleware, direct]) {
      expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use'])
      expect(message.content[1]).toMatchObject({ name: 'read_file', input: { path: 'src/文件.ts', limit: 20 } })
      expect(message.stop_reason).toBe('tool_use')
    }
  })

  it('should support streamArguments: the SDK sees the input grow (inputJson events) and parses the whole at the end', async () => {
    const content = '第一行\nline two\n'.repeat(8)
    reply = { blocks: [awkward(`Writing.\n\n${dsml('write_file', { path: 'a.txt', content })}`)], stop: 'end_turn' }
    const stream = client([sieveMiddleware({ streamArguments: true })]).messages.stream(request)
    const pieces: string[] = []
    stream.on('inputJson', (partial) => pieces.push(partial))
    const message = await stream.finalMessage()
    expect(pieces.length).toBeGreaterThan(3)
    expect(message.content[1]).toMatchObject({ type: 'tool_use', name: 'write_file', input: { path: 'a.txt', content } })
    expect(message.stop_reason).toBe('tool_use')
  })

  it('should support reasoning in the text: thinking blocks the SDK reports as thinking', async () => {
    reply = { blocks: [awkward(`<think>\nThe user wants the file.\n</think>\n\nReading.\n\n${READ}`)], stop: 'end_turn' }
    const stream = client([sieveMiddleware()]).messages.stream(request)
    const thinking: string[] = []
    stream.on('thinking', (delta) => thinking.push(delta))
    const message = await stream.finalMessage()
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use'])
    expect(thinking.join('')).toBe('\nThe user wants the file.\n')
    expect(message.content[0]).toMatchObject({ type: 'thinking', signature: '' })
  })

  it('should support the raw event stream of messages.create({ stream: true }) through sieveMessagesStream', async () => {
    reply = { blocks: [awkward(`Reading.\n\n${READ}\n\nDone.`)], stop: 'end_turn' }
    const raw = await client().messages.create({ ...request, stream: true })
    const out: MessagesStreamEvent[] = []
    for await (const e of sieveMessagesStream(raw, { tools, quoted: messages })) out.push(e)
    const message = await finalMessage(out)
    expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use', 'text'])
    expect(message.stop_reason).toBe('tool_use')
  })

  it('should not support running a call the user quoted: the repeated example stays text', async () => {
    // limit="20" is coerced to 20 by the request's schema in the answer and in the quoted example alike
    const example = READ
    const quoting: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: `What does this do?\n\n${example}` }] }]
    reply = { blocks: [awkward(`It reads a file:\n\n${example}`)], stop: 'end_turn' }
    const message = await client([sieveMiddleware()]).messages.stream({ ...request, messages: quoting }).finalMessage()
    expect(message.content.map((b) => b.type)).toEqual(['text'])
    expect(message.stop_reason).toBe('end_turn')
  })

  it('should not support native and rescued calls in one message: the iteration throws native-conflict', async () => {
    reply = { blocks: [nativeCall('read_file', { path: 'a' }), awkward(`And again:\n${READ}`)], stop: 'tool_use' }
    const raw = await client().messages.create({ ...request, stream: true })
    const seen: string[] = []
    await expect(
      (async () => {
        for await (const e of sieveMessagesStream(raw)) seen.push(e.type)
      })(),
    ).rejects.toMatchObject({ code: 'native-conflict' })
    // the native call went out before the conflict showed; no rescued tool_use did
    expect(seen.filter((t) => t === 'content_block_start')).toHaveLength(2)
  })

  it('should support other requests and error responses through the middleware untouched', async () => {
    const c = client([sieveMiddleware()])
    expect(await c.messages.countTokens({ model: 'deepseek-chat', messages })).toMatchObject({ input_tokens: 7 })
    reply = { blocks: [], stop: 'end_turn', status: 400 }
    await expect(c.messages.create(request)).rejects.toMatchObject({ status: 400, error: { error: { message: `${READ} is not allowed` } } })
  })

  it('should not support native and rescued calls through the middleware either: the client stream fails, its cause the native-conflict', async () => {
    reply = { blocks: [nativeCall('read_file', { path: 'a' }), awkward(`And again:\n${READ}`)], stop: 'tool_use' }
    const failure = await client([sieveMiddleware()])
      .messages.stream(request)
      .finalMessage()
      .then(
        () => null,
        (e: unknown) => e,
      )
    // the SDK wraps an error of the body it reads: the ToolsieveError is its cause
    expect(failure).toMatchObject({ cause: { name: 'ToolsieveError', code: 'native-conflict' } })
    // not streaming, the middleware's own throw reaches the caller as it is
    await expect(client([sieveMiddleware()]).messages.create(request)).rejects.toMatchObject({ name: 'ToolsieveError', code: 'native-conflict' })
  })

  it('should not support bad options: sieveMiddleware checks them when it is made', () => {
    expect(() => sieveMiddleware({ onConflict: 'first' as never })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'onConflict' }))
  })
})
