/**
 * Server-sent events, as the proxy reads an upstream's stream and writes
 * its own: events are the lines up to a blank line; `data:` lines join with
 * a line break (WHATWG HTML §9.2.6). The proxy only needs `data` and the
 * comments (`: keep-alive`), which it passes on as they come.
 */
import { lines } from './source.js'

export type SseEvent =
  /** One event's data (its `data:` lines joined), with its `event:` name if any. */
  | { kind: 'data'; data: string; event: string | undefined }
  /** A comment line, as it was (`: OPENROUTER PROCESSING`). */
  | { kind: 'comment'; line: string }

/** The events of a text stream. A last event with no blank line after it still counts. */
export async function* sseEvents(text: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  let data: string[] = []
  let event: string | undefined
  for await (const line of lines(text)) {
    if (line === '') {
      if (data.length > 0) yield { kind: 'data', data: data.join('\n'), event }
      data = []
      event = undefined
      continue
    }
    if (line.startsWith(':')) {
      yield { kind: 'comment', line }
      continue
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
  }
  if (data.length > 0) yield { kind: 'data', data: data.join('\n'), event }
}

/** One event on the wire: its `event:` line if named, its data (one `data:` line per line of it), a blank line. */
export function sseFrame(data: string, event?: string): string {
  const head = event === undefined ? '' : `event: ${event}\n`
  return `${head}data: ${data.replace(/\r?\n/g, '\ndata: ')}\n\n`
}

/** Decoded text of a byte stream, a character split between reads kept for the next. */
export async function* decodeUtf8(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8')
  for await (const b of bytes) {
    const text = decoder.decode(b, { stream: true })
    if (text !== '') yield text
  }
  const rest = decoder.decode()
  if (rest !== '') yield rest
}
