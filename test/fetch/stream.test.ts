/**
 * toolsieve/fetch on event streams, through a stand-in upstream whose body
 * is cut into exact byte pieces: framing, the order of what is not a chunk
 * (comments, data that is not JSON, `[DONE]`, upstream error events), what
 * the sieve held going out before an error or a cut connection, the line
 * bound, and that the answer streams (the first event is read before the
 * upstream has sent the rest).
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { accumulate, counter } from '../adapters/openai-helpers.js'
import { bodyOf, chatChunk, chatSse, dataOf, dsml, framesOf, sseHeaders, stubFetch } from './helpers.js'

const url = 'http://upstream.test/v1/chat/completions'
const request = { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true }) }
const contents = ['Let me read.\n\n<｜DS', 'ML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜inv', 'oke>\n</｜DSML｜tool_calls>']
const expected = { content: 'Let me read.', reasoning: '', calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }], finish: 'tool_calls' }

async function through(pieces: (string | Uint8Array | Error)[], options: Parameters<typeof sieveFetch>[0] = {}, target = url, init = request): Promise<Response> {
  const stub = stubFetch(() => new Response(bodyOf(pieces), { status: 200, headers: sseHeaders }))
  return sieveFetch({ generateId: counter(), ...options }, stub.fetch)(target, init)
}

const chunksOf = (text: string) => dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]

describe('sieveFetch, event streams', () => {
  for (const [name, ending] of [['LF', '\n'], ['CR', '\r'], ['CRLF', '\r\n']] as const) {
    it(`should support ${name} framing cut at every line break and every fifth byte (every byte for CRLF)`, async () => {
      const bytes = new TextEncoder().encode(chatSse(contents, ending))
      const breakAt = (i: number) => bytes[i] === 0x0a || bytes[i] === 0x0d
      for (let i = 1; i < bytes.length; i += 1) {
        if (ending !== '\r\n' && i % 5 !== 0 && !breakAt(i - 1) && !breakAt(i)) continue
        const text = await (await through([bytes.subarray(0, i), bytes.subarray(i)])).text()
        expect(accumulate(chunksOf(text)), `split at byte ${i}`).toEqual(expected)
        expect(text.endsWith('data: [DONE]\n\n'), `split at byte ${i}`).toBe(true)
      }
      const text = await (await through(Array.from(bytes, (b) => Uint8Array.of(b)))).text()
      expect(accumulate(chunksOf(text))).toEqual(expected)
    })
  }

  it('should support comments and data that is not JSON, where they stood', async () => {
    const sse = chatSse(contents)
    const at = sse.indexOf('data: ', 10)
    const text = await (await through([': keep-alive\n\n', sse.slice(0, at), 'data: not json\n\n', sse.slice(at)])).text()
    const frames = framesOf(text)
    expect(frames[0]).toBe(': keep-alive\n\n')
    expect(frames).toContain('data: not json\n\n')
    expect(frames.indexOf('data: not json\n\n')).toBe(2)
    expect(frames.at(-1)).toBe('data: [DONE]\n\n')
  })

  it('should support an upstream error event: the held text goes out first, then the event as it came, named', async () => {
    const held = 'Look: <｜DSML｜tool_c'
    const error = 'event: error\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n'
    const text = await (await through([`data: ${JSON.stringify(chatChunk({ content: held }))}\n\n`, error, `data: ${JSON.stringify(chatChunk({ content: 'after' }))}\n\n`])).text()
    const frames = framesOf(text)
    const errorAt = frames.indexOf(error)
    expect(errorAt).toBeGreaterThan(0)
    expect(accumulate(chunksOf(frames.slice(0, errorAt).join(''))).content).toBe(held)
    // what upstream sent after its error passes as it came
    expect(frames.slice(errorAt + 1)).toEqual([`data: ${JSON.stringify(chatChunk({ content: 'after' }))}\n\n`])
  })

  it('should support a Responses error event after held text', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: 'Hi <｜DSML｜tool', logprobs: [] },
      { type: 'error', code: 'server_error', message: 'overloaded', param: null },
    ]
    const sse = events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
    const text = await (await through(sse, {}, 'http://upstream.test/v1/responses')).text()
    const frames = framesOf(text)
    expect(frames.at(-1)).toBe(sse[3])
    const deltas = dataOf(frames.slice(0, -1).join('')).filter((d) => (d as { type: string }).type === 'response.output_text.delta') as { delta: string }[]
    expect(deltas.map((d) => d.delta).join('')).toBe('Hi <｜DSML｜tool')
    expect(frames.slice(0, -1).every((f) => f.startsWith('event: response.'))).toBe(true)
  })

  it('should support a cut connection: the held text goes out, then the read fails with the upstream error', async () => {
    const cut = new TypeError('terminated')
    const response = await through([`data: ${JSON.stringify(chatChunk({ content: 'Partial <｜DSML｜tool_calls>\n<｜DSML｜inv' }))}\n\n`, cut])
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    let failure: unknown
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value
    } catch (error) {
      failure = error
    }
    expect(failure).toBe(cut)
    expect(accumulate(chunksOf(text)).content).toBe('Partial <｜DSML｜tool_calls>\n<｜DSML｜inv')
  })

  it('should not support a line over 64 MiB: an error event, and the upstream is cancelled', async () => {
    const mib = 'x'.repeat(1024 * 1024)
    let sent = 0
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chatChunk({ content: 'Hi' }))}\n\ndata: `))
      },
      pull(c) {
        sent++
        c.enqueue(new TextEncoder().encode(mib))
      },
      cancel() {
        cancelled = true
      },
    })
    const response = await sieveFetch({}, async () => new Response(body, { headers: sseHeaders }))(url, request)
    const text = await response.text()
    const frames = framesOf(text)
    expect(accumulate(chunksOf(text)).content).toBe('Hi')
    expect(frames.at(-1)).toMatch(/^data: \{"error":\{"message":"an event-stream line or event is over 67108864 characters","type":"toolsieve_error","code":"event-too-large"\}\}\n\n$/)
    expect(cancelled).toBe(true)
    expect(sent).toBeLessThan(70)
  })

  it('should support streaming: an event goes out before upstream sends the next', async () => {
    let push!: (text: string) => void
    let close!: () => void
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (text) => c.enqueue(new TextEncoder().encode(text))
        close = () => c.close()
      },
    })
    const response = await sieveFetch({}, async () => new Response(body, { headers: sseHeaders }))(url, request)
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    push(`data: ${JSON.stringify(chatChunk({ content: 'Hello there.' }))}\n\n`)
    const first = await reader.read()
    expect(dataOf(first.value!)).toEqual([chatChunk({ content: 'Hello there.' })])
    push(`data: ${JSON.stringify(chatChunk({}, 'stop'))}\n\n`)
    close()
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value
    expect(chunksOf(rest).at(-1)!.choices[0]!.finish_reason).toBe('stop')
  })

  it('should support cancelling the answer: the upstream body is cancelled, the report says so', async () => {
    let cancelled: unknown
    const reports: RepairReport[] = []
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chatChunk({ content: 'Hello there. ' }))}\n\n`))
      },
      cancel(reason) {
        cancelled = reason ?? 'cancelled'
      },
    })
    const response = await sieveFetch({ onReport: (r) => reports.push(r) }, async () => new Response(body, { headers: sseHeaders }))(url, request)
    const reader = response.body!.getReader()
    await reader.read()
    await reader.cancel('bye')
    expect(cancelled).toBe('bye')
    expect(reports).toEqual([{ route: 'chat', mode: 'stream', rescued: 0, note: 'cancelled by the reader' }])
  })

  it('should not support a native call and a rescued one in one turn: an error event the SDKs throw', async () => {
    const native = chatChunk({ tool_calls: [{ index: 0, id: 'call_n', type: 'function', function: { name: 'read_file', arguments: '{}' } }] })
    const reports: RepairReport[] = []
    const text = await (await through([`data: ${JSON.stringify(native)}\n\n`, `data: ${JSON.stringify(chatChunk({ content: dsml('a.ts') }))}\n\n`, 'data: [DONE]\n\n'], { onReport: (r) => reports.push(r) })).text()
    const last = framesOf(text).at(-1)!
    expect(last).toMatch(/^data: \{"error":\{"message":".*","type":"toolsieve_error","code":"native-conflict"\}\}\n\n$/)
    expect(reports).toEqual([{ route: 'chat', mode: 'stream', rescued: 0, note: 'stopped: native-conflict' }])
  })

  it('should support a report of the rescued calls', async () => {
    const reports: RepairReport[] = []
    await (await through([chatSse(contents)], { onReport: (r) => reports.push(r) })).text()
    expect(reports).toEqual([{ route: 'chat', mode: 'stream', rescued: 1 }])
  })
})
