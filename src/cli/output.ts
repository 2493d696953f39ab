/**
 * What `parse` writes: stdout with backpressure (a 2 GB input must not pile
 * up in the pipe's buffer), and the three `--format`s as sinks that take one
 * turn's events.
 */
import { once } from 'node:events'
import type { SieveEvent, ToolCallEvent } from '../index.js'

/** Buffered stdout: writes in pieces of 64 KiB or so and waits for `drain` when the reader is slower. */
export class Output {
  private held: string[] = []
  private heldLength = 0

  constructor(private readonly stream: NodeJS.WritableStream = process.stdout) {}

  async write(text: string): Promise<void> {
    this.held.push(text)
    this.heldLength += text.length
    if (this.heldLength >= 64 * 1024) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.held.length === 0) return
    const text = this.held.join('')
    this.held = []
    this.heldLength = 0
    if (!this.stream.write(text)) await once(this.stream, 'drain')
  }
}

export type OutputFormat = 'events' | 'openai' | 'text'

/** Takes one turn's events as they come, and writes what its format says. */
export interface TurnSink {
  event(e: SieveEvent): Promise<void>
  end(): Promise<void>
}

/**
 * The text a reader sees, with the blank lines a model puts around a block
 * trimmed where the block was cut out: the pieces between calls, joined by
 * one blank line, and the whole trimmed of line breaks at its edges.
 */
export class CleanText {
  private segments: string[][] = [[]]

  text(t: string): void {
    this.segments[this.segments.length - 1]!.push(t)
  }

  cut(): void {
    this.segments.push([])
  }

  result(): string {
    if (this.segments.length === 1) return this.segments[0]!.join('')
    const parts: string[] = []
    const last = this.segments.length - 1
    this.segments.forEach((fragments, i) => {
      let s = fragments.join('')
      if (i > 0) s = s.replace(/^[ \t]*(?:\r?\n)+/, '')
      if (i < last) s = s.replace(/\s+$/, '')
      if (s !== '') parts.push(s)
    })
    return parts.join('\n\n').replace(/^(?:\r?\n)+|(?:\r?\n)+$/g, '')
  }
}

/** One JSON event per line; `turn` first when the input has turns. */
export function eventsSink(out: Output, turn: number | undefined): TurnSink {
  return {
    event: (e) => out.write(JSON.stringify(turn === undefined ? e : { turn, ...e }) + '\n'),
    end: async () => {},
  }
}

/** An OpenAI assistant message per turn: `content` (null when empty and there are calls), `tool_calls`, `reasoning_content`. */
export function openaiSink(out: Output): TurnSink {
  const text = new CleanText()
  const reasoning: string[] = []
  const calls: ToolCallEvent[] = []
  return {
    async event(e) {
      if (e.type === 'text') text.text(e.text)
      else if (e.type === 'reasoning') reasoning.push(e.text)
      else if (e.type === 'tool-call') {
        calls.push(e)
        text.cut()
      }
    },
    async end() {
      const content = text.result()
      const message: Record<string, unknown> = { role: 'assistant', content: content === '' && calls.length > 0 ? null : content }
      if (reasoning.length > 0) message.reasoning_content = reasoning.join('')
      if (calls.length > 0) {
        message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
      }
      await out.write(JSON.stringify(message) + '\n')
    },
  }
}

/**
 * The cleaned text (as the openai message's `content`). A single-turn input
 * is written as it is; a turn of a multi-turn input as a JSON string on its
 * own line, so that turns stay apart whatever they hold.
 */
export function textSink(out: Output, multi: boolean): TurnSink {
  const text = new CleanText()
  return {
    async event(e) {
      if (e.type === 'text') text.text(e.text)
      else if (e.type === 'tool-call') text.cut()
    },
    end: () => out.write(multi ? JSON.stringify(text.result()) + '\n' : text.result()),
  }
}
