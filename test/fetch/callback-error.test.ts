/**
 * toolsieve/fetch when the caller's `onDiagnostic` throws while a stream is
 * repaired. The error is the caller's, not a failure of the repair: the body
 * sends what the chunk made and what the sieve held, then fails with that
 * very error, as it fails when the upstream's body does. No error event
 * with a code of the library's own stands in for it (the error codes an
 * event carries are the library's stable ones: `native-conflict`,
 * `call-aborted`, `invalid-chunk`, `event-too-large`), and a `code` the
 * callback's error carries is not written as if it were one of them.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveFetch, type RepairReport } from '../../src/fetch/index.js'
import { accumulate, block, counter, invoke, param } from '../adapters/openai-helpers.js'
import { chatCompletion, responseObject } from './fake-upstream.js'
import { bodyOf, chatChunk, dataOf, readUntilFailure, sseHeaders, stubFetch } from './helpers.js'

const BAD = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">oops</｜DSML｜tool_calls>'
const CALL = block(invoke('read_file', param('path', 'a.ts')))
/** One chunk: text, a failed block (its malformed-block diagnostic), text, a call, and text the sieve holds at its end. */
const PUSH = `Hi ${BAD} then ${CALL} and <｜DSML｜too`
const frame = (data: unknown, event?: string) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`

/** The repaired body's text up to its end or failure, the failure, and the report. */
async function read(route: 'chat' | 'responses', pieces: string[], thrown: unknown): Promise<{ text: string; error: unknown; report: RepairReport | undefined }> {
  const stub = stubFetch(() => new Response(bodyOf(pieces), { headers: sseHeaders }))
  let report: RepairReport | undefined
  const onDiagnostic = () => {
    throw thrown
  }
  const fetch = sieveFetch({ generateId: counter(), onDiagnostic, onReport: (r) => (report = r) }, stub.fetch)
  const request = route === 'chat' ? { model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], stream: true } : { model: 'm', input: 'Read a.ts', stream: true }
  const answer = await fetch(`http://upstream.test/v1/${route === 'chat' ? 'chat/completions' : 'responses'}`, { method: 'POST', body: JSON.stringify(request) })
  const { text, error } = await readUntilFailure(answer.body!)
  return { text, error, report }
}

const chatPieces = [frame(chatChunk({ role: 'assistant', content: '' })), frame(chatChunk({ content: PUSH })), frame(chatChunk({ content: ' later' })), frame(chatChunk({}, 'stop')), 'data: [DONE]\n\n']
/** Error events (chat: data with `error`; Responses: type `error`) in the body. */
const errorEvents = (text: string) => dataOf(text).filter((d) => typeof d === 'object' && d !== null && ('error' in d || (d as { type?: unknown }).type === 'error'))

describe('sieveFetch, an onDiagnostic that throws', () => {
  it('should support the body failing with the callback\'s own error after what the chunk made and what the sieve held', async () => {
    const thrown = new Error('refused malformed-block')
    const { text, error, report } = await read('chat', chatPieces, thrown)
    const chunks = dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]
    const got = accumulate(chunks)
    expect(got.content).toBe(`Hi ${BAD} then  and <｜DSML｜too`)
    expect(got.calls.map((c) => c.name)).toEqual(['read_file'])
    expect(error).toBe(thrown)
    expect(errorEvents(text)).toEqual([])
    expect(text).not.toContain('repair-failed')
    expect(report?.note).toContain('refused malformed-block')
  })

  it('should not support a code the callback\'s error carries being written as the library\'s: no native-conflict error event', async () => {
    const thrown = Object.assign(new Error('my policy'), { code: 'native-conflict' })
    const { text, error } = await read('chat', chatPieces, thrown)
    expect(error).toBe(thrown)
    expect(errorEvents(text)).toEqual([])
  })

  it('should support the body failing with a thrown value that cannot be written as text (no prototype), the note naming it as such', async () => {
    const thrown = Object.create(null) as object
    const { error, report } = await read('chat', chatPieces, thrown)
    expect(error).toBe(thrown)
    expect(report?.note).toBe('stopped: onDiagnostic threw: a value that cannot be shown')
  })

  it('should support a Responses stream failing with the callback\'s own error after the text the sieve held', async () => {
    const thrown = new Error('refused')
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', ...at, delta: PUSH, logprobs: [] },
      { type: 'response.output_text.delta', ...at, delta: ' later', logprobs: [] },
    ].map((e, i) => ({ ...e, sequence_number: i }))
    const { text, error } = await read('responses', events.map((e) => frame(e, e.type)), thrown)
    const deltas = (dataOf(text) as Array<{ type: string; delta?: string }>).filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta)
    expect(deltas.join('')).toBe(`Hi ${BAD} then and <｜DSML｜too`)
    expect(error).toBe(thrown)
    expect(errorEvents(text)).toEqual([])
  })
})

describe('sieveFetch, an onDiagnostic that throws while a whole answer is repaired', () => {
  /** The repaired response to a whole answer whose text is PUSH (`headers` the upstream's), and the report. */
  async function whole(route: 'chat' | 'responses', thrown: unknown): Promise<{ answer: Response; report: RepairReport | undefined }> {
    const body = JSON.stringify(route === 'chat' ? chatCompletion(PUSH) : responseObject(PUSH))
    const stub = stubFetch(() => new Response(body, { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } }))
    let report: RepairReport | undefined
    const onDiagnostic = () => {
      throw thrown
    }
    const fetch = sieveFetch({ generateId: counter(), onDiagnostic, onReport: (r) => (report = r) }, stub.fetch)
    const request = route === 'chat' ? { model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }] } : { model: 'm', input: 'Read a.ts' }
    const answer = await fetch(`http://upstream.test/v1/${route === 'chat' ? 'chat/completions' : 'responses'}`, { method: 'POST', body: JSON.stringify(request) })
    return { answer, report }
  }

  for (const route of ['chat', 'responses'] as const) {
    it(`should support a ${route} answer resolving with the upstream's status and headers, its body failing with the callback's own error before any byte`, async () => {
      const thrown = new Error('refused malformed-block')
      const { answer, report } = await whole(route, thrown)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('x-request-id')).toBe('req_1')
      expect(answer.headers.get('content-type')).toBe('application/json')
      const { text, error } = await readUntilFailure(answer.body!)
      expect(error).toBe(thrown)
      expect(text).toBe('')
      expect(report).toMatchObject({ route, mode: 'whole', rescued: 0, note: 'stopped: onDiagnostic threw: refused malformed-block' })
    })
  }

  it('should not support a code the callback\'s error carries being taken as the library\'s: no 502 for native-conflict', async () => {
    const thrown = Object.assign(new Error('my policy'), { code: 'native-conflict' })
    const { answer } = await whole('chat', thrown)
    expect(answer.status).toBe(200)
    await expect(answer.text()).rejects.toBe(thrown)
  })

  it('should support the body failing with a thrown value that cannot be written as text (no prototype), the note naming it as such', async () => {
    const thrown = Object.create(null) as object
    const { answer, report } = await whole('chat', thrown)
    const { text, error } = await readUntilFailure(answer.body!)
    expect(error).toBe(thrown)
    expect(text).toBe('')
    expect(report?.note).toBe('stopped: onDiagnostic threw: a value that cannot be shown')
  })
})

/**
 * An `onReport` that throws. The report is the caller's log line, made when
 * the body is done (a stream) or before the response is handed over (a
 * whole answer, one passed as it came): what it throws is the caller's, as
 * an `onDiagnostic`'s throw is, and is handled the same way. The fetch
 * still resolves, with the upstream's status and headers (a rejected fetch
 * is retried by the SDKs: the model would be asked again), and the body
 * fails with that very value: a whole answer's at its first read, a
 * stream's after all it sent. A body that already fails (the upstream broke
 * off) fails with that first error, as a second throw of `onDiagnostic`
 * does not replace its first. A reader that cancels the stream gets the
 * value from its `cancel()`.
 */
describe('sieveFetch, an onReport that throws', () => {
  const chat = (stream: boolean) => ({ model: 'm', messages: [{ role: 'user', content: 'Read a.ts' }], ...(stream ? { stream: true } : {}) })
  /** The answer of a sieveFetch whose onReport throws `thrown` (after recording the report), for an upstream answering `upstream()`. */
  async function ask(upstream: () => Response, thrown: unknown, request: object = chat(true)): Promise<{ answer: Response; reports: RepairReport[] }> {
    const reports: RepairReport[] = []
    const onReport = (r: RepairReport) => {
      reports.push(r)
      throw thrown
    }
    const fetch = sieveFetch({ generateId: counter(), onReport }, stubFetch(upstream).fetch)
    const answer = await fetch('http://upstream.test/v1/chat/completions', { method: 'POST', body: JSON.stringify(request) })
    return { answer, reports }
  }

  it('should support a stream sending all it has, then failing with the callback\'s own error', async () => {
    const thrown = new Error('log full')
    const { answer, reports } = await ask(() => new Response(bodyOf(chatPieces), { headers: sseHeaders }), thrown)
    const { text, error } = await readUntilFailure(answer.body!)
    expect(accumulate(dataOf(text).filter((d) => typeof d === 'object' && d !== null && 'choices' in d) as ChatCompletionChunk[]).calls.map((c) => c.name)).toEqual(['read_file'])
    expect(text).toContain('[DONE]')
    expect(error).toBe(thrown)
    expect(reports).toMatchObject([{ mode: 'stream', rescued: 1 }])
  })

  it('should not support the callback\'s error replacing the upstream\'s break a stream already fails with', async () => {
    const broken = new Error('socket hang up')
    const { answer, reports } = await ask(() => new Response(bodyOf([chatPieces[0]!, chatPieces[1]!, broken]), { headers: sseHeaders }), new Error('log full'))
    const { error } = await readUntilFailure(answer.body!)
    expect(error).toBe(broken)
    expect(reports).toMatchObject([{ mode: 'stream', note: 'upstream failed: socket hang up' }])
  })

  it('should support a reader that cancels the stream getting the callback\'s error from cancel()', async () => {
    const thrown = new Error('log full')
    const { answer, reports } = await ask(() => new Response(bodyOf(chatPieces), { headers: sseHeaders }), thrown)
    const reader = answer.body!.getReader()
    await reader.read()
    await expect(reader.cancel('bye')).rejects.toBe(thrown)
    expect(reports).toMatchObject([{ note: 'cancelled by the reader' }])
  })

  it('should support a whole answer resolving with the upstream\'s status and headers, its body failing with the callback\'s own error', async () => {
    const thrown = new Error('log full')
    const body = JSON.stringify(chatCompletion(PUSH))
    const { answer, reports } = await ask(() => new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } }), thrown, chat(false))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-request-id')).toBe('req_1')
    await expect(answer.text()).rejects.toBe(thrown)
    expect(reports).toMatchObject([{ mode: 'whole', rescued: 1 }])
  })

  it('should support an answer passed as it came (an error status) keeping its status and headers, its body failing with the callback\'s own error', async () => {
    const thrown = new Error('log full')
    const { answer, reports } = await ask(() => new Response('{"error":{"message":"busy"}}', { status: 503, statusText: 'Service Unavailable', headers: { 'content-type': 'application/json', 'retry-after': '3' } }), thrown)
    expect(answer.status).toBe(503)
    expect(answer.statusText).toBe('Service Unavailable')
    expect(answer.headers.get('retry-after')).toBe('3')
    await expect(answer.text()).rejects.toBe(thrown)
    expect(reports).toMatchObject([{ mode: 'passed' }])
  })

  it('should not support the callback\'s error replacing the one onDiagnostic threw first on a whole answer', async () => {
    const first = new Error('refused malformed-block')
    const stub = stubFetch(() => new Response(JSON.stringify(chatCompletion(PUSH)), { headers: { 'content-type': 'application/json' } }))
    const onDiagnostic = () => {
      throw first
    }
    const onReport = () => {
      throw new Error('log full')
    }
    const fetch = sieveFetch({ generateId: counter(), onDiagnostic, onReport }, stub.fetch)
    const answer = await fetch('http://upstream.test/v1/chat/completions', { method: 'POST', body: JSON.stringify(chat(false)) })
    await expect(answer.text()).rejects.toBe(first)
  })
})
