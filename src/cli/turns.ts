/**
 * An input's turns. The format is detected from the first non-blank line,
 * unless `--input` names it:
 *
 * - **sse**: the line starts with `data:`, `event:`, `id:`, `retry:` or `:`
 *   (a recorded server-sent-events stream). Each `data:` line is a chat
 *   completion chunk; its `choices[i].delta.content` is the text of turn
 *   `i`'s stream (a Responses `response.output_text.delta` event's `delta`
 *   too). `data: [DONE]` ends a response: a file may hold several.
 * - **jsonl**: the line is a JSON object. Every non-blank line is one turn;
 *   its text is the first of `text`, `content`, `output`,
 *   `choices[0].message.content`, `choices[0].text` present (content-part
 *   arrays are joined), or the field `--field` names (`a.b.0.c` or `a.b[0].c`).
 * - **text**: anything else; the whole input is one turn.
 */
import { UsageError } from './args.js'
import { LineTooLong, lines, MAX_LINE, prepend, type Source } from './source.js'

export type InputFormat = 'text' | 'jsonl' | 'sse'

/** One turn: where it starts (`file:line`), its index in the input, and its text in the pieces the input gives. */
export interface Turn {
  kind: 'turn'
  index: number
  where: string
  pieces: string[]
}

/** An input line that holds no turn (not JSON, no text field): reported, skipped, and a failure under `--strict`. */
export interface Unreadable {
  kind: 'unreadable'
  where: string
  message: string
}

export interface Input {
  format: InputFormat
  /** The whole input as read (for `text`, streamed without holding it). */
  pieces: AsyncIterable<string>
  /** Its turns: for `text` one turn, the whole input. */
  turns(): AsyncGenerator<Turn | Unreadable>
}

export interface InputOptions {
  /** `--input`; default: detect. */
  format?: InputFormat | undefined
  /** `--field`: the path of a JSONL turn's text. */
  field?: string | undefined
  /** Most UTF-16 units of a JSONL or SSE line; a longer one is reported and skipped. Default {@link MAX_LINE}, the longest string V8 can build. */
  maxLine?: number
}

/** Most read ahead to find the first line: past it, an input whose first line is that long is text. */
const DETECT_LIMIT = 16 * 1024 * 1024

/** Detects the format (reading ahead at most one line) and gives the turns. */
export async function readInput(source: Source, options: InputOptions = {}): Promise<Input> {
  const iterator = source.pieces[Symbol.asyncIterator]()
  const head: string[] = []
  let format = options.format
  if (format === undefined) {
    let length = 0
    let firstLine: string | undefined
    while (firstLine === undefined && length < DETECT_LIMIT) {
      const r = await iterator.next()
      if (r.done === true) break
      head.push(r.value)
      length += r.value.length
      // Joined only when a line may have ended, so a long first line is not copied once per read.
      if (!r.value.includes('\n')) continue
      const match = /^[ \t\r\n]*([^\r\n]*)\r?\n/.exec(head.join(''))
      if (match !== null) firstLine = match[1]
    }
    format = detect(firstLine ?? head.join('').trim())
  }
  const pieces = prepend(head, iterator)
  const path = options.field === undefined ? undefined : fieldPath(options.field)
  const limit = options.maxLine ?? MAX_LINE
  const turns =
    format === 'text' ? () => textTurn(source, pieces) : format === 'jsonl' ? () => jsonlTurns(source, pieces, path, limit) : () => sseTurns(source, pieces, limit)
  return { format, pieces, turns }
}

function detect(line: string): InputFormat {
  if (/^(data|event|id|retry):|^:/.test(line)) return 'sse'
  if (line.startsWith('{')) {
    try {
      if (typeof JSON.parse(line) === 'object') return 'jsonl'
    } catch {
      // A text that happens to start with a brace.
    }
  }
  return 'text'
}

/** `a.b[0].c` → `['a', 'b', 0, 'c']`. */
function fieldPath(field: string): (string | number)[] {
  const parts = field.replace(/\[(\d+)\]/g, '.$1').split('.').filter((p) => p !== '')
  if (parts.length === 0) throw new UsageError(`--field must name a field, not ${JSON.stringify(field)}`)
  return parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p))
}

const CANDIDATES: (string | number)[][] = [['text'], ['content'], ['output'], ['choices', 0, 'message', 'content'], ['choices', 0, 'text']]

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined
    v = (v as Record<string | number, unknown>)[key]
  }
  return v
}

/** A field's text: a string, `null` (a message with no content) as '', or content parts (`[{ type: 'text', text }]`, Responses output items) joined. */
function flatten(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value === null) return ''
  if (!Array.isArray(value)) return undefined
  const parts: string[] = []
  for (const item of value) {
    if (typeof item === 'string') parts.push(item)
    else if (item !== null && typeof item === 'object') {
      const o = item as { text?: unknown; content?: unknown }
      const text = typeof o.text === 'string' ? o.text : flatten(o.content)
      if (text !== undefined) parts.push(text)
    }
  }
  return parts.join('')
}

async function* textTurn(source: Source, pieces: AsyncIterable<string>): AsyncGenerator<Turn> {
  const all: string[] = []
  for await (const piece of pieces) all.push(piece)
  yield { kind: 'turn', index: 0, where: source.name, pieces: all }
}

/** What a line past the bound is reported as. */
const tooLong = (where: string, line: LineTooLong, limit: number): Unreadable => ({
  kind: 'unreadable',
  where,
  message: `too long (${line.length} characters, over the ${limit} a line may hold)`,
})

async function* jsonlTurns(source: Source, pieces: AsyncIterable<string>, field: (string | number)[] | undefined, limit: number): AsyncGenerator<Turn | Unreadable> {
  let lineNo = 0
  let index = 0
  for await (const line of lines(pieces, { limit })) {
    lineNo++
    const where = `${source.name}:${lineNo}`
    if (line instanceof LineTooLong) {
      yield tooLong(where, line, limit)
      continue
    }
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      yield { kind: 'unreadable', where, message: `not JSON (${(error as Error).message})` }
      continue
    }
    const paths = field === undefined ? CANDIDATES : [field]
    let text: string | undefined
    for (const path of paths) if (text === undefined) text = flatten(at(value, path))
    if (text === undefined) {
      const names = field === undefined ? 'text, content, output or choices[0].message.content' : paths[0]!.join('.')
      yield { kind: 'unreadable', where, message: `no text in ${names}${field === undefined ? ' (name the field with --field)' : ''}` }
      continue
    }
    yield { kind: 'turn', index: index++, where, pieces: [text] }
  }
}

interface ChunkShape {
  type?: unknown
  delta?: unknown
  choices?: { index?: unknown; delta?: { content?: unknown } }[]
}

async function* sseTurns(source: Source, pieces: AsyncIterable<string>, limit: number): AsyncGenerator<Turn | Unreadable> {
  let lineNo = 0
  let index = 0
  // One stream per choice index, in the order they first appear; flushed at [DONE] or the end.
  let open = new Map<number, { where: string; pieces: string[] }>()
  const flush = function* (): Generator<Turn> {
    for (const turn of open.values()) yield { kind: 'turn', index: index++, where: turn.where, pieces: turn.pieces }
    open = new Map()
  }
  for await (const line of lines(pieces, { cr: true, limit })) {
    lineNo++
    const where = `${source.name}:${lineNo}`
    if (line instanceof LineTooLong) {
      yield tooLong(where, line, limit)
      continue
    }
    if (!line.startsWith('data:')) continue
    const data = line.slice(line.startsWith('data: ') ? 6 : 5)
    if (data.trim() === '[DONE]') {
      yield* flush()
      continue
    }
    let chunk: ChunkShape
    try {
      chunk = JSON.parse(data) as ChunkShape
    } catch (error) {
      yield { kind: 'unreadable', where, message: `data is not JSON (${(error as Error).message})` }
      continue
    }
    const add = (choice: number, text: string): void => {
      let turn = open.get(choice)
      if (turn === undefined) open.set(choice, (turn = { where, pieces: [] }))
      if (text !== '') turn.pieces.push(text)
    }
    if (chunk.type === 'response.output_text.delta' && typeof chunk.delta === 'string') add(0, chunk.delta)
    else if (Array.isArray(chunk.choices)) {
      for (const choice of chunk.choices) {
        const content = choice?.delta?.content
        add(typeof choice?.index === 'number' ? choice.index : 0, typeof content === 'string' ? content : '')
      }
    }
  }
  yield* flush()
}
