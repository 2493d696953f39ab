/**
 * The AI SDK shapes the middleware reads and writes, declared structurally
 * so that toolsieve needs no AI SDK package at run time or in its types. They
 * are the parts LanguageModelV3 (`ai` 6) and LanguageModelV4 (`ai` 7) have in
 * common: the middleware's functions are generic over the line's own call
 * options and results, so one object fits both lines' middleware types (a
 * type test assigns it to each).
 */

/** A part of a prompt message (`{ type: 'text', text }`, `{ type: 'tool-call', … }`, …); only the fields read are named. */
export interface PromptPartLike {
  type: string
  text?: string
  toolCallId?: string
  toolName?: string
  input?: unknown
  output?: unknown
  providerExecuted?: boolean
}

/** A prompt message: `system` with string content, the others with an array of parts. */
export interface PromptMessageLike {
  role: string
  content: string | ReadonlyArray<PromptPartLike>
}

/** A tool of the call options: a function tool (`{ type: 'function', name, description?, inputSchema }`) or a provider tool. */
export interface CallToolLike {
  type: string
  name: string
  description?: string
  inputSchema?: unknown
}

/** The tool choice of the call options. */
export interface ToolChoiceLike {
  type: string
  toolName?: string
}

/** The call options (`LanguageModelV3CallOptions`, `LanguageModelV4CallOptions`): what the middleware reads of them. */
export interface CallOptionsLike {
  prompt: ReadonlyArray<PromptMessageLike>
  tools?: ReadonlyArray<CallToolLike>
  toolChoice?: ToolChoiceLike
}

/** A finish reason: `{ unified, raw }` in V3 and V4 alike (V4 adds `'interrupted'`); a bare string in V2. */
export type FinishReasonLike = { unified: string; raw: string | undefined } | string

/** A stream part, as the middleware writes and reads it (`type` picks the shape; the other fields are the part's). */
export interface StreamPartLike {
  type: string
  [field: string]: unknown
}

/** `doStream`'s result: the middleware replaces `stream` and keeps the rest. */
export interface StreamResultLike {
  stream: ReadableStream<any>
}

/** A content part of `doGenerate`'s result. */
export interface ContentPartLike {
  type: string
  [field: string]: unknown
}

/** `doGenerate`'s result: the middleware replaces `content` and `finishReason` and keeps the rest. */
export interface GenerateResultLike {
  content: ReadonlyArray<any>
  finishReason: any
}
