/**
 * A whole (non-streamed) chat completion through the repair: read whole up
 * to a bound, checked for a shape the repair reads, repaired, and sent with
 * its length set again. What cannot be repaired goes out as it came.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { sieveChatCompletion, type OpenAIAdapterOptions } from '../openai/index.js'
import { parseJson, rewrittenHeaders, write } from './proxy-http.js'
import type { RepairLog } from './proxy-repair.js'
import { readableCompletion } from './proxy-shapes.js'

/** Most bytes of a non-streamed completion the proxy holds to repair it. */
const COMPLETION_LIMIT = 64 * 1024 * 1024

/**
 * A whole completion, repaired. One that is not JSON, not a shape the
 * repair reads (content as an array of parts) or over the bound goes out as
 * it came, with the upstream's status; so does one the adapter fails on for
 * any reason but a conflict with native calls, which is refused (502)
 * rather than sent with calls that may run twice.
 */
export async function repairCompletion(upstream: IncomingMessage, body: Readable, res: ServerResponse, options: OpenAIAdapterOptions, log: RepairLog): Promise<void> {
  const status = upstream.statusCode ?? 200
  const headers = rewrittenHeaders(upstream)
  const reader = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]()
  const parts: Buffer[] = []
  let length = 0
  for (let next = await reader.next(); next.done !== true; next = await reader.next()) {
    parts.push(next.value)
    length += next.value.length
    if (length > COMPLETION_LIMIT) {
      // Too large to hold: what was read goes out, then the rest as it comes.
      log.mode = 'passed'
      log.note = 'not repaired: body over 64 MB'
      res.writeHead(status, headers)
      for (const part of parts.splice(0)) await write(res, part)
      for (let rest = await reader.next(); rest.done !== true; rest = await reader.next()) await write(res, rest.value)
      res.end()
      return
    }
  }
  const bytes = Buffer.concat(parts, length)
  const asItCame = (why: string): void => {
    log.mode = 'passed'
    log.note = `not repaired: ${why}`
    res.writeHead(status, { ...headers, 'content-length': String(bytes.length) })
    res.end(bytes)
  }
  const completion = parseJson(bytes.toString('utf8'))
  if (completion === undefined) return asItCame('body is not JSON')
  if (!readableCompletion(completion)) return asItCame('not a shape the repair reads')
  const choices = (completion as unknown as ChatCompletion).choices ?? []
  const natives = new Set(choices.flatMap((c) => (c.message?.tool_calls ?? []).map((t) => t.id)))
  let text: string
  try {
    const repaired = sieveChatCompletion(completion as unknown as ChatCompletion, options)
    for (const c of repaired.choices ?? []) for (const t of c?.message?.tool_calls ?? []) if (!natives.has(t.id)) log.rescued++
    text = JSON.stringify(repaired)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code !== 'native-conflict') return asItCame(`the repair failed (${typeof code === 'string' ? code : (error as Error).message})`)
    log.note = `refused: ${code}`
    text = JSON.stringify({ error: { message: (error as Error).message, type: 'toolsieve_error', code } })
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
    res.end(text)
    return
  }
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) })
  res.end(text)
}
