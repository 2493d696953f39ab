/**
 * toolsieve/openai: tool calls a model wrote into its text, rescued into the
 * OpenAI wire shapes (chat completion streams and responses, Responses API
 * streams). Runtime code imports no SDK: the `openai` types are type-only.
 */
export { sieveChatStream, type OpenAIAdapterOptions, type SievedChunk } from './chat-stream.js'
export { sieveChatCompletion, type SievedCompletion } from './chat-completion.js'
export type { SievedDelta } from './chat-choice.js'
export { sieveResponsesStream } from './responses-stream.js'
export { sieveResponse } from './response.js'
