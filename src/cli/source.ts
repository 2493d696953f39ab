/**
 * Where a command's input comes from: a file or stdin, decoded as UTF-8 in
 * the pieces its stream reads (never the whole file), and those pieces cut
 * into lines for JSONL and SSE.
 */
import { constants } from 'node:buffer'
import { createReadStream, statSync } from 'node:fs'
import { UsageError } from './args.js'

/** An input: its name for messages, its size when known (for progress), and its text as read. */
export interface Source {
  name: string
  bytes: number | undefined
  /** Decoded text in the pieces the stream reads (64 KiB). A leading BOM is dropped. */
  pieces: AsyncIterable<string>
  /** UTF-8 bytes read so far. */
  read(): number
}

/** Opens a file, or stdin for `-`. A missing or unreadable file is a usage error (exit 2). */
export function openSource(command: string, file: string): Source {
  let bytes: number | undefined
  if (file !== '-') {
    try {
      const stat = statSync(file)
      if (stat.isDirectory()) throw new UsageError(`${command}: ${file} is a directory`)
      bytes = stat.size
    } catch (error) {
      if (error instanceof UsageError) throw error
      throw new UsageError(`${command}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
    }
  }
  const stream = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 64 * 1024 })
  let read = 0
  async function* pieces(): AsyncGenerator<string> {
    // A TextDecoder in streaming mode keeps a character split between two reads for the next one.
    const decoder = new TextDecoder('utf-8')
    let first = true
    for await (const buffer of stream as AsyncIterable<Buffer>) {
      read += buffer.length
      let text = decoder.decode(buffer, { stream: true })
      if (first && text !== '') {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
        first = false
      }
      if (text !== '') yield text
    }
    const rest = decoder.decode()
    if (rest !== '') yield rest
  }
  return { name: file === '-' ? 'stdin' : file, bytes, pieces: pieces(), read: () => read }
}

/** A line longer than the bound: its text was dropped as it was read; `length` is how long it was (UTF-16 units). */
export class LineTooLong {
  constructor(readonly length: number) {}
}

export interface LineOptions {
  /**
   * A lone `\r` ends a line too, as in server-sent events (`\r\n`, `\n`
   * and `\r` all do). Otherwise only `\n` does, and a `\r` before it is
   * dropped (JSONL, where a bare `\r` is whitespace inside a line).
   */
  cr?: boolean
  /**
   * Most UTF-16 units a line may hold. A longer one is a {@link LineTooLong}
   * and none of it is kept past the bound. Default: the longest string V8
   * can make, so that a line is never read into a string it cannot build.
   */
  limit?: number
}

/** The longest string V8 can build (2^29 - 24 units on 64-bit): past it, `join` throws `Invalid string length`. */
export const MAX_LINE = constants.MAX_STRING_LENGTH

const LF = 0x0a
const CR = 0x0d

/**
 * Lines of a text stream, without their line ends. A line is held as
 * fragments until its end arrives, then joined once; one past `limit` is
 * dropped as it comes and reported as a {@link LineTooLong}.
 */
export async function* lines(pieces: AsyncIterable<string>, options: LineOptions = {}): AsyncGenerator<string | LineTooLong> {
  const cr = options.cr === true
  const limit = options.limit ?? MAX_LINE
  let held: string[] = []
  let heldLength = 0
  /** The line being read is past the bound: its text is no longer kept, only counted. */
  let over = false
  /** The last piece ended in a `\r` (CR mode): a `\n` opening the next one belongs to that line end. */
  let skipLineFeed = false
  const add = (text: string): void => {
    heldLength += text.length
    if (over) return
    if (heldLength > limit) {
      over = true
      held = []
    } else if (text !== '') held.push(text)
  }
  const take = (): string | LineTooLong => {
    const line = over ? new LineTooLong(heldLength) : held.length === 1 ? held[0]! : held.join('')
    held = []
    heldLength = 0
    over = false
    return line
  }
  for await (const piece of pieces) {
    if (piece === '') continue
    let start = 0
    if (skipLineFeed && piece.charCodeAt(0) === LF) start = 1
    skipLineFeed = false
    // The next \n and \r from `start`, each looked for again only once passed (never a scan per line for an absent one).
    let lf = piece.indexOf('\n', start)
    let cret = cr ? piece.indexOf('\r', start) : -1
    while (lf !== -1 || cret !== -1) {
      const end = cret === -1 || (lf !== -1 && lf < cret) ? lf : cret
      let next = end + 1
      if (piece.charCodeAt(end) === CR) {
        if (next === piece.length) skipLineFeed = true
        else if (piece.charCodeAt(next) === LF) next++
      }
      add(piece.slice(start, end))
      let line = take()
      if (!cr && typeof line === 'string' && line.charCodeAt(line.length - 1) === CR) line = line.slice(0, -1)
      yield line
      start = next
      if (lf !== -1 && lf < start) lf = piece.indexOf('\n', start)
      if (cret !== -1 && cret < start) cret = piece.indexOf('\r', start)
    }
    if (start < piece.length) add(piece.slice(start))
  }
  if (heldLength > 0) {
    let line = take()
    if (!cr && typeof line === 'string' && line.charCodeAt(line.length - 1) === CR) line = line.slice(0, -1)
    yield line
  }
}

/**
 * Puts back what was read ahead (to detect the format) in front of the rest
 * of the stream, so that every character still reaches the reader once.
 */
export async function* prepend(head: readonly string[], rest: AsyncIterator<string>): AsyncGenerator<string> {
  yield* head
  for (let r = await rest.next(); r.done !== true; r = await rest.next()) yield r.value
}
