/**
 * toolsieve/fetch with LangChain, one line:
 * `new ChatOpenAI({ configuration: { fetch: sieveFetch(), baseURL } })`
 * (@langchain/openai 1.5 on openai 6, the newest line that runs on Node
 * 20; on Node 22 also @langchain/openai 1.6 on openai 7), against a local
 * upstream whose text holds DSML (deltas of 5 characters, CRLF framing cut
 * every 3 bytes). With a tool bound, `invoke`
 * and `stream` give an AIMessage whose `tool_calls` hold the rescued call
 * (name, parsed args) and whose text has no markup, through chat completions
 * and through the Responses API (`useResponsesApi: true`); the tool then runs
 * on that call; `withStructuredOutput` (a forced tool) gives the rescued
 * call's arguments as its output. The same model with the plain fetch gets
 * the markup as text and no call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as LangChainOpenAI from '@langchain/openai'
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { z } from 'zod'
import { sieveFetch } from '../../src/fetch/index.js'
import { counter, cut } from '../adapters/openai-helpers.js'
import { currentLines } from '../helpers/sdk-lines.js'
import { startUpstream, type Upstream } from './fake-upstream.js'

const text = `<think>The user wants a.ts.</think>Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n<｜DSML｜parameter name="limit" string="false">40</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
const args = { path: 'src/a.ts', limit: 40 }

let upstream: Upstream
beforeAll(async () => {
  upstream = await startUpstream({ deltas: cut(text, 5), ending: '\r\n', piece: 3 })
})
afterAll(async () => {
  await upstream.close()
})

/** What the tool was called with, in order. */
const ran: unknown[] = []
const readFile = tool(
  async (input) => {
    ran.push(input)
    return 'export const a = 1'
  },
  { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string(), limit: z.number().int().optional() }) },
)

/** The lines here: the package's name (the current line's is an npm alias, installed in tools/sdk-current). */
const lines = [
  { label: '@langchain/openai 1.5 (openai 6)', name: '@langchain/openai' },
  ...(currentLines ? [{ label: '@langchain/openai 1.6 (openai 7)', name: 'langchain-openai-current' }] : []),
]

type Chat = ReturnType<LangChainOpenAI.ChatOpenAI['bindTools']>
// the current line is typed as the older one: the calls made here are the same in both
let ChatOpenAI: typeof LangChainOpenAI.ChatOpenAI

function chatModel(useResponsesApi: boolean, fetch: typeof globalThis.fetch = sieveFetch({ generateId: counter() })): LangChainOpenAI.ChatOpenAI {
  return new ChatOpenAI({ model: 'deepseek-v4', apiKey: 'test', maxRetries: 0, useResponsesApi, configuration: { baseURL: upstream.baseURL, fetch } })
}

function model(useResponsesApi: boolean, fetch?: typeof globalThis.fetch): Chat {
  return chatModel(useResponsesApi, fetch).bindTools([readFile])
}

async function streamed(chat: Chat): Promise<{ message: AIMessageChunk; chunks: AIMessageChunk[] }> {
  const chunks: AIMessageChunk[] = []
  for await (const chunk of await chat.stream('Read src/a.ts')) chunks.push(chunk)
  return { message: chunks.reduce((all, chunk) => all.concat(chunk)), chunks }
}

const noMarkup = (value: unknown): void => expect(JSON.stringify(value)).not.toMatch(/DSML|tool_calls>|invoke|<\/?think>/)

/** The call on the message, and the tool run on it as an agent loop would. */
async function expectRescued(message: AIMessage): Promise<void> {
  expect(message.tool_calls).toEqual([{ type: 'tool_call', id: 'call_1', name: 'read_file', args }])
  expect(message.invalid_tool_calls ?? []).toEqual([])
  expect(message.text).toBe('Let me read it.')
  noMarkup(message.content)
  ran.length = 0
  const result = await readFile.invoke(message.tool_calls![0]!)
  expect(ran).toEqual([args])
  expect(result).toMatchObject({ tool_call_id: 'call_1', content: 'export const a = 1' })
}

const apis = [
  { label: 'chat completions', responses: false },
  { label: 'the Responses API (useResponsesApi: true)', responses: true },
]

for (const line of lines) describe(line.label, () => {
  beforeAll(async () => {
    ;({ ChatOpenAI } = (await import(line.name)) as typeof LangChainOpenAI)
  })

  for (const api of apis) {
    describe(`ChatOpenAI through sieveFetch, ${api.label}`, () => {
      it('should support invoke with bindTools: the call is on tool_calls, the text is clean', async () => {
        const message = await model(api.responses).invoke('Read src/a.ts')
        await expectRescued(message)
        const sent = upstream.requests.at(-1)!
        expect(sent.stream).not.toBe(true)
        expect(JSON.stringify(sent.tools)).toContain('read_file')
      })

      it('should support stream with bindTools: tool_call_chunks add up to the call, no chunk holds markup', async () => {
        const { message, chunks } = await streamed(model(api.responses))
        await expectRescued(message)
        expect(upstream.requests.at(-1)!.stream).toBe(true)
        expect(chunks.length).toBeGreaterThan(2)
        for (const chunk of chunks) noMarkup(chunk.content)
        expect(message.tool_call_chunks?.map((c) => ({ name: c.name, args: JSON.parse(c.args!) as unknown }))).toEqual([{ name: 'read_file', args }])
      })

      it('should support withStructuredOutput (functionCalling, the tool forced): the rescued call is the output', async () => {
        const structured = chatModel(api.responses).withStructuredOutput(z.object({ path: z.string(), limit: z.number().int() }), { name: 'read_file', method: 'functionCalling' })
        expect(await structured.invoke('Read src/a.ts')).toEqual(args)
        expect(JSON.stringify(upstream.requests.at(-1)!.tool_choice)).toContain('read_file')
      })

      // LangChain's structured-output parser reads string content only, which its Responses stream chunks never have
      // (an array of parts, whatever the upstream): streamed, only chat completions can give it
      if (!api.responses) {
        it('should support withStructuredOutput streamed: the last part is the rescued call', async () => {
          const structured = chatModel(api.responses).withStructuredOutput(z.object({ path: z.string(), limit: z.number().int() }), { name: 'read_file', method: 'functionCalling' })
          const parts: unknown[] = []
          for await (const part of await structured.stream('Read src/a.ts')) parts.push(part)
          expect(parts.at(-1)).toEqual(args)
        })
      }

      it('should not support the rescue without sieveFetch: the plain fetch gives the markup as text and no call', async () => {
        const plain = (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => globalThis.fetch(input, init)
        const whole = await model(api.responses, plain).invoke('Read src/a.ts')
        const { message } = await streamed(model(api.responses, plain))
        for (const m of [whole, message]) {
          expect(m.tool_calls).toEqual([])
          expect(m.text).toContain('<｜DSML｜invoke name="read_file">')
        }
      })
    })
  }

  describe('ChatOpenAI through sieveFetch, reasoning', () => {
    it('should support the think block as reasoning_content, apart from the text (chat completions)', async () => {
      const whole = await model(false).invoke('Read src/a.ts')
      const { message } = await streamed(model(false))
      for (const m of [whole, message]) expect(m.additional_kwargs.reasoning_content).toBe('The user wants a.ts.')
    })

    // streamed, LangChain reads a reasoning item's summary deltas only, not its reasoning_text: whole answers show it
    it('should support the think block as the reasoning item, apart from the text (whole Responses answer)', async () => {
      const whole = await model(true).invoke('Read src/a.ts')
      expect(whole.additional_kwargs.reasoning).toMatchObject({ type: 'reasoning', content: [{ type: 'reasoning_text', text: 'The user wants a.ts.' }] })
    })
  })
})
