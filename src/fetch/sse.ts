/**
 * Server-sent events as `sieveFetch` reads an upstream's stream and writes
 * its own (WHATWG HTML §9.2.6): lines end in CR, LF or CRLF, an event is the
 * lines up to a blank one, `data:` lines join with a line break. Pieces of
 * text come as the network cut them, so a line, a CRLF or a field name may
 * be split anywhere; lines and events are bounded so that a stream that
 * never ends a line cannot grow memory without end.
 */

/** What a stream of server-sent events is made of. */
export type SseEvent =
  /** One event: its `data:` lines joined, and its other fields as they came. */
  | { kind: 'data'; data: string; event: string | undefined; id: string | undefined; retry: string | undefined }
  /** A comment line, as it was (`: OPENROUTER PROCESSING`, a keep-alive). */
  | { kind: 'comment'; line: string }

/** Most characters of one line, and of one event's data, before the stream is refused. */
export const SSE_LIMIT = 64 * 1024 * 1024

/** A line or an event over the limit: the stream cannot be read on, so it is stopped. */
export class SseLimitError extends Error {
  override readonly name = 'SseLimitError'
  constructor(readonly limit: number) {
    super(`an event-stream line or event is over ${limit} characters`)
  }
}

const lineBreak = /[\r\n]/g

/** Reads events out of text pushed piece by piece. */
export class SseDecoder {
  /**
   * The current line so far, in the pieces it came in: joined once when the
   * line ends, never `line + piece` (a line dripping in small pieces would
   * copy itself once per piece).
   */
  private fragments: string[] = []
  private fragmentsLength = 0
  /**
   * The last piece ended in CR: an LF at the start of the next is that
   * CRLF's second half, not an empty line (which would end the event).
   */
  private skipLineFeed = false
  /** The event being read: its `data:` lines (undefined before the first), their size, its other fields. */
  private data: string[] | undefined
  private dataLength = 0
  private event: string | undefined
  private id: string | undefined
  private retry: string | undefined

  constructor(private readonly limit: number = SSE_LIMIT) {}

  /**
   * The events the text completes.
   *
   * @throws {SseLimitError} for a line or an event over the limit.
   */
  push(text: string, out: SseEvent[] = []): SseEvent[] {
    // an empty piece says nothing, not even that the LF after a CR did not come
    if (text === '') return out
    let start = 0
    if (this.skipLineFeed && text.charCodeAt(0) === 0x0a) start = 1
    this.skipLineFeed = false
    lineBreak.lastIndex = start
    for (let match = lineBreak.exec(text); match !== null; match = lineBreak.exec(text)) {
      const at = match.index
      this.line(this.take(text.slice(start, at)), out)
      if (text.charCodeAt(at) === 0x0d) {
        if (at + 1 === text.length) this.skipLineFeed = true
        else if (text.charCodeAt(at + 1) === 0x0a) lineBreak.lastIndex = at + 2
      }
      start = lineBreak.lastIndex
    }
    if (start < text.length) this.hold(text.slice(start))
    return out
  }

  /** The stream is over: a last line and event without their blank line still count. */
  end(out: SseEvent[] = []): SseEvent[] {
    if (this.fragmentsLength > 0) this.line(this.take(''), out)
    this.dispatch(out)
    return out
  }

  private hold(piece: string): void {
    this.fragmentsLength += piece.length
    if (this.fragmentsLength > this.limit) throw new SseLimitError(this.limit)
    this.fragments.push(piece)
  }

  /** The whole line: what was held, and its last piece. */
  private take(last: string): string {
    if (this.fragments.length === 0) {
      if (last.length > this.limit) throw new SseLimitError(this.limit)
      return last
    }
    this.hold(last)
    const line = this.fragments.join('')
    this.fragments = []
    this.fragmentsLength = 0
    return line
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') return this.dispatch(out)
    if (line.charCodeAt(0) === 0x3a) {
      out.push({ kind: 'comment', line })
      return
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 0x20) value = value.slice(1)
    if (field === 'data') {
      this.dataLength += value.length + (this.data === undefined ? 0 : 1)
      if (this.dataLength > this.limit) throw new SseLimitError(this.limit)
      ;(this.data ??= []).push(value)
    } else if (field === 'event') this.event = value
    else if (field === 'id') this.id = value
    else if (field === 'retry') this.retry = value
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data !== undefined) out.push({ kind: 'data', data: this.data.join('\n'), event: this.event, id: this.id, retry: this.retry })
    this.data = undefined
    this.dataLength = 0
    this.event = undefined
    this.id = undefined
    this.retry = undefined
  }
}

/** One event on the wire: its `event:`, `id:`, `retry:` lines when it has them, one `data:` line per line of its data, a blank line. */
export function sseFrame(data: string, event?: string, id?: string, retry?: string): string {
  const head = (event === undefined ? '' : `event: ${oneLine(event)}\n`) + (id === undefined ? '' : `id: ${oneLine(id)}\n`) + (retry === undefined ? '' : `retry: ${oneLine(retry)}\n`)
  return `${head}data: ${data.replace(/\r\n|\r|\n/g, '\ndata: ')}\n\n`
}

/**
 * A field's value as one line. A value read from the stream is one already;
 * an event named after its data's `type` (the Responses stream) is whatever
 * JSON string upstream sent, and a line break in it would end the field and
 * start frames of its own.
 */
export const oneLine = (v: string): string => v.replace(/[\r\n]/g, ' ')

/** An event as it came, written again. */
export function eventFrame(event: SseEvent): string {
  return event.kind === 'comment' ? `${event.line}\n\n` : sseFrame(event.data, event.event, event.id, event.retry)
}
