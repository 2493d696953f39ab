/**
 * Shared pieces of the `toolsieve/ai-sdk` specs: model responses as V3/V4
 * stream parts and content (the two lines' parts agree on everything used
 * here), DSML answers, awkward chunkings, and each SDK line loaded for real.
 */
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sdkLines, type SdkLine } from '../helpers/sdk-lines.js'
import { awkward } from './stream-helpers.js'
import { counter } from './openai-helpers.js'

export { awkward }

/** Usage as V3 and V4 both write it. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
}

/** One DSML block calling `name` with string parameters. */
export function dsml(name: string, input: Record<string, string>): string {
  const params = Object.entries(input).map(([k, v]) => `<｜DSML｜parameter name="${k}" string="true">${v}</｜DSML｜parameter>\n`)
  return `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="${name}">\n${params.join('')}</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
}

/** A model's stream parts for text written in `chunks`, ending with `finish` (stop, unless given). */
export function textStream(chunks: readonly string[], extra: { before?: object[]; after?: object[]; finish?: string } = {}): object[] {
  return [
    { type: 'stream-start', warnings: [] },
    ...(extra.before ?? []),
    { type: 'text-start', id: 'txt-0' },
    ...chunks.map((delta) => ({ type: 'text-delta', id: 'txt-0', delta })),
    { type: 'text-end', id: 'txt-0' },
    ...(extra.after ?? []),
    { type: 'finish', usage, finishReason: { unified: extra.finish ?? 'stop', raw: extra.finish ?? 'stop' } },
  ]
}

/** A generate result whose content is `content`. */
export function generated(content: object[], finish = 'stop'): object {
  return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] }
}

/** What a test needs of one SDK line: its `ai` module, its mock model class and the stream helper. */
export interface LoadedLine {
  line: SdkLine
  ai: typeof import('ai')
  /** `MockLanguageModelV3` on the 6 line, `MockLanguageModelV4` on the 7 line. */
  Mock: new (settings: { doStream?: unknown; doGenerate?: unknown; modelId?: string }) => object
  stream: (parts: object[]) => ReadableStream<any>
}

/** Each SDK line that runs under this Node, loaded. */
export async function loadLines(): Promise<LoadedLine[]> {
  const out: LoadedLine[] = []
  for (const line of sdkLines) {
    const ai = (await import(line.ai)) as typeof import('ai')
    const test = (await import(`${line.ai}/test`)) as Record<string, unknown>
    const Mock = (line.major === '6' ? test.MockLanguageModelV3 : test.MockLanguageModelV4) as LoadedLine['Mock']
    const convert = test.convertArrayToReadableStream as (parts: object[]) => ReadableStream<any>
    out.push({ line, ai, Mock, stream: convert })
  }
  return out
}

/**
 * `streamText` over a mock model streaming `parts`, wrapped in the
 * middleware with `options`, with a `read_file` tool that records each input
 * it is run with: every part the full stream gives, and what ran.
 */
export async function streamTextRun(loaded: LoadedLine, parts: object[], options: object = {}): Promise<{ seen: Array<{ type: string; error?: unknown; text?: string }>; ran: unknown[] }> {
  const model = new loaded.Mock({ doStream: { stream: loaded.stream(parts) } })
  const ran: unknown[] = []
  const result = loaded.ai.streamText({
    model: loaded.ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware(options as never) }),
    prompt: 'Read a.ts',
    tools: { read_file: loaded.ai.tool({ inputSchema: loaded.ai.jsonSchema({ type: 'object' }), execute: async (input: unknown) => void ran.push(input) }) },
    onError: () => {},
  })
  const seen: Array<{ type: string; error?: unknown; text?: string }> = []
  for await (const part of result.fullStream) seen.push(part as never)
  return { seen, ran }
}

/** The mock's calls of one kind (`doStreamCalls` / `doGenerateCalls`): the params the model was given. */
export function callsOf(model: object, kind: 'doStreamCalls' | 'doGenerateCalls'): Array<Record<string, any>> {
  return (model as Record<string, Array<Record<string, any>>>)[kind]!
}

/** A function tool as call params carry it. */
export const readFileTool = { type: 'function', name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }

/** The parts the wrapped model's `doStream` gives for a model streaming `parts`, read to the end (or to the error, returned as `error`). */
export async function wrappedStream(
  loaded: LoadedLine,
  parts: object[],
  middleware: object,
  params: Record<string, unknown> = {},
): Promise<{ parts: Array<Record<string, any>>; error?: unknown; model: object }> {
  const model = new loaded.Mock({ doStream: { stream: loaded.stream(parts) } })
  const wrapped = loaded.ai.wrapLanguageModel({ model: model as never, middleware: middleware as never })
  const { stream } = await wrapped.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: [readFileTool], ...params } as never)
  const out: Array<Record<string, any>> = []
  const reader = (stream as ReadableStream<Record<string, any>>).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { parts: out, model }
      out.push(value)
    }
  } catch (error) {
    return { parts: out, error, model }
  }
}

/** The text of the parts, per text id, checking the AI SDK's rules on the way: a delta only inside its open part, ids never reused. */
export function textsOf(parts: ReadonlyArray<Record<string, any>>): { text: string; ids: string[]; violations: string[] } {
  const open = new Set<string>()
  const seen = new Set<string>()
  const violations: string[] = []
  let text = ''
  for (const p of parts) {
    if (p.type === 'text-start') {
      if (seen.has(p.id)) violations.push(`text id ${p.id} reused`)
      seen.add(p.id)
      open.add(p.id)
    } else if (p.type === 'text-delta') {
      if (!open.has(p.id)) violations.push(`text-delta for ${p.id} outside its part`)
      text += p.delta
    } else if (p.type === 'text-end') {
      if (!open.delete(p.id)) violations.push(`text-end for ${p.id} not open`)
    }
  }
  for (const id of open) violations.push(`text part ${id} never ended`)
  return { text, ids: [...seen], violations }
}

/** A stream part, as the middleware's specs read it. */
export type Part = Record<string, unknown> & { type: string }

/**
 * The parts the middleware's `wrapStream` gives for an upstream of `parts`
 * that then ends, or fails with `end`: read to the end, or to the error
 * (returned as `error`). No SDK: the middleware over a bare `doStream`.
 */
export async function middlewareParts(parts: readonly unknown[], options: object = {}, end?: Error): Promise<{ out: Part[]; error: unknown }> {
  let i = 0
  const upstreamParts = new ReadableStream<unknown>({
    pull(c) {
      if (i < parts.length) c.enqueue(parts[i++])
      else if (end !== undefined) c.error(end)
      else c.close()
    },
  })
  const { stream } = await toolsieveMiddleware({ generateId: counter(), ...options }).wrapStream({ doStream: async () => ({ stream: upstreamParts }), params: { prompt: [] } } as never)
  const out: Part[] = []
  const reader = (stream as ReadableStream<Part>).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { out, error: undefined }
      out.push(value)
    }
  } catch (error) {
    return { out, error }
  }
}

/** The text of the parts' text deltas, joined. */
export const deltaText = (out: readonly Part[]): string => out.map((p) => (p.type === 'text-delta' ? (p.delta as string) : '')).join('')
