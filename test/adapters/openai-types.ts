/**
 * Compile-time checks of toolsieve/openai against the SDK's own types
 * (`npx tsc --noEmit` runs them; nothing here runs): what a request and the
 * client give fits the functions as they are, and what comes out is still
 * the SDK's type. `openai` is the v6 line; the v7 line (`openai7`) is
 * checked the way a v7 user compiles (see the report's command), where
 * `openai/…` resolves to v7.
 */
import type OpenAI from 'openai'
import type { Stream } from 'openai/core/streaming'
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { ResponseCreateParamsStreaming, ResponseInput, ResponseStreamEvent, Tool } from 'openai/resources/responses/responses'
import { sieveChatCompletion, sieveChatStream, sieveResponsesStream } from '../../src/openai/index.js'

declare const client: OpenAI
declare const params: ChatCompletionCreateParamsStreaming
declare const messages: ChatCompletionMessageParam[]
declare const chatTools: ChatCompletionTool[]
declare const responsesTools: Tool[]
declare const input: ResponseInput
declare const responsesParams: ResponseCreateParamsStreaming

export async function chat(): Promise<void> {
  const stream: Stream<ChatCompletionChunk> = await client.chat.completions.create(params)
  for await (const chunk of sieveChatStream(stream, { tools: chatTools, quoted: messages, thinking: { type: 'enabled' } })) {
    const same: ChatCompletionChunk = chunk
    const reasoning: string | null | undefined = chunk.choices[0]?.delta.reasoning_content
    void same
    void reasoning
  }
  const completion: ChatCompletion = await client.chat.completions.create({ ...params, stream: false })
  const sieved = sieveChatCompletion(completion, { tools: chatTools, quoted: messages })
  const same: ChatCompletion = sieved
  const reasoning: string | null | undefined = sieved.choices[0]?.message.reasoning_content
  void same
  void reasoning
}

export async function responses(): Promise<void> {
  const events: Stream<ResponseStreamEvent> = await client.responses.create(responsesParams)
  for await (const event of sieveResponsesStream(events, { tools: responsesTools, quoted: input })) {
    const same: ResponseStreamEvent = event
    void same
  }
  sieveResponsesStream(events, { quoted: 'a plain string input' })
}
