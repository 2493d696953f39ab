/**
 * One completion through every wire: the same text, cut into the same
 * pieces, read back by each wire's own reader (the SDK's accumulator where
 * there is one), so the specs can say "every wire gives …" in one place.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { toolsieveMiddleware, type ToolsieveMiddlewareOptions } from '../../src/ai-sdk/index.js'
import { sieveMessage, type AnthropicSieveOptions } from '../../src/anthropic/index.js'
import { sieveChatCompletion, sieveChatStream, sieveResponse, sieveResponsesStream, type OpenAIAdapterOptions } from '../../src/openai/index.js'
import { generated, loadLines, textStream, textsOf, wrappedStream } from './ai-sdk-helpers.js'
import { blocks, finalMessage, messageShell, sieved, upstream } from './anthropic-helpers.js'
import { accumulate, answer, collect, iterate } from './openai-helpers.js'
import { readItems, responseEvents } from './openai-responses-helpers.js'

/** What a consumer of a wire reads of one answer: its text, its reasoning, the names of its calls. */
export interface WireRead {
  text: string
  reasoning: string
  calls: string[]
}

/** Options every wire takes (the shared adapter options). */
export type WireOptions = OpenAIAdapterOptions & AnthropicSieveOptions & ToolsieveMiddlewareOptions

/** A wire: reads the answer written as `pieces` (one upstream text, cut into pieces) through one adapter. */
export interface Wire {
  name: string
  read(pieces: readonly string[], options?: WireOptions): Promise<WireRead>
}

const lines = await loadLines()

function fromAiSdkParts(parts: ReadonlyArray<Record<string, any>>): WireRead {
  const { text, violations } = textsOf(parts)
  if (violations.length > 0) throw new Error(violations.join('; '))
  const reasoning = parts.filter((p) => p.type === 'reasoning-delta').map((p) => p.delta as string).join('')
  return { text, reasoning, calls: parts.filter((p) => p.type === 'tool-call').map((p) => p.toolName as string) }
}

export const wires: Wire[] = [
  {
    name: 'openai chat stream',
    async read(pieces, options) {
      const out = accumulate(await collect(sieveChatStream(iterate(answer(pieces)), options)))
      return { text: out.content, reasoning: out.reasoning, calls: out.calls.map((c) => c.name) }
    },
  },
  {
    name: 'openai chat completion',
    async read(pieces, options) {
      const completion = { id: 'c1', object: 'chat.completion', created: 1, model: 'deepseek', choices: [{ index: 0, message: { role: 'assistant', content: pieces.join(''), refusal: null }, finish_reason: 'stop', logprobs: null }] } as ChatCompletion
      const message = sieveChatCompletion(completion, options).choices[0]!.message
      return { text: message.content ?? '', reasoning: message.reasoning_content ?? '', calls: (message.tool_calls ?? []).map((c) => (c.type === 'function' ? c.function.name : c.type)) }
    },
  },
  {
    name: 'openai response',
    async read(pieces, options) {
      const text = pieces.join('')
      const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }
      const response = sieveResponse({ id: 'resp_1', object: 'response', status: 'completed', output: [message], output_text: text } as never, options) as unknown as { output: Array<Record<string, any>> }
      const of = (type: string) => response.output.filter((i) => i.type === type)
      const textOf = (item: Record<string, any>) => (item.content as Array<{ text: string }>).map((c) => c.text).join('')
      return { text: of('message').map(textOf).join(''), reasoning: of('reasoning').map(textOf).join(''), calls: of('function_call').map((i) => i.name as string) }
    },
  },
  {
    name: 'openai responses stream',
    async read(pieces, options) {
      const items = readItems(await collect(sieveResponsesStream(iterate(responseEvents(pieces)), options)))
      const of = (type: string) => items.filter((i) => i.type === type)
      return { text: of('message').map((i) => i.text).join(''), reasoning: of('reasoning').map((i) => i.text).join(''), calls: of('function_call').map((i) => i.name!) }
    },
  },
  {
    name: 'anthropic stream',
    async read(pieces, options) {
      return fromAnthropic(blocks(await finalMessage(await sieved(upstream([[...pieces]]), options))))
    },
  },
  {
    name: 'anthropic message',
    async read(pieces, options) {
      const message = { ...messageShell(), content: [{ type: 'text', text: pieces.join(''), citations: null }], stop_reason: 'end_turn' } as never
      return fromAnthropic(blocks(sieveMessage(message, options)))
    },
  },
  ...lines.flatMap((loaded): Wire[] => [
    {
      name: `ai ${loaded.line.major} stream`,
      async read(pieces, options) {
        const { parts, error } = await wrappedStream(loaded, textStream(pieces), toolsieveMiddleware(options))
        if (error !== undefined) throw error
        return fromAiSdkParts(parts)
      },
    },
    {
      name: `ai ${loaded.line.major} generate`,
      async read(pieces, options) {
        const model = new loaded.Mock({ doGenerate: generated([{ type: 'text', text: pieces.join('') }]) })
        const wrapped = loaded.ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware(options) as never })
        const result = (await wrapped.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }] } as never)) as { content: Array<Record<string, any>> }
        const of = (type: string) => result.content.filter((p) => p.type === type)
        return { text: of('text').map((p) => p.text as string).join(''), reasoning: of('reasoning').map((p) => p.text as string).join(''), calls: of('tool-call').map((p) => p.toolName as string) }
      },
    },
  ]),
]

function fromAnthropic(content: unknown[]): WireRead {
  const list = content as Array<{ type: string; text?: string; thinking?: string; name?: string }>
  return {
    text: list.filter((b) => b.type === 'text').map((b) => b.text).join(''),
    reasoning: list.filter((b) => b.type === 'thinking').map((b) => b.thinking).join(''),
    calls: list.filter((b) => b.type === 'tool_use').map((b) => b.name!),
  }
}
