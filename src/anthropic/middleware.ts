/**
 * `sieveMiddleware`: the adapter as an Anthropic client middleware, so that
 * `client.messages.create()` and `client.messages.stream()` (with its
 * `finalMessage()` and `text` / `inputJson` events) see rescued calls as
 * `tool_use` blocks, unchanged code otherwise. It reads each request's own
 * `tools` and `messages`, so the unknown-tool check and the prompt-example
 * guard need no wiring. Only web globals (`Response`, `ReadableStream`,
 * `TextEncoder`) are used, and the SDK only for its types.
 */
import type { Middleware } from '@anthropic-ai/sdk'
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages'
import { keyText } from '../adapters/index.js'
import { sieveMessage } from './message.js'
import { anthropicSettings, type AnthropicSieveOptions } from './options.js'
import type { MessagesStreamEvent } from './writer.js'
import { sieveMessagesStream } from './stream.js'

/** `/v1/messages`, and the beta API's `/v1/messages?beta=true`; not `count_tokens` or batches. */
const isMessages = (path: string | undefined): boolean => path === '/v1/messages' || path?.startsWith('/v1/messages?') === true

/** The request's parameters, when the SDK gives them as an object (or JSON text). */
function params(body: unknown): { tools?: unknown; messages?: unknown } {
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body)
    } catch {
      return {}
    }
  }
  return body !== null && typeof body === 'object' ? (body as { tools?: unknown; messages?: unknown }) : {}
}

/** The response's headers, less those that described the body it no longer has. */
function headersOf(response: Response): Headers {
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  return headers
}

/**
 * An SSE body of these events, read as the client reads it (a `cancel` closes the events, and with them the upstream copy).
 * Each is named after its `type`: an event of a type the adapter does not read passes as it came, and its `type`
 * may be any JSON (`{"toString": 0}` cannot become a string; a line break would start frames of its own), so the
 * name is its {@link keyText}, on one line.
 */
function sse(events: AsyncIterableIterator<MessagesStreamEvent>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // a ToolsieveError (native-conflict, call-aborted) errors the body: the client's stream fails with it
      const next = await events.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(`event: ${keyText(next.value.type).replace(/[\r\n]/g, ' ')}\ndata: ${JSON.stringify(next.value)}\n\n`))
    },
    async cancel() {
      await events.return?.()
    },
  })
}

/**
 * A middleware for `new Anthropic({ middleware: [sieveMiddleware()] })`
 * (`@anthropic-ai/sdk` 1.15 or later): every successful Messages response,
 * streaming or not, goes through {@link sieveMessagesStream} or
 * {@link sieveMessage}, with `tools` and `quoted` taken from the request
 * unless the options give them.
 *
 * ```ts
 * const client = new Anthropic({ baseURL: 'https://api.deepseek.com/anthropic', middleware: [sieveMiddleware()] })
 * const message = await client.messages.stream({ model, max_tokens, messages, tools }).finalMessage()
 * for (const block of message.content) if (block.type === 'tool_use') await run(block.name, block.input)
 * ```
 *
 * The options are checked here, once. A stream that has to stop
 * (`native-conflict`, `call-aborted`) fails the client's stream with an
 * `AnthropicError` whose `cause` is the `ToolsieveError`; a non-streaming
 * response that conflicts rejects with the `ToolsieveError` itself.
 */
export function sieveMiddleware(options?: AnthropicSieveOptions | null): Middleware {
  anthropicSettings(options)
  const given: AnthropicSieveOptions = options ?? {}
  return async (request, next, ctx) => {
    const response = await next(request)
    const o = ctx.options
    if (!response.ok || o === undefined || !isMessages(o.path) || response.status === 204) return response
    const p = params(o.body)
    const perRequest: AnthropicSieveOptions = { ...given }
    if (perRequest.tools === undefined || perRequest.tools === null) perRequest.tools = Array.isArray(p.tools) ? (p.tools as AnthropicSieveOptions['tools']) : null
    if (perRequest.quoted === undefined || perRequest.quoted === null) perRequest.quoted = Array.isArray(p.messages) ? (p.messages as AnthropicSieveOptions['quoted']) : null
    const init = { status: response.status, statusText: response.statusText, headers: headersOf(response) }
    if (o.stream !== true) return new Response(JSON.stringify(sieveMessage(await ctx.parse<Message>(response), perRequest)), init)
    const events = sieveMessagesStream(await ctx.parse<AsyncIterable<MessagesStreamEvent>>(response), perRequest)
    // ctx.parse reads a copy (a tee): the original is released, not awaited (a tee branch's cancel settles only with the other's)
    void response.body?.cancel().catch(() => undefined)
    return new Response(sse(events), init)
  }
}
