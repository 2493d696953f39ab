/**
 * `toolsieve proxy` as a server around toolsieve/fetch's `repairResponse`:
 * what the bridge between Node's HTTP and the WHATWG `Response` must keep.
 * A whole Responses answer is repaired (the same repair as `sieveFetch`'s),
 * a compressed answer is read decoded, headers a response repeats
 * (`set-cookie`) all come through, an answer with no body stays without
 * one, and a client that goes away cuts the upstream's stream.
 */
import { gzipSync } from 'node:zlib'
import { request } from 'node:http'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/cli/proxy-server.js'
import { responseObject } from '../fetch/fake-upstream.js'
import { contentChunk, rawRequest, startScriptedUpstream, streamed, type ScriptedUpstream } from './scripted-upstream.js'

let up: ScriptedUpstream
let proxy: RunningProxy
let client: OpenAI
const logs: string[] = []
const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true })

beforeAll(async () => {
  up = await startScriptedUpstream()
  proxy = await startProxy({ upstream: new URL(up.url), port: 0, log: (line) => logs.push(line) })
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
})

afterAll(async () => {
  await proxy.close(0)
  await up.close()
})

beforeEach(() => {
  up.seen.length = 0
})

describe('toolsieve proxy: the repair is toolsieve/fetch\'s', () => {
  it('should support a whole Responses answer: the call as a function_call item, the text clean', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(responseObject(`Reading. ${block}`)))
    }
    const response = await client.responses.create({ model: 'm', input: 'Read a.ts' })
    const calls = response.output.filter((i) => i.type === 'function_call')
    expect(calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual([{ name: 'read_file', arguments: '{"path":"a.ts"}' }])
    expect(response.output_text).toBe('Reading.')
    expect(logs.at(-1)).toMatch(/^toolsieve proxy: POST \/v1\/responses 200 whole \d+ ms, 1 call rescued, diagnostics none$/)
  })

  it('should support a gzip-encoded event stream: read decoded, repaired, sent without the encoding', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
      res.end(gzipSync(`data: ${contentChunk('Reading. ')}\n\ndata: ${contentChunk(block)}\n\ndata: [DONE]\n\n`))
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(streamed(res.text)).toEqual({ content: 'Reading.', errors: [], done: true })
    expect(res.text).toContain('"name":"read_file"')
  })

  it('should support headers a response repeats: every set-cookie comes through', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'], 'x-request-id': 'r1' })
      res.end(`data: ${contentChunk('hi')}\n\ndata: [DONE]\n\n`)
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect(res.headers['x-request-id']).toBe('r1')
    expect(streamed(res.text).content).toBe('hi')
  })

  it('should support an answer with no body (204): no body, the upstream\'s status', async () => {
    up.answer = (_req, res) => {
      res.writeHead(204, { 'x-empty': '1' })
      res.end()
    }
    const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', chat)
    expect(res.status).toBe(204)
    expect(res.headers['x-empty']).toBe('1')
    expect(res.text).toBe('')
  })

  it('should not support native and rescued calls in one whole answer: a 502 Bad Gateway in OpenAI\'s shape', async () => {
    up.answer = (_req, res) => {
      const message = { role: 'assistant', content: block, tool_calls: [{ id: 'call_n', type: 'function', function: { name: 'read_file', arguments: '{}' } }] }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'tool_calls', message }] }))
    }
    const { hostname, port } = new URL(proxy.url)
    const got = await new Promise<{ status: number; reason: string; body: string }>((resolve, reject) => {
      const req = request({ hostname, port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } })
      req.on('response', (res) => {
        let body = ''
        res.on('data', (b: Buffer) => (body += b.toString('utf8')))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', body }))
      })
      req.on('error', reject)
      req.end(JSON.stringify({ model: 'm', messages: [] }))
    })
    expect(got).toMatchObject({ status: 502, reason: 'Bad Gateway' })
    expect(JSON.parse(got.body)).toMatchObject({ error: { type: 'toolsieve_error', code: 'native-conflict' } })
    expect(logs.at(-1)).toMatch(/ 502 whole \d+ ms, 0 calls rescued, diagnostics [^,]*, refused: native-conflict$/)
  })

  it('should not support an error event added to a body that was passed, not repaired: it is cut, the log says why', async () => {
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('part of it')
      setTimeout(() => res.socket?.destroy(), 50)
    }
    const { hostname, port } = new URL(proxy.url)
    const got = await new Promise<{ text: string; cut: boolean }>((resolve) => {
      const req = request({ hostname, port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (b: Buffer) => (text += b.toString('utf8')))
        res.on('end', () => resolve({ text, cut: false }))
        res.on('error', () => resolve({ text, cut: true }))
      })
      req.on('error', () => resolve({ text: '', cut: true }))
      req.end(chat)
    })
    expect(got).toEqual({ text: 'part of it', cut: true })
    await new Promise((r) => setTimeout(r, 50))
    expect(logs.at(-1)).toMatch(/ 200 passed \d+ ms, not repaired: content-type text\/plain, upstream failed mid-body \(/)
  })

  it('should support a client that goes away mid-stream: the upstream\'s stream is cut, the log says so', async () => {
    let upstreamClosed!: () => void
    const closed = new Promise<void>((r) => (upstreamClosed = r))
    up.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${contentChunk('Hello there. ')}\n\n`)
      const timer = setInterval(() => res.write(`data: ${contentChunk('more ')}\n\n`), 20)
      res.on('close', () => {
        clearInterval(timer)
        upstreamClosed()
      })
    }
    const { hostname, port } = new URL(proxy.url)
    await new Promise<void>((resolve, reject) => {
      const req = request({ hostname, port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } })
      req.on('response', (res) => {
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', () => {})
      req.end(chat)
      setTimeout(() => reject(new Error('no first event')), 5000)
    })
    await closed
    await new Promise((r) => setTimeout(r, 50))
    expect(logs.at(-1)).toMatch(/^toolsieve proxy: POST \/v1\/chat\/completions 200 stream \d+ ms, 0 calls rescued, diagnostics none(, [^,]+)?, client went away$/)
  })
})
