/**
 * Server-sent events, as the proxy reads an upstream's stream and writes
 * its own: events are the lines up to a blank line, a line ending in CR, LF
 * or CRLF; `data:` lines join with a line break (WHATWG HTML §9.2.6). The
 * proxy only needs `data`, `event` and the comments (`: keep-alive`), which
 * it passes on as they come. A line or an event past the bound stops the
 * stream with an {@link EventTooLarge}, having held no more than the bound.
 */
import { LineTooLong, lines } from './source.js'

/** Most UTF-16 units of one line or one event's data the proxy holds: the bound of a whole completion, 64 Mi. */
export const EVENT_LIMIT = 64 * 1024 * 1024

/** An upstream line or event over the bound (`code` `event-too-large`): the stream cannot be read on. */
export class EventTooLarge extends Error {
  override name = 'EventTooLarge'
  readonly code = 'event-too-large'
  constructor(limit: number) {
    super(`the upstream sent an event over ${limit} characters`)
  }
}

export type SseEvent =
  /** One event's data (its `data:` lines joined), with its `event:` name if any. */
  | { kind: 'data'; data: string; event: string | undefined }
  /** A comment line, as it was (`: OPENROUTER PROCESSING`). */
  | { kind: 'comment'; line: string }

/**
 * The events of a text stream. A last event with no blank line after it
 * still counts.
 *
 * @throws {EventTooLarge} for a line, or an event's data, over `limit` units.
 */
export async function* sseEvents(text: AsyncIterable<string>, limit = EVENT_LIMIT): AsyncGenerator<SseEvent> {
  let data: string[] = []
  /** The event's data so far, with the line breaks that will join it: bounded like a line. */
  let dataLength = 0
  let event: string | undefined
  for await (const line of lines(text, { cr: true, limit })) {
    if (line instanceof LineTooLong) throw new EventTooLarge(limit)
    if (line === '') {
      if (data.length > 0) yield { kind: 'data', data: data.join('\n'), event }
      data = []
      dataLength = 0
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
    if (field === 'data') {
      dataLength += value.length + (data.length > 0 ? 1 : 0)
      if (dataLength > limit) throw new EventTooLarge(limit)
      data.push(value)
    } else if (field === 'event') event = value
  }
  if (data.length > 0) yield { kind: 'data', data: data.join('\n'), event }
}

/** One event on the wire: its `event:` line if named, its data (one `data:` line per line of it), a blank line. */
export function sseFrame(data: string, event?: string): string {
  const head = event === undefined ? '' : `event: ${event}\n`
  return `${head}data: ${data.replace(/\r\n|\r|\n/g, '\ndata: ')}\n\n`
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
