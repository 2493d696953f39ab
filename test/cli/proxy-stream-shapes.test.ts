/**
 * `toolsieve proxy` against upstream answers the repair does not expect:
 * CR-framed events (split across writes too), a line over the bound, content
 * as an array of parts, a null choice, and requests whose tool schemas the
 * validator cannot compile. What cannot be repaired passes through as it
 * came; nothing is billed and then failed.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/cli/proxy-server.js'
import { contentChunk, framesOf, rawRequest, startScriptedUpstream, streamed, type ScriptedUpstream } from './scripted-upstream.js'

let up: ScriptedUpstream
let proxy: RunningProxy
let client: OpenAI
const logs: string[] = []
const messages = [{ role: 'user' as const, content: 'Read a.ts' }]
const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }]

beforeAll(async () => {
  up = await startScriptedUpstream()
  proxy = await startProxy({ upstream: new URL(up.url), port: 0, log: (line) => logs.push(line), maxEventSize: 4096 })
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
})

afterAll(async () => {
  await proxy.close(0)
  await up.close()
})

beforeEach(() => {
  up.seen.length = 0
})

/** The upstream answers with these writes, each its own (so framing splits across reads where it can). */
function streams(writes: string[]): void {
  up.answer = async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (const w of writes) {
      res.write(w)
      await new Promise((r) => setTimeout(r, 5))
    }
    res.end()
  }
}

async function sdkStream(): Promise<{ content: string; calls: string[] }> {
  const stream = await client.chat.completions.create({ model: 'm', messages, tools, stream: true })
  let content = ''
  const calls: string[] = []
  for await (const chunk of stream) {
    for (const choice of chunk.choices) {
      content += choice.delta.content ?? ''
      for (const call of choice.delta.tool_calls ?? []) if (call.function?.name !== undefined) calls.push(call.function.name)
    }
  }
  return { content, calls }
}

describe('toolsieve proxy: event framing', () => {
  it('should support CR-framed events: the call rescued, no markup in the content', async () => {
    streams([`data: ${contentChunk('Reading. ')}\r\r`, `data: ${contentChunk(block)}\r\r`, 'data: [DONE]\r\r'])
    expect(await sdkStream()).toEqual({ content: 'Reading.', calls: ['read_file'] })
  })

  it('should support CRLF framing with a CR at one read\'s end and its LF at the next one\'s start, beside CR framing', async () => {
    streams([`data: ${contentChunk('Reading. ')}\r`, `\n\r`, `\ndata: ${contentChunk(block.slice(0, 30))}\r\r`, `data: ${contentChunk(block.slice(30))}\r\n\r`, '\ndata: [DONE]\r\n\r\n'])
    expect(await sdkStream()).toEqual({ content: 'Reading.', calls: ['read_file'] })
  })

  it('should not support a line over the bound: the held text, then an error event; nothing after', async () => {
    streams([`data: ${contentChunk('Reading. <｜DSML｜tool')}\n\n`, `data: ${contentChunk('x'.repeat(5000))}\n\n`, `data: ${contentChunk('after')}\n\n`])
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, stream: true }))
    const got = streamed(res.text)
    expect(got.content).toBe('Reading. <｜DSML｜tool')
    expect(got.errors).toEqual([{ event: undefined, error: expect.objectContaining({ code: 'event-too-large' }) }])
    expect(logs.at(-1)).toMatch(/ 200 stream \d+ ms, 0 calls rescued, diagnostics none, stopped: event-too-large$/)
  })

  it('should not support an event whose data lines add up past the bound', async () => {
    streams([`data: ${contentChunk('ok')}\n\n`, ...Array.from({ length: 6 }, () => `data: ${'y'.repeat(1000)}\n`), '\n'])
    const got = streamed((await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, stream: true }))).text)
    expect(got.content).toBe('ok')
    expect(got.errors.map((e) => e.error.code)).toEqual(['event-too-large'])
  })
})

describe('toolsieve proxy: shapes the repair does not read', () => {
  it('should support a whole completion whose content is an array of parts: the upstream\'s 200, unrepaired', async () => {
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: `Reading. ${block}` }] } }] }
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(completion))
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, tools }))
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text)).toEqual(completion)
    expect(logs.at(-1)).toMatch(/ 200 passed \d+ ms, not repaired: /)
  })

  it('should support a chunk with a null choice: passed through as it came, the rest repaired', async () => {
    streams([`data: ${contentChunk('Reading. ')}\n\n`, 'data: {"choices":[null]}\n\n', `data: ${contentChunk(block)}\n\n`, 'data: [DONE]\n\n'])
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, tools, stream: true }))
    const frames = framesOf(res.text).map((f) => f.data)
    expect(frames).toContain('{"choices":[null]}')
    expect(frames.at(-1)).toBe('[DONE]')
    expect(res.text).toContain('"name":"read_file"')
    expect(res.text).not.toContain('DSML')
    expect(streamed(res.text).errors).toEqual([])
  })

  for (const [name, shape] of [
    ['a choice that is a string', '{"choices":["x"]}'],
    ['content that is a number', '{"choices":[{"index":0,"delta":{"content":7}}]}'],
    ['tool_calls holding null', '{"choices":[{"index":0,"delta":{"tool_calls":[null]}}]}'],
    ['a chunk that is an array', '[1,2]'],
    ['a chunk that is null', 'null'],
  ] as const) {
    it(`should support ${name}: passed through as it came`, async () => {
      streams([`data: ${shape}\n\n`, `data: ${contentChunk('fine')}\n\n`, 'data: [DONE]\n\n'])
      const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, stream: true }))
      expect(framesOf(res.text).map((f) => f.data)[0]).toBe(shape)
      expect(streamed(res.text.slice(res.text.indexOf('\n\n'))).content).toBe('fine')
    })
  }
})

describe('toolsieve proxy: tools it cannot read', () => {
  // a dialect the validator does not take (draft-04 to 2020-12 are taken)
  const draft3 = [{ type: 'function', function: { name: 'read_file', parameters: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object', properties: { path: { type: 'string' } } } } }]
  const remote = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { $ref: 'https://example.com/path.json' } } } } }]

  it('should support a draft-03 schema: the upstream\'s answer passed through unrepaired, a warning logged', async () => {
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: block } }] }
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(completion))
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, tools: draft3 }))
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text)).toEqual(completion)
    expect(up.seen).toHaveLength(1)
    expect(logs.at(-1)).toMatch(/ 200 passed \d+ ms, warning: not repaired, the request's options cannot be read \(tools\[0\]: .*cannot be used/)
  })

  it('should support a remote $ref in a streamed request: the stream passed through as it came', async () => {
    const writes = [`data: ${contentChunk(block)}\n\n`, 'data: [DONE]\n\n']
    streams(writes)
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, tools: remote, stream: true }))
    expect(res.status).toBe(200)
    expect(res.text).toBe(writes.join(''))
    expect(logs.at(-1)).toMatch(/warning: not repaired, the request's options cannot be read \(tools\[0\]: /)
  })
})
