/** Shared pieces of the `toolsieve/stream` specs: deterministic ids, awkward chunkings, and events merged for comparison. */
import type { DiagnosticEvent, ErrorEvent, SieveEvent } from '../../src/index.js'

/** Ids `call_0…`, `call_1…` in order, so two runs over the same text compare equal. */
export function counterIds(): () => string {
  let n = 0
  return () => `call_${String(n++).padStart(24, '0')}`
}

/** A DeepSeek answer: prose, a DSML call, prose after it. */
export const ANSWER =
  'Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>\n\nDone.'

/** Cuts inside every delimiter of {@link ANSWER}: one code unit, then growing pieces. */
export function awkward(text: string): string[] {
  const out: string[] = []
  for (let i = 0, size = 1; i < text.length; size = (size % 7) + 1) {
    out.push(text.slice(i, i + size))
    i += size
  }
  return out
}

/** Adjacent text (and reasoning) events joined, empty ones dropped: the chunking-independent view of an event list. */
export function merged(events: readonly SieveEvent[]): SieveEvent[] {
  const out: SieveEvent[] = []
  for (const e of events) {
    const last = out[out.length - 1]
    if ((e.type === 'text' || e.type === 'reasoning') && e.text === '') continue
    if ((e.type === 'text' && last?.type === 'text') || (e.type === 'reasoning' && last?.type === 'reasoning')) out[out.length - 1] = { ...last, text: last.text + e.text }
    else out.push(e)
  }
  return out
}

/** A ReadableStream of the given chunks, one per pull. */
export function readableOf<T>(chunks: readonly T[]): ReadableStream<T> {
  let i = 0
  return new ReadableStream<T>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!)
      else controller.close()
    },
  })
}

/** Everything a readable gives, in order. */
export async function drain<T>(readable: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  const reader = readable.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push(value)
  }
}

/** What an iteration gave before it failed, and what it failed with. */
export async function until<T>(items: AsyncIterable<T>): Promise<{ out: T[]; error: unknown }> {
  const out: T[] = []
  try {
    for await (const item of items) out.push(item)
  } catch (error) {
    return { out, error }
  }
  return { out, error: undefined }
}

/** An upstream of `items`, then a throw of `end` if given; `taken.read` counts the items the adapter took. */
export async function* source<T>(items: readonly T[], end?: Error, taken = { read: 0 }): AsyncGenerator<T> {
  for (const item of items) {
    taken.read++
    yield item
  }
  if (end !== undefined) throw end
}

/** A callback that throws a new error for each diagnostic, and what it was given and threw. */
export function throwing(): { onDiagnostic: (e: DiagnosticEvent | ErrorEvent) => void; seen: string[]; thrown: Error[] } {
  const seen: string[] = []
  const thrown: Error[] = []
  return {
    seen,
    thrown,
    onDiagnostic: (e) => {
      seen.push(e.code)
      const error = new Error(`refused ${e.code} #${thrown.length}`)
      thrown.push(error)
      throw error
    },
  }
}
