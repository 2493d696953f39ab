/**
 * The invariants of `streamArguments` events, checked on any event list:
 * every start ends in exactly one tool-call (same id, name, span start) or one
 * abort, after it; deltas come only between them and concatenate to the final
 * `arguments`; indexes count starts from the stream's first. Returns the
 * events without the three streaming kinds, which must equal what a sieve
 * without the option gives.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/index.js'
import { resumedAfter } from './checkpoint.js'
import { calls } from './chunking.js'

export interface Streamed {
  /** The events without tool-call-start / -delta / -abort. */
  rest: SieveEvent[]
  starts: Extract<SieveEvent, { type: 'tool-call-start' }>[]
  aborts: Extract<SieveEvent, { type: 'tool-call-abort' }>[]
  /** Concatenated deltas by id. */
  args: Map<string, string>
}

export function checkStreamed(events: readonly SieveEvent[]): Streamed {
  const open = new Map<string, { name: string; start: number }>()
  const ended = new Set<string>()
  const out: Streamed = { rest: [], starts: [], aborts: [], args: new Map() }
  for (const e of events) {
    if (e.type === 'tool-call-start') {
      expect(open.has(e.id) || ended.has(e.id), `id ${e.id} starts once`).toBe(false)
      expect(e.index, 'indexes count starts').toBe(out.starts.length)
      out.starts.push(e)
      open.set(e.id, { name: e.name, start: e.span.start })
      out.args.set(e.id, '')
    } else if (e.type === 'tool-call-delta') {
      expect(open.has(e.id), `delta for an open call ${e.id}`).toBe(true)
      expect(e.delta.length, 'a delta is never empty').toBeGreaterThan(0)
      out.args.set(e.id, out.args.get(e.id)! + e.delta)
    } else if (e.type === 'tool-call-abort') {
      expect(open.has(e.id), `abort of an open call ${e.id}`).toBe(true)
      open.delete(e.id)
      ended.add(e.id)
      out.aborts.push(e)
    } else {
      if (e.type === 'tool-call') {
        const o = open.get(e.id)
        expect(o, `tool-call ${e.id} was started`).toBeDefined()
        expect(o!.name).toBe(e.name)
        expect(o!.start, 'the start names where the call\'s raw begins').toBe(e.span.start)
        expect(out.args.get(e.id), 'deltas concatenate to the final arguments').toBe(e.arguments)
        open.delete(e.id)
        ended.add(e.id)
      }
      out.rest.push(e)
    }
  }
  expect([...open.keys()], 'every start has ended by the stream\'s end').toEqual([])
  return out
}

/** Streams `chunks` with `streamArguments` (ids numbered), checks the invariants, and returns the streamed view. */
export function streamed(chunks: readonly string[], opts: SieveOptions = {}): Streamed {
  let n = 0
  const sieve = createSieve({ generateId: () => `id${n++}`, ...opts, streamArguments: true })
  const events: SieveEvent[] = []
  for (const c of chunks) events.push(...sieve.push(c))
  events.push(...sieve.end())
  return checkStreamed(events)
}

/**
 * Text and reasoning merged (empty pieces dropped), ids blanked, and
 * diagnostic messages blanked unless `messages` keeps them: what two runs
 * must agree on.
 */
export function comparable(events: readonly SieveEvent[], { messages = false }: { messages?: boolean } = {}): unknown[] {
  const message = <T extends { message: string }>(d: T): T => (messages ? d : { ...d, message: '' })
  const out: unknown[] = []
  for (const e of events) {
    if (e.type === 'text') {
      if (e.text === '') continue
      const last = out[out.length - 1] as { type: string; text: string } | undefined
      if (last?.type === 'text') last.text += e.text
      else out.push({ type: 'text', text: e.text })
    } else if (e.type === 'reasoning') {
      const last = out[out.length - 1] as { type: string; text: string } | undefined
      if (last?.type === 'reasoning') last.text += e.text
      else if (e.text !== '') out.push({ type: 'reasoning', text: e.text })
    } else if (e.type === 'tool-call') {
      out.push({ ...e, id: '', diagnostics: e.diagnostics?.map(message) })
    } else if (e.type === 'diagnostic' || e.type === 'error') {
      out.push(message(e))
    } else out.push(e)
  }
  return out
}

/**
 * `input` with `streamArguments`, pushed in chunks of each of `sizes`
 * (whole, one unit, 3 and 7 by default), its invariants checked: `call`
 * starts once and comes out whole, and is the only call.
 */
export function expectStreamedOnce(input: string, opts: SieveOptions, call: { name: string; input: Record<string, unknown> }, sizes = [input.length, 1, 3, 7]): void {
  for (const size of sizes) {
    const sieve = createSieve({ ...opts, streamArguments: true })
    const events: SieveEvent[] = []
    for (let i = 0; i < input.length; i += size) events.push(...sieve.push(input.slice(i, i + size)))
    events.push(...sieve.end())
    const { starts, rest } = checkStreamed(events)
    expect(starts.map((e) => e.name), `chunks of ${size}`).toEqual([call.name])
    expect(calls(rest), `chunks of ${size}`).toEqual([call])
  }
}

/** The same stream without the option, ids numbered the same way. */
export function unstreamed(chunks: readonly string[], opts: SieveOptions = {}): SieveEvent[] {
  let n = 0
  const sieve = createSieve({ generateId: () => `id${n++}`, ...opts, streamArguments: false })
  const events: SieveEvent[] = []
  for (const c of chunks) events.push(...sieve.push(c))
  events.push(...sieve.end())
  return events
}

/**
 * `chunks` with `streamArguments` (ids numbered), a checkpoint taken after
 * chunk `at` (none for -1) going through JSON into a new sieve that goes on.
 */
export function streamedResumed(chunks: readonly string[], at: number, opts: SieveOptions = {}): SieveEvent[] {
  return resumedAfter(chunks, at, { ...opts, streamArguments: true })
}
