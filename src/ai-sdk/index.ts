/**
 * `toolsieve/ai-sdk`: a middleware for the AI SDK's `wrapLanguageModel` that
 * turns tool calls a model wrote as text into tool calls, and on request
 * prompts a model without native tools for them. One object
 * serves the `ai` 6 line (LanguageModelV3) and the `ai` 7 line
 * (LanguageModelV4): their middleware, call options and parts agree on
 * everything it touches, and its functions are generic over each line's own
 * types. Nothing of the AI SDK is imported at run time.
 */
import { sieveContent } from './generate.js'
import { callState, middlewareSettings, promptDialect, resolveCall, type CallState, type ToolsieveMiddlewareOptions } from './options.js'
import { transformCall } from './prompt.js'
import { sieveStreamParts } from './stream.js'
import type { CallOptionsLike, GenerateResultLike, StreamResultLike } from './types.js'

export type { ToolsieveMiddlewareOptions } from './options.js'
export type * from './types.js'

/**
 * The middleware {@link toolsieveMiddleware} returns: assignable to
 * `LanguageModelV3Middleware` (`ai` 6) and to `ai` 7's
 * `LanguageModelMiddleware` (which takes V3 and V4 middleware).
 */
export interface ToolsieveMiddleware {
  readonly specificationVersion: 'v3'
  /** Returns the params as given, unless the `transformParams` option is on: then puts the tools into the system prompt and the conversation's tool calls and results into text. */
  transformParams: <P extends CallOptionsLike>(options: { type: 'generate' | 'stream'; params: P; model?: ModelLike }) => Promise<P>
  /** Sieves the text parts of the stream. */
  wrapStream: <R extends StreamResultLike>(options: { doStream: () => PromiseLike<R>; params: CallOptionsLike; model?: ModelLike }) => Promise<R>
  /** Sieves the text parts of the content. */
  wrapGenerate: <R extends GenerateResultLike>(options: { doGenerate: () => PromiseLike<R>; params: CallOptionsLike; model?: ModelLike }) => Promise<R>
}

/** What the middleware reads of the wrapped model: its id picks the dialect when none is given. */
export interface ModelLike {
  readonly modelId?: string
}

/**
 * A middleware that pulls tool calls out of the model's text: rescued calls
 * become `tool-call` parts the AI SDK runs (streamed as `tool-input-start` /
 * `-delta` / `-end` first), `<think>` reasoning becomes reasoning parts, the
 * text is cleaned of the markup, and the finish reason is `tool-calls` when
 * calls were rescued. The call itself reaches the model unchanged (native
 * `tools` included); for a model without native tools,
 * `transformParams: true` puts the tools into its prompt instead (see
 * {@link ToolsieveMiddlewareOptions.transformParams}).
 *
 * ```ts
 * import { streamText, wrapLanguageModel } from 'ai'
 * import { toolsieveMiddleware } from 'toolsieve/ai-sdk'
 *
 * const model = wrapLanguageModel({ model: deepseek('deepseek-chat'), middleware: toolsieveMiddleware() })
 * ```
 *
 * Native tool calls from the model pass through. A turn with native and
 * rescued calls fails closed: by default the stream errors (or
 * `generateText` throws) with `ToolsieveError` `native-conflict` before the
 * later of the two goes out; `onConflict: 'prefer-native'` holds rescued
 * calls to the finish and drops them if native calls came.
 *
 * @throws {ToolsieveError} (from `toolsieve`) `invalid-option` for a bad option, when called.
 */
export function toolsieveMiddleware(options?: ToolsieveMiddlewareOptions | null): ToolsieveMiddleware {
  const settings = middlewareSettings(options)
  // what transformParams saw of each call before rewriting it, for the same call's wrapStream / wrapGenerate
  const states = new WeakMap<object, CallState>()
  const stateOf = (params: CallOptionsLike): CallState => states.get(params) ?? callState(settings, params, undefined)
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params, model }) => {
      if (!settings.transformParams) return params
      const { params: rewritten, section } = transformCall(params, promptDialect(settings, model?.modelId))
      states.set(rewritten, callState(settings, params, section))
      return rewritten
    },
    wrapStream: async ({ doStream, params, model }) => {
      const resolved = resolveCall(settings, stateOf(params), model?.modelId)
      const result = await doStream()
      return { ...result, stream: sieveStreamParts(result.stream, resolved) }
    },
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const resolved = resolveCall(settings, stateOf(params), model?.modelId)
      return sieveContent(await doGenerate(), resolved)
    },
  }
}
