/**
 * What toolsieve/fetch leaves alone, byte for byte (other routes, error
 * statuses, bodies that are not JSON or not the route's answer), the forms
 * a request may come in, and the options it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { ToolsieveError } from '../../src/errors.js'
import { counter } from '../adapters/openai-helpers.js'
import { dsml, sseHeaders, stubFetch } from './helpers.js'
import { chatCompletion, ERROR_BODY, MODELS, PLAIN, startUpstream, type Upstream } from './fake-upstream.js'

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream({ deltas: ['Let me look.\n\n', dsml('a.ts')] })
})
afterAll(async () => {
  await upstream.close()
})

const bytes = async (r: Response) => new Uint8Array(await r.arrayBuffer())
const chatBody = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }] })

describe('sieveFetch, what passes through', () => {
  it('should support GET /models: the same bytes, status and headers as fetch', async () => {
    const plain = await fetch(`${upstream.baseURL}/models`)
    const sieved = await sieveFetch()(`${upstream.baseURL}/models`)
    expect(sieved.status).toBe(plain.status)
    expect(sieved.headers.get('content-type')).toBe(plain.headers.get('content-type'))
    expect(new TextDecoder().decode(await bytes(sieved))).toBe(MODELS)
    expect(await bytes(plain)).toEqual(new TextEncoder().encode(MODELS))
  })

  it('should support an error status on a repaired route: the body as it came', async () => {
    const reports: RepairReport[] = []
    const sieved = await sieveFetch({ onReport: (r) => reports.push(r) })(`${upstream.baseURL}/chat/completions`, { method: 'POST', headers: { 'x-fail': '1' }, body: chatBody })
    expect(sieved.status).toBe(401)
    expect(new TextDecoder().decode(await bytes(sieved))).toBe(ERROR_BODY)
    expect(reports).toEqual([{ route: 'chat', mode: 'passed', rescued: 0 }])
  })

  it('should support a body that is not JSON on a repaired route: the body as it came', async () => {
    const reports: RepairReport[] = []
    const sieved = await sieveFetch({ onReport: (r) => reports.push(r) })(`${upstream.baseURL}/chat/completions`, { method: 'POST', headers: { 'x-plain': '1' }, body: chatBody })
    expect(new TextDecoder().decode(await bytes(sieved))).toBe(PLAIN)
    expect(reports).toEqual([{ route: 'chat', mode: 'passed', rescued: 0, note: 'not repaired: content-type text/plain; charset=utf-8' }])
  })

  it('should support a JSON body that is not the route\'s answer, or not JSON at all: its bytes', async () => {
    for (const body of ['{ "object": "list" ,"data": [] }', '{"choices": [', 'null']) {
      const stub = stubFetch(() => new Response(body, { headers: { 'content-type': 'application/json' } }))
      const sieved = await sieveFetch({}, stub.fetch)('http://x/v1/chat/completions', { method: 'POST', body: chatBody })
      expect(await sieved.text()).toBe(body)
    }
  })

  it('should support a whole answer over 64 MiB: not held, its bytes go on', async () => {
    const mib = new TextEncoder().encode('x'.repeat(1024 * 1024))
    let n = 0
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n++ < 65) c.enqueue(mib)
        else c.close()
      },
    })
    const reports: RepairReport[] = []
    const sieved = await sieveFetch({ onReport: (r) => reports.push(r) }, async () => new Response(body, { headers: { 'content-type': 'application/json' } }))('http://x/v1/chat/completions', { method: 'POST', body: chatBody })
    const out = await bytes(sieved)
    expect(out.length).toBe(65 * mib.length)
    expect(out.every((b) => b === 0x78)).toBe(true)
    expect(reports).toEqual([{ route: 'chat', mode: 'passed', rescued: 0, note: 'not repaired: body over 67108864 bytes' }])
  })

  it('should support a whole answer with nothing to repair: its bytes, not the same JSON written again', async () => {
    const body = JSON.stringify(chatCompletion('Just text, é.'), null, 2)
    const stub = stubFetch(() => new Response(body, { headers: { 'content-type': 'application/json' } }))
    expect(await (await sieveFetch({}, stub.fetch)('http://x/v1/chat/completions', { method: 'POST', body: chatBody })).text()).toBe(body)
  })

  it('should not support an answer with native and rescued calls: a 502 in OpenAI\'s error shape', async () => {
    const completion = chatCompletion(dsml('a.ts')) as { choices: { message: Record<string, unknown> }[] }
    completion.choices[0]!.message.tool_calls = [{ id: 'call_n', type: 'function', function: { name: 'read_file', arguments: '{}' } }]
    const stub = stubFetch(() => new Response(JSON.stringify(completion), { headers: { 'content-type': 'application/json' } }))
    const sieved = await sieveFetch({}, stub.fetch)('http://x/v1/chat/completions', { method: 'POST', body: chatBody })
    expect(sieved.status).toBe(502)
    expect(await sieved.json()).toMatchObject({ error: { type: 'toolsieve_error', code: 'native-conflict' } })
  })

  it('should support a request whose tools the adapter refuses: the answer passes unrepaired, the report says why', async () => {
    const reports: RepairReport[] = []
    const stub = stubFetch(() => new Response(`data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n`, { headers: sseHeaders }))
    const body = JSON.stringify({ messages: [], tools: [42], stream: true })
    const sieved = await sieveFetch({ onReport: (r) => reports.push(r) }, stub.fetch)('http://x/v1/chat/completions', { method: 'POST', body })
    expect(await sieved.text()).toBe(`data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n`)
    expect(reports[0]!.mode).toBe('passed')
    expect(reports[0]!.note).toMatch(/^not repaired: invalid-option: tools\[0\]/)
  })

  it('should support every form of request: string, URL, Request; string, bytes, stream and Request bodies', async () => {
    const target = `${upstream.baseURL}/chat/completions`
    const encoded = new TextEncoder().encode(chatBody)
    const forms: [string, () => Parameters<typeof fetch>][] = [
      ['string, string body', () => [target, { method: 'POST', body: chatBody }]],
      ['URL, bytes body', () => [new URL(target), { method: 'POST', body: encoded }]],
      ['string, stream body', () => [target, { method: 'POST', body: new Blob([encoded]).stream(), duplex: 'half' } as RequestInit]],
      ['Request with its body', () => [new Request(target, { method: 'POST', body: chatBody })]],
      ['Request, body in init', () => [new Request(target, { method: 'POST' }), { method: 'POST', body: chatBody }]],
      ['string, Blob body', () => [target, { method: 'POST', body: new Blob([chatBody]) }]],
    ]
    for (const [name, args] of forms) {
      const before = upstream.requests.length
      const completion = (await (await sieveFetch({ generateId: counter() })(...args())).json()) as { choices: { message: { tool_calls: unknown } }[] }
      expect(completion.choices[0]!.message.tool_calls, name).toEqual([{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }])
      expect(upstream.requests.slice(before), name).toEqual([JSON.parse(chatBody)])
    }
  })

  it('should support the global fetch looked up at each call', async () => {
    const original = globalThis.fetch
    const stub = stubFetch(() => new Response('ok'))
    const sieved = sieveFetch()
    globalThis.fetch = stub.fetch
    try {
      expect(await (await sieved('http://x/v1/models')).text()).toBe('ok')
    } finally {
      globalThis.fetch = original
    }
    expect(stub.sent).toHaveLength(1)
  })
})

describe('sieveFetch, options', () => {
  it('should not support a bad option: refused at once, naming the field', () => {
    const refused = (f: () => unknown): ToolsieveError => {
      try {
        f()
      } catch (error) {
        return error as ToolsieveError
      }
      throw new Error('not refused')
    }
    expect(refused(() => sieveFetch({ onConflict: 'both' as never }))).toMatchObject({ code: 'invalid-option', field: 'onConflict' })
    expect(refused(() => sieveFetch({ tools: [] } as never))).toMatchObject({ code: 'invalid-option', field: 'tools' })
    expect(refused(() => sieveFetch({ thinking: true } as never))).toMatchObject({ code: 'invalid-option', field: 'thinking' })
    expect(refused(() => sieveFetch({ onReport: 1 as never }))).toMatchObject({ code: 'invalid-option', field: 'onReport' })
    expect(refused(() => sieveFetch({}, 'fetch' as never))).toMatchObject({ code: 'invalid-option', field: 'baseFetch' })
  })
})
