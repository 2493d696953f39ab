/**
 * `toolsieve proxy`, end to end: the real `openai` SDK (baseURL at the
 * proxy) → the proxy on 127.0.0.1 → a fake upstream on 127.0.0.1 that leaks
 * DSML into `content`, cut at awkward places. The SDK gets proper
 * `tool_calls` and clean content, streamed and not; other paths and upstream
 * errors pass through; a dead upstream is a 502.
 */
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '../../bench/fake-upstream.js'
import { startProxy, type RunningProxy } from '../../src/cli/proxy-server.js'
import { main, root } from './run.js'

const tools = [
  {
    type: 'function' as const,
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] } },
  },
]
const messages = [{ role: 'user' as const, content: 'Read src/a.ts' }]
const expectedCall = { name: 'read_file', arguments: '{"path":"src/a.ts","limit":20}' }

let upstream: FakeUpstream
let proxy: RunningProxy
let client: OpenAI
const logs: string[] = []

beforeAll(async () => {
  upstream = await startFakeUpstream()
  proxy = await startProxy({ upstream: new URL(upstream.url), port: 0, log: (line) => logs.push(line) })
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
})

afterAll(async () => {
  await proxy.close(0)
  await upstream.close()
})

/** A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as { port: number }
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

describe('toolsieve proxy', () => {
  it('should support a streamed chat completion: tool_calls rescued, content clean, finish tool_calls', async () => {
    const stream = await client.chat.completions.create({ model: 'deepseek-chat', messages, tools, stream: true })
    let content = ''
    const calls: { name: string; arguments: string }[] = []
    let finish: string | null = null
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        content += choice.delta.content ?? ''
        for (const call of choice.delta.tool_calls ?? []) {
          if (call.function?.name !== undefined) calls[call.index] = { name: call.function.name, arguments: '' }
          calls[call.index]!.arguments += call.function?.arguments ?? ''
        }
        finish = choice.finish_reason ?? finish
      }
    }
    expect(content).toBe('I will read the file first.')
    expect(calls).toEqual([expectedCall])
    expect(finish).toBe('tool_calls')
    expect(logs.at(-1)).toMatch(/^toolsieve proxy: POST \/v1\/chat\/completions 200 stream \d+ ms, 1 call rescued, diagnostics none$/)
  })

  it('should support the SDK\'s own stream helper: finalChatCompletion has the call', async () => {
    const completion = await client.chat.completions.stream({ model: 'deepseek-chat', messages, tools }).finalChatCompletion()
    const message = completion.choices[0]!.message
    expect(message.tool_calls?.map((c) => (c.type === 'function' ? { name: c.function.name, arguments: c.function.arguments } : c))).toEqual([expectedCall])
    expect(message.content).toBe('I will read the file first.')
  })

  it('should support a non-streamed chat completion, and send the request on as the client sent it', async () => {
    const completion = await client.chat.completions.create({ model: 'deepseek-chat', messages, tools }, { headers: { 'x-trace': 'abc' } })
    const choice = completion.choices[0]!
    expect(choice.message.content).toBe('I will read the file first.')
    expect(choice.message.tool_calls?.map((c) => (c.type === 'function' ? c.function : c))).toEqual([expectedCall])
    expect(choice.finish_reason).toBe('tool_calls')
    const seen = upstream.requests.at(-1)!
    expect(seen.url).toBe('/v1/chat/completions')
    expect(seen.headers.authorization).toBe('Bearer sk-test')
    expect(seen.headers['x-trace']).toBe('abc')
    expect(seen.body).toMatchObject({ model: 'deepseek-chat', messages, tools })
    expect(logs.at(-1)).toMatch(/ 200 whole \d+ ms, 1 call rescued/)
  })

  it('should not support hop-by-hop headers crossing: they are dropped, the length is set again', async () => {
    const body = JSON.stringify({ model: 'deepseek-chat', messages })
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'keep-alive, x-hop', 'x-hop': '1', 'proxy-authorization': 'secret', te: 'trailers', 'x-end': 'kept' },
      })
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })
    expect(status).toBe(200)
    const seen = upstream.requests.at(-1)!.headers
    expect(seen['x-hop']).toBeUndefined()
    expect(seen['proxy-authorization']).toBeUndefined()
    expect(seen.te).toBeUndefined()
    expect(seen['x-end']).toBe('kept')
    expect(seen['content-length']).toBe(String(Buffer.byteLength(body)))
  })

  it('should support a streamed Responses call: the call as a function_call item', async () => {
    const stream = await client.responses.create({ model: 'deepseek-chat', input: 'Read src/a.ts', stream: true })
    const items: { type: string; name?: string; arguments?: string }[] = []
    let text = ''
    for await (const event of stream) {
      if (event.type === 'response.output_item.done') items.push(event.item as never)
      if (event.type === 'response.output_text.delta') text += event.delta
    }
    expect(items.filter((i) => i.type === 'function_call').map((i) => ({ name: i.name, arguments: i.arguments }))).toEqual([expectedCall])
    expect(text).toBe('I will read the file first.')
  })

  it('should support other paths passing through unchanged: /v1/models with its headers', async () => {
    const { data, response } = await client.models.list().withResponse()
    expect(response.headers.get('x-fake')).toBe('models')
    const models = []
    for await (const m of data) models.push(m.id)
    expect(models).toEqual(['deepseek-chat'])
    expect(logs.at(-1)).toMatch(/^toolsieve proxy: GET \/v1\/models 200 passed \d+ ms$/)
  })

  it('should support upstream errors passing through as they are', async () => {
    const error = await client.chat.completions.create({ model: 'bad-model', messages }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('Model Not Exist')
  })

  it('should not support an unreachable upstream: 502 with a JSON error body', async () => {
    const lines: string[] = []
    const dead = await startProxy({ upstream: new URL(`http://127.0.0.1:${await deadPort()}`), port: 0, log: (line) => lines.push(line) })
    try {
      const sdk = new OpenAI({ baseURL: `${dead.url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
      const error = await sdk.chat.completions.create({ model: 'deepseek-chat', messages, stream: true }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OpenAI.APIError)
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502)
      expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ code: 'upstream-unreachable', message: expect.stringContaining('ECONNREFUSED') })
      const models = await fetch(`${dead.url}/v1/models`)
      expect(models.status).toBe(502)
      expect(await models.json()).toMatchObject({ error: { code: 'upstream-unreachable' } })
      expect(lines).toEqual([
        expect.stringMatching(/^toolsieve proxy: POST \/v1\/chat\/completions 502 failed \d+ ms, upstream unreachable \(ECONNREFUSED\)$/),
        expect.stringMatching(/^toolsieve proxy: GET \/v1\/models 502 failed \d+ ms, upstream unreachable \(ECONNREFUSED\)$/),
      ])
    } finally {
      await dead.close(0)
    }
  })

  it('should support the command: listening on port 0, a stream in flight finishes after SIGTERM, exit 0', async () => {
    const slow = await startFakeUpstream({ gapMs: 15 })
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'proxy', '--upstream', slow.url, '--port', '0'], { cwd: root })
    let stderr = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (b: Buffer) => {
          stderr += b.toString('utf8')
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)
          if (m !== null) resolve(m[1]!)
        })
        child.on('exit', () => reject(new Error(`proxy exited: ${stderr}`)))
      })
      const sdk = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
      const stream = await sdk.chat.completions.create({ model: 'deepseek-chat', messages, tools, stream: true })
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
      let names = ''
      let signalled = false
      for await (const chunk of stream) {
        if (!signalled) {
          child.kill('SIGTERM')
          signalled = true
        }
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) names += call.function?.name ?? ''
      }
      expect(names).toBe('read_file')
      expect(await exited).toBe(0)
      expect(stderr).toMatch(/SIGTERM: finishing requests in flight/)
      expect(stderr).toMatch(/POST \/v1\/chat\/completions 200 stream \d+ ms, 1 call rescued/)
      expect(stderr).toMatch(/stopped\n$/)
    } finally {
      child.kill('SIGKILL')
      await slow.close()
    }
  })

  it('should not support a missing --upstream, a bad URL, port or timeout: one line, exit 2', async () => {
    const { cli } = await import('./run.js')
    const up = ['proxy', '--upstream', 'http://127.0.0.1:1']
    for (const args of [['proxy'], ['proxy', '--upstream', 'ftp://x'], [...up, '--port', 'x'], [...up, '--port', '-1'], [...up, '--upstream-timeout', 'soon']]) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(/^toolsieve proxy: /)])
    }
  })
})
