/**
 * toolsieve/fetch with the OpenAI Agents SDK: an Agent whose model wraps
 * `new OpenAI({ fetch: sieveFetch(), baseURL })`, through chat completions
 * (`OpenAIChatCompletionsModel`) and the Responses API
 * (`OpenAIResponsesModel`), `run` whole and streamed (@openai/agents 0.14,
 * the newest line on openai 6, which runs on Node 20; on Node 22 also
 * @openai/agents 0.20 on openai 7). The local upstream
 * writes the call as DSML in its text (deltas of 5 characters, CRLF framing
 * cut every 3 bytes) and, once the tool's result is sent back, answers in
 * plain text: the tool runs once, on the rescued arguments, its result goes
 * back under the rescued call's id, and the run ends with the second answer.
 * The same agent with the plain fetch never runs the tool: the markup is its
 * final output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type OpenAI from 'openai'
import { z } from 'zod'
import type * as Agents from '@openai/agents'
import { sieveFetch } from '../../src/fetch/index.js'
import { counter, cut } from '../adapters/openai-helpers.js'
import { sdkLines } from '../helpers/sdk-lines.js'
import { startUpstream, type Upstream } from './fake-upstream.js'

const text = `<think>The user wants a.ts.</think>Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">40</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
const args = { path: 'src/a.ts', limit: 40 }
const answer = 'It holds one export.'
const contents = 'export const a = 1'

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream({ deltas: cut(text, 5), ending: '\r\n', piece: 3, afterTool: cut(answer, 5) })
})
afterAll(async () => {
  await upstream.close()
})

/** The lines here: the Agents SDK and the openai it runs on (the current line's are npm aliases, in tools/sdk-current). */
const lines = sdkLines.map((line) =>
  line.major === '6' ? { label: '@openai/agents 0.14 (openai 6)', agents: '@openai/agents', openai: line.openai } : { label: '@openai/agents 0.20 (openai 7)', agents: 'openai-agents-current', openai: line.openai },
)

// the current line is typed as the older one: the calls made here are the same in both
let sdk: typeof Agents
let OpenAIClient: typeof OpenAI

// The client's openai and the Agents SDK's are two copies here (the suite's openai 6 is older than the ^6.46 the SDK
// asks for; openai 7 is installed under an alias), whose classes differ in their private fields; a project with one
// openai needs no cast.
const models = [
  { label: 'OpenAIChatCompletionsModel', make: (client: OpenAI): Agents.Model => new sdk.OpenAIChatCompletionsModel(client as unknown as Agents.OpenAIClient, 'deepseek-v4') },
  { label: 'OpenAIResponsesModel', make: (client: OpenAI): Agents.Model => new sdk.OpenAIResponsesModel(client as unknown as Agents.OpenAIClient, 'deepseek-v4') },
]

/** An agent with one tool that records what it is called with. */
function agentOn(make: (client: OpenAI) => Agents.Model, fetch: typeof globalThis.fetch) {
  const ran: unknown[] = []
  const readFile = sdk.tool({
    name: 'read_file',
    description: 'Read a file',
    parameters: z.object({ path: z.string(), limit: z.number().int() }),
    execute: async (input) => {
      ran.push(input)
      return contents
    },
  })
  const client = new OpenAIClient({ apiKey: 'test', baseURL: upstream.baseURL, maxRetries: 0, fetch })
  return { agent: new sdk.Agent({ name: 'reader', instructions: 'Read the files asked for.', model: make(client), tools: [readFile] }), ran }
}

/** The tool's result as the second request carries it (chat: a tool message; Responses: a function_call_output item). */
function toolResults(request: Record<string, unknown>): { id: unknown; output: string }[] {
  const items = (request.messages ?? request.input) as Record<string, unknown>[]
  return items
    .filter((m) => m.role === 'tool' || m.type === 'function_call_output')
    .map((m) => ({ id: m.tool_call_id ?? m.call_id, output: JSON.stringify(m.content ?? m.output) }))
}

const noMarkup = (value: unknown): void => expect(JSON.stringify(value)).not.toMatch(/DSML|tool_calls>|invoke|<\/?think>/)

for (const line of lines) describe(line.label, () => {
  beforeAll(async () => {
    sdk = (await import(line.agents)) as typeof Agents
    ;({ default: OpenAIClient } = (await import(line.openai)) as { default: typeof OpenAI })
    // no trace is sent anywhere: the runs stay on the local upstream
    sdk.setTracingDisabled(true)
  })

  for (const { label, make } of models) {
    describe(`${label} through sieveFetch`, () => {
      for (const stream of [false, true]) {
        it(`should support run(${stream ? '…, { stream: true }' : ''}): the tool runs once on the rescued arguments and the run ends`, async () => {
          const { agent, ran } = agentOn(make, sieveFetch({ generateId: counter() }))
          const first = upstream.requests.length
          const deltas: string[] = []
          let result
          if (stream) {
            const streamed = await sdk.run(agent, 'Read src/a.ts', { stream: true })
            for await (const event of streamed) {
              if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') deltas.push(event.data.delta)
            }
            await streamed.completed
            result = streamed
          } else result = await sdk.run(agent, 'Read src/a.ts')
          expect(ran).toEqual([args])
          expect(result.finalOutput).toBe(answer)
          const call = result.newItems.find((i) => i.type === 'tool_call_item')?.rawItem as Record<string, unknown>
          expect(call).toMatchObject({ type: 'function_call', name: 'read_file', callId: 'call_1' })
          expect(JSON.parse(call.arguments as string)).toEqual(args)
          noMarkup(result.newItems.filter((i) => i.type === 'message_output_item').map((i) => i.rawItem))
          // two turns: the call, then the tool's result under the rescued call's id
          const sent = upstream.requests.slice(first)
          expect(sent.map((r) => r.stream === true)).toEqual([stream, stream])
          expect(toolResults(sent[1]!)).toEqual([{ id: 'call_1', output: expect.stringContaining(contents) as string }])
          if (stream) expect(deltas.join('')).toBe(`Let me read it.${answer}`)
        })
      }

      it('should not support the rescue without sieveFetch: the tool never runs, the markup is the output', async () => {
        const plain = (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => globalThis.fetch(input, init)
        for (const stream of [false, true]) {
          const { agent, ran } = agentOn(make, plain)
          const result = stream ? await sdk.run(agent, 'Read src/a.ts', { stream: true }) : await sdk.run(agent, 'Read src/a.ts')
          if (stream) for await (const _ of result as AsyncIterable<unknown>) void _
          await (result as { completed?: Promise<void> }).completed
          expect(ran).toEqual([])
          expect(result.finalOutput).toContain('<｜DSML｜invoke name="read_file">')
        }
      })
    })
  }
})
