/**
 * Shared by the `toolsieve/fetch` specs that need no server: a stand-in
 * `fetch` whose answer is a body cut into the exact byte pieces a test
 * gives, and a reader of the repaired event stream.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'

const encoder = new TextEncoder()

export interface Sent {
  input: unknown
  init: RequestInit | undefined
  /** The request body as the stand-in received it. */
  body: string | undefined
}

/** A body that gives `pieces` (strings are UTF-8 encoded) one read at a time; an Error piece fails the read. */
export function bodyOf(pieces: readonly (string | Uint8Array | Error)[]): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    pull(c) {
      const p = pieces[i++]
      if (p === undefined) c.close()
      else if (p instanceof Error) c.error(p)
      else c.enqueue(typeof p === 'string' ? encoder.encode(p) : p)
    },
  })
}

/** A stand-in `fetch` answering every call with `answer()`, and recording what was sent. */
export function stubFetch(answer: () => Response): { fetch: typeof globalThis.fetch; sent: Sent[] } {
  const sent: Sent[] = []
  const fetch = async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit): Promise<Response> => {
    let body: string | undefined
    if (typeof init?.body === 'string') body = init.body
    else if (init?.body instanceof ArrayBuffer || ArrayBuffer.isView(init?.body)) body = new TextDecoder().decode(init!.body as ArrayBuffer)
    else if (input instanceof Request) body = await input.clone().text()
    sent.push({ input, init, body })
    return answer()
  }
  return { fetch: fetch as typeof globalThis.fetch, sent }
}

export const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8' }

/** A chat chunk with one choice. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk {
  return { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] } as ChatCompletionChunk
}

/** The SSE text of `chunks` (and `[DONE]`), with `ending` as line ending. */
export function chatSse(contents: readonly string[], ending = '\n'): string {
  const chunks = [chatChunk({ role: 'assistant', content: '' }), ...contents.map((content) => chatChunk({ content })), chatChunk({}, 'stop')]
  return chunks.map((c) => `data: ${JSON.stringify(c)}${ending}${ending}`).join('') + `data: [DONE]${ending}${ending}`
}

/** The frames of a repaired stream (always LF-framed): each as its raw text. */
export function framesOf(text: string): string[] {
  return text
    .split('\n\n')
    .filter((f) => f !== '')
    .map((f) => f + '\n\n')
}

/** The data of each data frame, parsed when JSON. */
export function dataOf(text: string): unknown[] {
  return framesOf(text)
    .map((f) => f.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter((d) => d !== '')
    .map((d) => {
      try {
        return JSON.parse(d) as unknown
      } catch {
        return d
      }
    })
}

export const dsml = (path: string) =>
  `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">${path}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`

/** A body's text up to its end or its failure, and the failure (undefined when it ended). */
export async function readUntilFailure(body: ReadableStream<Uint8Array>): Promise<{ text: string; error: unknown }> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { text, error: undefined }
      text += decoder.decode(value, { stream: true })
    }
  } catch (error) {
    return { text, error }
  }
}
