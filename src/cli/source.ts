/**
 * Where a command's input comes from: a file or stdin, decoded as UTF-8 in
 * the pieces its stream reads (never the whole file), and those pieces cut
 * into lines for JSONL and SSE.
 */
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

/**
 * Lines of a text stream, without their `\n` (and a `\r` before it). A line
 * is held as fragments until its end arrives, then joined once.
 */
export async function* lines(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  let held: string[] = []
  for await (const piece of pieces) {
    let start = 0
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', start)) {
      held.push(piece.slice(start, nl))
      const line = held.length === 1 ? held[0]! : held.join('')
      held = []
      yield line.endsWith('\r') ? line.slice(0, -1) : line
      start = nl + 1
    }
    if (start < piece.length) held.push(piece.slice(start))
  }
  if (held.length > 0) {
    const line = held.join('')
    yield line.endsWith('\r') ? line.slice(0, -1) : line
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
