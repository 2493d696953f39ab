/**
 * What `sieveFetch` reads of a request: whether it is one of the repaired
 * routes, and its JSON body (for `tools`, the conversation and `thinking`),
 * whatever form the caller gave it in (a URL string, a `URL`, a `Request`;
 * a string body, bytes, a `Blob`, a stream).
 */
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import { readableDialectOfModel } from '../dialects/model.js'

/** The repaired routes: chat completions and the Responses API. */
export type RouteKind = 'chat' | 'responses'

/** The options a request carries for the adapter: the rest comes from the caller. */
export type RequestCarried = 'tools' | 'quoted' | 'thinking'

/** What `fetch` takes as its first argument. */
export type FetchInput = Parameters<typeof globalThis.fetch>[0]

const isRequest = (input: unknown): input is Request =>
  typeof input === 'object' && input !== null && typeof (input as Request).clone === 'function' && typeof (input as Request).url === 'string'

/**
 * The route of a request: a POST whose path ends in `/chat/completions` or
 * `/responses`, so that any prefix (`/v1`, `/api/v1`, an Azure deployment)
 * works; `undefined` for anything else.
 */
export function routeOf(method: string | undefined, url: string): RouteKind | undefined {
  if ((method ?? 'GET').toUpperCase() !== 'POST') return undefined
  let path: string
  try {
    path = new URL(url, 'http://localhost').pathname
  } catch {
    return undefined
  }
  if (path.endsWith('/chat/completions')) return 'chat'
  if (path.endsWith('/responses')) return 'responses'
  return undefined
}

/** A fetch call's method and URL, from its input and init as `fetch` reads them. */
export function requestTarget(input: FetchInput, init: RequestInit | undefined): { method: string | undefined; url: string } {
  const request = isRequest(input) ? input : undefined
  const url = request !== undefined ? request.url : String(input)
  return { method: init?.method ?? request?.method, url }
}

/**
 * The request's body as a JSON object, and the init to send it with: the
 * same one, except when the body was a stream (read here, so it is sent as
 * the bytes that were read). `body` is undefined for a body that is not a
 * JSON object (it is then sent as it was and the response is not repaired).
 */
export async function readRequestBody(input: FetchInput, init: RequestInit | undefined): Promise<{ body: Record<string, unknown> | undefined; init: RequestInit | undefined }> {
  const given = init?.body
  let text: string | undefined
  let sent = init
  if (given !== undefined && given !== null) {
    if (typeof given === 'string') text = given
    else if (given instanceof ArrayBuffer || ArrayBuffer.isView(given)) text = decode(given)
    else if (typeof Blob !== 'undefined' && given instanceof Blob) text = await given.text()
    else if (typeof ReadableStream !== 'undefined' && given instanceof ReadableStream) {
      const bytes = await new Response(given).arrayBuffer()
      sent = { ...init, body: bytes }
      text = decode(bytes)
    }
    // URLSearchParams, FormData: not JSON, sent as they are
  } else if (isRequest(input) && input.body !== null && !input.bodyUsed) {
    try {
      text = await input.clone().text()
    } catch {
      text = undefined
    }
  }
  return { body: text === undefined ? undefined : jsonObject(text), init: sent }
}

function decode(bytes: ArrayBuffer | ArrayBufferView): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes as ArrayBuffer)
  } catch {
    return undefined
  }
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The dialect the sieve reads a response in, from the request's `model`
 * (`dialectForModel`): a pack the sieve reads other than the default
 * grammar, else undefined (the default grammar reads it, as before).
 */
export function dialectOfModel(model: unknown): string | undefined {
  return readableDialectOfModel(model)
}

/**
 * The adapter's options a request body carries: its `tools`, the
 * conversation the last user message is quoted from (`messages` for chat,
 * `input` for Responses), and `thinking` in the shapes the adapter reads
 * (`true` / `false` / `{ type }`; any other shape is the upstream's
 * business, not a reason to fail).
 */
export function requestOptions(kind: RouteKind, request: Record<string, unknown>): Pick<OpenAIAdapterOptions, RequestCarried> {
  const options: Pick<OpenAIAdapterOptions, RequestCarried> = {}
  if (Array.isArray(request.tools)) options.tools = request.tools
  const conversation = kind === 'chat' ? request.messages : request.input
  if (Array.isArray(conversation) || typeof conversation === 'string') options.quoted = conversation
  const thinking = request.thinking
  if (typeof thinking === 'boolean' || (thinking !== null && typeof thinking === 'object' && typeof (thinking as { type?: unknown }).type === 'string')) {
    options.thinking = thinking as OpenAIAdapterOptions['thinking']
  }
  return options
}
