/**
 * `toolsieve proxy` against hostile requests and stalled upstreams: a path
 * never leaves the upstream's prefix, the query goes as given and never into
 * the log, a fragment never goes upstream, and an upstream that stops
 * answering is a 504 (or, mid-stream, the text held so far and then an
 * error event). Everything runs on 127.0.0.1 with short timeouts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/cli/proxy-server.js'
import { contentChunk, rawRequest, startScriptedUpstream, streamed, type ScriptedUpstream } from './scripted-upstream.js'

let up: ScriptedUpstream
let proxy: RunningProxy
const logs: string[] = []
const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })

beforeAll(async () => {
  up = await startScriptedUpstream()
  proxy = await startProxy({ upstream: new URL(`${up.url}/api`), port: 0, log: (line) => logs.push(line), upstreamTimeoutMs: 300 })
})

afterAll(async () => {
  await proxy.close(0)
  await up.close()
})

beforeEach(() => {
  up.seen.length = 0
  up.answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  }
})

describe('toolsieve proxy: the upstream path', () => {
  for (const target of [
    '/v1/../../../admin/chat/completions',
    '/v1/%2e%2e/%2E%2E/admin/chat/completions',
    '/v1/.%2e/admin/chat/completions',
    '/v1\\..\\..\\admin/chat/completions',
    '/v1/..%2f..%2fadmin/chat/completions',
    '/..',
  ]) {
    it(`should not support a dot-dot segment leaving the prefix: ${target} is a 400, upstream never called`, async () => {
      const res = await rawRequest(proxy.url, 'POST', target, chat)
      expect(res.status).toBe(400)
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'bad-path' } })
      expect(up.seen).toEqual([])
    })
  }

  it('should not support a dot-dot segment on a pass-through route either', async () => {
    const res = await rawRequest(proxy.url, 'GET', '/v1/../../secrets')
    expect(res.status).toBe(400)
    expect(up.seen).toEqual([])
  })

  it('should support single-dot segments: normalised away, under the prefix', async () => {
    const res = await rawRequest(proxy.url, 'GET', '/v1/./%2e/models')
    expect(res.status).toBe(200)
    expect(up.seen.map((s) => s.url)).toEqual(['/api/v1/models'])
  })

  it('should support the query as the client gave it, and never send a fragment', async () => {
    await rawRequest(proxy.url, 'GET', '/v1/models?key=a%20b&q="x"&empty=#frag')
    await rawRequest(proxy.url, 'GET', '/v1/models#only?not-a-query')
    expect(up.seen.map((s) => s.url)).toEqual(['/api/v1/models?key=a%20b&q="x"&empty=', '/api/v1/models'])
  })

  it('should not support query strings in the log: the path only', async () => {
    await rawRequest(proxy.url, 'GET', '/v1/models?key=sk-secret-123')
    await rawRequest(proxy.url, 'POST', '/v1/chat/completions?api_key=sk-secret-456', chat)
    const mine = logs.slice(-2)
    expect(mine).toEqual([expect.stringMatching(/^toolsieve proxy: GET \/v1\/models 200 passed \d+ ms$/), expect.stringMatching(/^toolsieve proxy: POST \/v1\/chat\/completions 200 /)])
    expect(mine.join('\n')).not.toContain('sk-secret')
  })
})

describe('toolsieve proxy: --upstream-timeout', () => {
  it('should not support an upstream that never answers: 504 with a JSON error, on a repaired route', async () => {
    up.answer = () => new Promise(() => {})
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(res.status).toBe(504)
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'upstream-timeout' } })
    expect(logs.at(-1)).toMatch(/ 504 failed \d+ ms, upstream timed out/)
  })

  it('should not support an upstream that never answers: 504 on a pass-through route', async () => {
    up.answer = () => new Promise(() => {})
    const res = await rawRequest(proxy.url, 'GET', '/v1/models')
    expect(res.status).toBe(504)
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'upstream-timeout' } })
  })

  it('should not support a whole completion whose body stalls: 504', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id":"x","choices":[')
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages: [] }))
    expect(res.status).toBe(504)
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'upstream-timeout' } })
  })

  it('should support a stream that stalls mid-block: the held text goes out, then an error event', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${contentChunk('I will read it. ')}\n\n`)
      res.write(`data: ${contentChunk('<｜DSML｜tool_calls>\n<｜DSML｜inv')}\n\n`)
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(res.status).toBe(200)
    const got = streamed(res.text)
    expect(got.content).toBe('I will read it. <｜DSML｜tool_calls>\n<｜DSML｜inv')
    expect(got.errors).toEqual([{ event: undefined, error: expect.objectContaining({ code: 'upstream-timeout' }) }])
    expect(res.text.trimEnd().endsWith('}')).toBe(true)
    expect(got.done).toBe(false)
  })

  it('should support an upstream that is slow but never silent for the timeout: no 504', async () => {
    up.answer = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      for (const piece of ['a', 'b', 'c', 'd']) {
        res.write(`data: ${contentChunk(piece)}\n\n`)
        await new Promise((r) => setTimeout(r, 150))
      }
      res.end('data: [DONE]\n\n')
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(streamed(res.text)).toEqual({ content: 'abcd', errors: [], done: true })
  })
})

describe('toolsieve proxy: an upstream that fails mid-stream', () => {
  it('should support the held text going out before the error event', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${contentChunk('Reading. <｜DSML｜tool_c')}\n\n`)
      setTimeout(() => res.socket?.destroy(), 50)
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    const got = streamed(res.text)
    expect(got.content).toBe('Reading. <｜DSML｜tool_c')
    expect(got.errors).toEqual([{ event: undefined, error: expect.objectContaining({ code: 'upstream-failed' }) }])
    expect(logs.at(-1)).toMatch(/ 200 stream \d+ ms, 0 calls rescued, diagnostics [^,]*, upstream failed mid-stream/)
  })

  it('should support an upstream error event: its event name kept, after the held text', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${contentChunk('Reading. <｜DSML｜tool_c')}\n\n`)
      res.end(`event: error\ndata: {"error":{"message":"overloaded","code":"overloaded"}}\n\n`)
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    const got = streamed(res.text)
    expect(got.content).toBe('Reading. <｜DSML｜tool_c')
    expect(got.errors).toEqual([{ event: 'error', error: { message: 'overloaded', code: 'overloaded' } }])
    expect(res.text.indexOf('event: error')).toBeGreaterThan(res.text.indexOf('tool_c'))
  })
})
