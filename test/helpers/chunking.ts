/**
 * The chunking matrix every spec case runs through.
 *
 * A sieve must give the same events whatever the chunking: whole, one UTF-16
 * unit at a time, every split point, random splits. `expectChunkInvariant`
 * checks that, plus conservation (every input character leaves exactly once:
 * text events and tool-call `raw`s, in order, rebuild the input) and span
 * consistency. It returns the reference events (one chunk) for the case's own
 * assertions.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import { mulberry32 } from '../../bench/generate.js'
import type { ReasoningEndEvent, ReasoningStartEvent, SieveEvent, SieveOptions, Span, TextEvent, ToolCallEvent } from '../../src/types.js'

/** Every made id is replaced by this, so runs with random ids compare equal. */
export const ID = '<id>'

/** A call id the sieve makes, as the contract states it. */
export const ID_PATTERN = /^call_[0-9a-f]{24,}$/

export type TextOut = TextEvent
/** A tool call as the contract states it (the optional `diagnostics` of tool schemas left out). */
export type CallOut = Pick<ToolCallEvent, 'type' | 'id' | 'name' | 'input' | 'arguments' | 'raw' | 'span'>
/** A diagnostic without its `message` (prose, not contract; checked non-empty instead). */
export interface DiagnosticOut {
  type: 'diagnostic'
  code: string
  span: Span
}
/** Reasoning, merged like text. */
export interface ReasoningOut {
  type: 'reasoning'
  text: string
}
/** A reasoning tag as the contract states it. */
export type ReasoningTagOut = ReasoningStartEvent | ReasoningEndEvent
/** A merged, normalised event. */
export type Out = TextOut | CallOut | DiagnosticOut | ReasoningOut | ReasoningTagOut

/**
 * Normalises a raw event list: adjacent text events merged (empty ones
 * dropped), ids checked (unless `checkIds` is false, for a caller's
 * `generateId`) and made ones replaced by {@link ID}, diagnostic messages
 * checked and dropped. An id that is not a made one is the model's own,
 * written in the call's markup: it stays, so every chunking must give it
 * (whether it is the one the markup carries, written with JSON escapes or
 * not, is for the tests of call ids to say: the raw text holds it as written).
 */
export function normalise(events: readonly SieveEvent[], checkIds = true): Out[] {
  const out: Out[] = []
  const seen = new Set<string>()
  for (const event of events) {
    if (event.type === 'text') {
      expect(typeof event.text).toBe('string')
      if (event.text === '') continue
      const last = out[out.length - 1]
      if (last?.type === 'text') last.text += event.text
      else out.push({ type: 'text', text: event.text })
    } else if (event.type === 'tool-call') {
      const made = ID_PATTERN.test(event.id)
      if (checkIds) {
        expect(seen.has(event.id), `duplicate id ${event.id}`).toBe(false)
        seen.add(event.id)
      }
      // `arguments` keeps the model's number digits (`1.0`, past 2^53); `input` is what JSON.parse makes of it
      expect(JSON.parse(event.arguments), 'input is JSON.parse(arguments)').toEqual(event.input)
      expect(Object.prototype.toString.call(event.input)).toBe('[object Object]')
      out.push({
        type: 'tool-call',
        id: made || !checkIds ? ID : event.id,
        name: event.name,
        input: event.input,
        arguments: event.arguments,
        raw: event.raw,
        span: { start: event.span.start, end: event.span.end },
      })
    } else if (event.type === 'reasoning') {
      if (event.text === '') continue
      const last = out[out.length - 1]
      if (last?.type === 'reasoning') last.text += event.text
      else out.push({ type: 'reasoning', text: event.text })
    } else if (event.type === 'reasoning-start' || event.type === 'reasoning-end') {
      out.push({ ...event, span: { start: event.span.start, end: event.span.end } })
    } else {
      expect(event.type).toBe('diagnostic')
      if (event.type !== 'diagnostic') continue
      expect(typeof event.message === 'string' && event.message.length > 0, 'diagnostic message').toBe(true)
      out.push({ type: 'diagnostic', code: event.code, span: { start: event.span.start, end: event.span.end } })
    }
  }
  return out
}

/** Streams `chunks` through a fresh sieve, ends it, and returns the merged, normalised events. */
export function runSieve(input: string, chunks: readonly string[], opts: SieveOptions = {}): Out[] {
  expect(chunks.join(''), 'chunks rebuild the input').toBe(input)
  const sieve = createSieve(opts)
  const events: SieveEvent[] = []
  for (const chunk of chunks) events.push(...sieve.push(chunk))
  events.push(...sieve.end())
  return normalise(events, opts.generateId === undefined)
}

/** The benchmarks' seeded PRNG (STYLE 11: tests and benches share generators), so random splits are reproducible. */
export const prng: (seed: number) => () => number = mulberry32

/** A stable seed from the input text, so each case has its own random splits. */
export function seedOf(input: string): number {
  let h = 2166136261
  for (let i = 0; i < input.length; i++) h = Math.imul(h ^ input.charCodeAt(i), 16777619)
  return h >>> 0
}

import { randomSplit } from '../../bench/chunks.js'

export { randomSplit }

export interface Chunking {
  name: string
  chunks: string[]
}

/** Inputs up to this length get every split point; longer ones a sample around construct characters. */
export const EXHAUSTIVE_SPLIT_LIMIT = 400
const SPECIAL = new Set([...'<>＜＞/／|｜`~\n\r []!-"=DSML'])

function splitPoints(input: string): number[] {
  if (input.length <= EXHAUSTIVE_SPLIT_LIMIT) return Array.from({ length: input.length - 1 }, (_, i) => i + 1)
  const points = new Set<number>()
  for (let i = 0; i < input.length; i++) {
    if (!SPECIAL.has(input[i] ?? '')) continue
    for (let d = -1; d <= 2; d++) if (i + d > 0 && i + d < input.length) points.add(i + d)
  }
  for (let i = 1; i < input.length; i += 17) points.add(i)
  const sorted = [...points].sort((a, b) => a - b)
  const stride = Math.max(1, Math.ceil(sorted.length / 600))
  return sorted.filter((_, i) => i % stride === 0)
}

/**
 * The large chunk pushed after small ones: longer than the 1 KiB a capture
 * keeps a tag's text unlexed (`deferral.ts`), so it is read by the fast path
 * or the lexer with whatever the small chunks before it left held.
 */
export const LARGE_CHUNK = 1100
/** Where the large chunk starts: about this many offsets right after a construct character, plus the first and the middle. */
const LARGE_STARTS = 8
/** Characters after which a large chunk starts inside something: a quote's text, a tag's body, a value, CDATA. */
const OPENS = new Set([...'"\'>＞=[<＜|｜'])

/**
 * Offsets where {@link largeAfterSmall} starts its large chunk: after
 * construct characters, sampled evenly, and the three that begin the
 * longest stretches without one (a long value or attribute, which a large
 * chunk can then hold whole); the first and the middle.
 */
function largeStarts(input: string): number[] {
  const after: number[] = []
  for (let i = 0; i < input.length - 1; i++) if (OPENS.has(input[i] ?? '')) after.push(i + 1)
  const stride = Math.max(1, Math.ceil(after.length / LARGE_STARTS))
  const stretch = (k: number) => (after[k + 1] ?? input.length) - after[k]!
  const longest = after.map((_, k) => k).sort((a, b) => stretch(b) - stretch(a)).slice(0, 3).map((k) => after[k]!)
  const starts = new Set([1, Math.floor(input.length / 2), ...after.filter((_, i) => i % stride === 0), ...longest])
  return [...starts].filter((at) => at > 0 && at < input.length).sort((a, b) => a - b)
}

/**
 * Small chunks, then one large chunk from each of {@link largeStarts}, then
 * small chunks; and the same with all before the large chunk pushed as one
 * (small chunks leave a tag's text held, one chunk leaves nothing held). The
 * large chunk is {@link LARGE_CHUNK} long where the input allows it, else
 * three quarters of what is left, so small chunks follow it.
 */
function* largeAfterSmall(input: string, random: () => number): Generator<Chunking> {
  for (const at of largeStarts(input)) {
    const left = input.length - at
    const size = left > LARGE_CHUNK ? LARGE_CHUNK : Math.max(1, Math.ceil((left * 3) / 4))
    const large = input.slice(at, at + size)
    const after = randomSplit(input.slice(at + size), random)
    yield { name: `small chunks, ${size} at ${at}, small chunks`, chunks: [...randomSplit(input.slice(0, at), random), large, ...after] }
    yield { name: `one chunk, ${size} at ${at}, small chunks`, chunks: [input.slice(0, at), large, ...after] }
  }
}

/**
 * The named chunkings of `input`: whole, one unit at a time, every split
 * point into two chunks (sampled for inputs over {@link EXHAUSTIVE_SPLIT_LIMIT}),
 * `randomRuns` seeded random splits with sizes 1–12, and small chunks with
 * one large chunk among them at several offsets ({@link largeAfterSmall}).
 */
export function* chunkings(input: string, seed = seedOf(input), randomRuns = 4): Generator<Chunking> {
  yield { name: 'whole', chunks: [input] }
  if (input.length === 0) return
  yield { name: 'one unit at a time', chunks: [...Array(input.length).keys()].map((i) => input.charAt(i)) }
  for (const at of splitPoints(input)) yield { name: `split at ${at}`, chunks: [input.slice(0, at), input.slice(at)] }
  const random = prng(seed)
  for (let run = 0; run < randomRuns; run++) yield { name: `random #${run} (seed ${seed})`, chunks: randomSplit(input, random) }
  yield* largeAfterSmall(input, random)
}

/**
 * Conservation and span consistency of one run's events: text, reasoning,
 * reasoning tags and raws in order === input; each call's span is where its raw sits; each diagnostic
 * span lies inside the input, and (except capture-limit) outside every call.
 */
export function expectConservation(input: string, events: readonly Out[]): void {
  let rebuilt = ''
  const callSpans: Span[] = []
  for (const event of events) {
    if (event.type === 'text' || event.type === 'reasoning') rebuilt += event.text
    else if (event.type === 'reasoning-start' || event.type === 'reasoning-end') {
      expect(event.span).toEqual({ start: rebuilt.length, end: rebuilt.length + event.raw.length })
      rebuilt += event.raw
    } else if (event.type === 'tool-call') {
      expect(event.span, `span of ${event.name}`).toEqual({ start: rebuilt.length, end: rebuilt.length + event.raw.length })
      expect(input.slice(event.span.start, event.span.end)).toBe(event.raw)
      callSpans.push(event.span)
      rebuilt += event.raw
    }
  }
  expect(rebuilt, 'text events + raws rebuild the input').toBe(input)
  for (const event of events) {
    if (event.type !== 'diagnostic') continue
    const { start, end } = event.span
    expect(0 <= start && start <= end && end <= input.length, `diagnostic span ${start}..${end} in 0..${input.length}`).toBe(true)
    // A capture-limit span is the region captured when the limit hit; scanning resumes inside it, so a call may follow there.
    // A repaired CDATA's span is the section inside the call it repaired.
    if (event.code === 'capture-limit' || event.code === 'repaired-cdata') continue
    // a call's own problem (its id, its arguments) is about its markup: the call's span
    if (callSpans.some((c) => c.start === start && c.end === end)) continue
    for (const call of callSpans) {
      expect(end <= call.start || start >= call.end, `diagnostic span ${start}..${end} overlaps a call`).toBe(true)
    }
  }
}

/**
 * Runs `input` through the whole chunking matrix, checks every chunking gives
 * the merged events of the one-chunk run, and conservation. Returns the
 * one-chunk events.
 */
export function expectChunkInvariant(input: string, opts: SieveOptions = {}, seed = seedOf(input)): Out[] {
  const reference = runSieve(input, [input], opts)
  expectConservation(input, reference)
  for (const { name, chunks } of chunkings(input, seed)) {
    if (name === 'whole') continue
    const events = runSieve(input, chunks, opts)
    expect(events, `chunking "${name}" differs from one chunk`).toEqual(reference)
  }
  return reference
}

/** The calls, as `{ name, input }`. */
export function calls(events: readonly (Out | SieveEvent)[]): { name: string; input: Record<string, unknown> }[] {
  return events.flatMap((e) => (e.type === 'tool-call' ? [{ name: e.name, input: e.input }] : []))
}

/** All text, concatenated. */
export function textOf(events: readonly (Out | SieveEvent)[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('')
}

/** The diagnostic codes, in order. */
export function codes(events: readonly (Out | SieveEvent)[]): string[] {
  return events.flatMap((e) => (e.type === 'diagnostic' ? [e.code] : []))
}

/** The diagnostics, in order. */
export function diagnostics(events: readonly Out[]): DiagnosticOut[] {
  return events.filter((e): e is DiagnosticOut => e.type === 'diagnostic')
}

/** The calls with raw and span. */
export function callEvents(events: readonly Out[]): CallOut[] {
  return events.filter((e): e is CallOut => e.type === 'tool-call')
}

/**
 * A compact outline of the event order: text as a string, a call as
 * `{ call: name, input }`, a diagnostic as `{ diagnostic: code }`.
 */
export type OutlineItem = string | { call: string; input: Record<string, unknown> } | { diagnostic: string } | { reasoning: string } | { tag: string }
export function outline(events: readonly Out[]): OutlineItem[] {
  return events.map((e) =>
    e.type === 'text' ? e.text : e.type === 'tool-call' ? { call: e.name, input: e.input } : e.type === 'reasoning' ? { reasoning: e.text } : e.type === 'diagnostic' ? { diagnostic: e.code } : { tag: e.raw },
  )
}
