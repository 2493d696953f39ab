/**
 * `toolsieve/anthropic`: tool calls rescued from the text of an Anthropic
 * Messages response (DeepSeek's Anthropic-compatible API, a gateway in front
 * of a model without native tools) become `tool_use` blocks, streaming or
 * not, and reasoning in the text becomes `thinking` blocks. The SDK is used
 * for its types only.
 */
export { sieveMessagesStream } from './stream.js'
export { sieveMessage } from './message.js'
export { sieveMiddleware } from './middleware.js'
export type { AnthropicSieveOptions } from './options.js'
export type { MessagesStreamEvent, PingEvent, StreamErrorEvent } from './writer.js'
