/**
 * One run of the sieve over the pushes, and what the page shows of it: the
 * events as they came, their text, reasoning, calls and diagnostics, and the
 * stretch of the input each event stands for. Plain data, no DOM, so that it
 * is tested in Node too.
 */
import { createSieve } from 'toolsieve'
import type { DiagnosticEvent, ErrorEvent, SieveEvent, SieveOptions, Span, ToolCallEvent } from 'toolsieve'

/** What a stretch of the input became. Every unit of the input is in exactly one piece when nothing was lost. */
export type PieceKind = 'text' | 'reasoning' | 'reasoning-tag' | 'tool-call'

export interface Piece {
  kind: PieceKind
  span: Span
  /** For a call: its place among the run's calls. */
  call?: number
}

export interface RunResult {
  /** Each push's events, in order; the last entry is `end()`'s. */
  pushes: SieveEvent[][]
  events: SieveEvent[]
  text: string
  reasoning: string
  calls: ToolCallEvent[]
  /** Diagnostics and (in strict mode) errors, in stream order. */
  problems: Array<DiagnosticEvent | ErrorEvent>
  /** Consecutive stretches of the input, from the events that carry text in stream order. */
  pieces: Piece[]
  /** The text, reasoning, reasoning tags and call raws joined give the input back. */
  lossless: boolean
}

/** Runs a sieve made with `options` over `chunks`, then ends it. A bad option throws the library's `ToolsieveError`. */
export function run(chunks: readonly string[], options: SieveOptions): RunResult {
  const sieve = createSieve(options)
  const pushes = chunks.map((chunk) => sieve.push(chunk))
  pushes.push(sieve.end())
  const events = pushes.flat()
  const result: RunResult = { pushes, events, text: '', reasoning: '', calls: [], problems: [], pieces: [], lossless: true }
  const out: string[] = []
  let at = 0
  const piece = (kind: PieceKind, length: number, call?: number): void => {
    const last = result.pieces[result.pieces.length - 1]
    if (length === 0) return
    if (last !== undefined && last.kind === kind && call === undefined && last.span.end === at) last.span.end += length
    else result.pieces.push(call === undefined ? { kind, span: { start: at, end: at + length } } : { kind, span: { start: at, end: at + length }, call })
    at += length
  }
  for (const event of events) {
    switch (event.type) {
      case 'text':
        result.text += event.text
        out.push(event.text)
        piece('text', event.text.length)
        break
      case 'reasoning':
        result.reasoning += event.text
        out.push(event.text)
        piece('reasoning', event.text.length)
        break
      case 'reasoning-start':
      case 'reasoning-end':
        out.push(event.raw)
        if (event.span.start !== at) result.lossless = false
        piece('reasoning-tag', event.raw.length)
        break
      case 'tool-call':
        out.push(event.raw)
        if (event.span.start !== at) result.lossless = false
        piece('tool-call', event.raw.length, result.calls.length)
        result.calls.push(event)
        break
      case 'diagnostic':
      case 'error':
        result.problems.push(event)
        break
      default:
        break
    }
  }
  if (out.join('') !== chunks.join('')) result.lossless = false
  return result
}
