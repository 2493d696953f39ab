/**
 * `toolsieve proxy` against JSON objects that cannot become a string
 * (`{"toString": 0}` and kin: their `toString` and `valueOf` are data) in an
 * upstream's answer and in a client's request: the client gets the repaired
 * answer, or the upstream's as it came, never a `proxy-failed` 502 carrying
 * a `TypeError`'s message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/cli/proxy-server.js'
import { framesOf, rawRequest, startScriptedUpstream, streamed, type ScriptedUpstream } from './scripted-upstream.js'
import { hostile } from '../helpers/hostile.js'

let up: ScriptedUpstream
let proxy: RunningProxy
const logs: string[] = []
const messages = [{ role: 'user', content: 'Read a.ts' }]
const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }]

beforeAll(async () => {
  up = await startScriptedUpstream()
  proxy = await startProxy({ upstream: new URL(up.url), port: 0, log: (line) => logs.push(line) })
})

afterAll(async () => {
  await proxy.close(0)
  await up.close()
})

/** The upstream answers every request with this JSON. */
function answers(body: unknown, type = 'application/json'): void {
  up.answer = (_req, res) => {
    res.writeHead(200, { 'content-type': type })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  }
}

describe('toolsieve proxy: an answer whose native call id cannot become a string', () => {
  for (const id of hostile) {
    it(`should support a whole chat completion with a native call whose id is ${JSON.stringify(id)}: repaired, not a 502`, async () => {
      const call = { id, type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } }
      answers({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '<think>plan</think>Done.', tool_calls: [call] } }] })
      const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify({ model: 'm', messages, tools }))
      expect(res.status, res.text).toBe(200)
      expect(JSON.parse(res.text).choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: 'Done.', reasoning_content: 'plan', tool_calls: [call] } })
      expect(logs.at(-1)).toMatch(/ 200 whole \d+ ms, 0 calls rescued, diagnostics none$/)
    })

    it(`should support a whole Responses object with a native function_call whose id is ${JSON.stringify(id)}: repaired, not a 502`, async () => {
      const item = { type: 'function_call', id, call_id: 'c0', name: 'read_file', arguments: '{}' }
      const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '<think>plan</think>Done.', annotations: [] }] }
      answers({ id: 'resp_1', object: 'response', status: 'completed', output: [item, message] })
      const res = await rawRequest(proxy.url, 'POST', '/v1/responses', JSON.stringify({ model: 'm', input: 'Read a.ts', tools: [{ type: 'function', name: 'read_file', parameters: tools[0]!.function.parameters }] }))
      expect(res.status, res.text).toBe(200)
      const output = (JSON.parse(res.text) as { output: { type: string }[] }).output
      expect(output[0]).toEqual(item)
      expect(output.map((i) => i.type)).toEqual(['function_call', 'reasoning', 'message'])
    })
  }
})

describe('toolsieve proxy: a request with such objects', () => {
  for (const value of hostile) {
    it(`should support a request whose model, messages and tools hold ${JSON.stringify(value)}: the answer repaired or passed, never failed`, async () => {
      const chunk = (content: string) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })
      answers(`data: ${chunk('Reading. ')}\n\ndata: ${chunk(block)}\n\ndata: [DONE]\n\n`, 'text/event-stream')
      for (const request of [
        { model: value, messages, tools, stream: true },
        { model: 'm', messages: [{ role: 'user', content: value }], tools, stream: true },
        { model: 'm', messages: [{ role: value, content: [{ type: 'text', text: value }] }], tools, stream: true },
        { model: 'm', messages, tools: [{ type: 'function', function: { name: value, parameters: { type: 'object' } } }], stream: true },
        { model: 'm', messages, tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string', enum: [value], description: value } } } } }], stream: true },
        { model: 'm', messages, tools, thinking: { type: value }, stream: true },
      ]) {
        const res = await rawRequest(proxy.url, 'POST', '/v1/chat/completions', JSON.stringify(request))
        expect(res.status, res.text).toBe(200)
        expect(framesOf(res.text).at(-1)?.data).toBe('[DONE]')
        expect(streamed(res.text).errors).toEqual([])
        expect(logs.at(-1)).not.toMatch(/Cannot convert|TypeError|failed/)
      }
    })
  }
})
