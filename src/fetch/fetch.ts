/**
 * `sieveFetch`: a `fetch` that repairs OpenAI-compatible answers in flight,
 * for any client that takes a `fetch` (the `openai` SDK, the AI SDK's
 * providers, LangChain, plain code).
 */
import { ToolsieveError } from '../errors.js'
import { checkFetchOptions, type SieveFetchOptions } from './options.js'
import { repairResponse } from './repair.js'
import { readRequestBody, requestTarget, routeOf, type FetchInput } from './request.js'

/**
 * A `fetch` whose chat completions and Responses answers come back with the
 * tool calls the model wrote into its text as structured calls, streamed
 * or whole:
 *
 * ```ts
 * const client = new OpenAI({ baseURL, apiKey, fetch: sieveFetch() })
 * const provider = createOpenAICompatible({ name, baseURL, fetch: sieveFetch() })
 * ```
 *
 * A POST whose path ends in `/chat/completions` or `/responses` goes
 * upstream as it was given, and its answer comes back through
 * {@link repairResponse}, with the body's `tools`, `messages` / `input` and
 * `thinking` as the adapter's options. Every other request, and every
 * answer that is not repaired (an error status, another content type, a
 * body that is not JSON), is `baseFetch`'s own, untouched. Streams stay
 * streams: each event goes out as soon as the sieve has read it.
 *
 * Runs wherever `fetch` and WHATWG streams do (Node 20, browsers, Workers,
 * Deno, Bun).
 *
 * @param options the OpenAI adapter's options, less those the request
 *   gives (`tools`, `quoted`, `thinking`), plus `onReport`
 * @param baseFetch the `fetch` that sends the request. Default: the global
 *   `fetch`, looked up at each call (so one a test or an instrumentation
 *   installs later is used).
 * @throws {ToolsieveError} `invalid-option`, at once, for a bad option
 *   (naming the field) or a `baseFetch` that is not a function.
 */
export function sieveFetch(options?: SieveFetchOptions | null, baseFetch?: typeof globalThis.fetch | null): typeof globalThis.fetch {
  checkFetchOptions(options)
  if (baseFetch !== undefined && baseFetch !== null && typeof baseFetch !== 'function') {
    throw new ToolsieveError('invalid-option', `baseFetch: must be a fetch function, got ${typeof baseFetch}`, 'baseFetch')
  }
  const send: typeof globalThis.fetch = baseFetch ?? ((input, init) => globalThis.fetch(input, init))
  return async function sievedFetch(input: FetchInput, init?: RequestInit): Promise<Response> {
    const { method, url } = requestTarget(input, init)
    const route = routeOf(method, url)
    if (route === undefined) return send(input, init)
    const read = await readRequestBody(input, init)
    const upstream = read.init === init ? await send(input, init) : await send(input, read.init)
    if (read.body === undefined) return upstream
    return repairResponse(route, read.body, upstream, options)
  }
}
