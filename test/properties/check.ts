/**
 * The stream properties, as plain functions that throw an `AssertionError`
 * (no vitest import), so `test/properties/*.test.ts` and `scripts/fuzz.ts`
 * check exactly the same things:
 *
 * - conservation: text events + `raw` of calls, in order, rebuild the input;
 *   every span sits where its text does;
 * - chunk invariance: any chunking gives the events of one chunk (adjacent
 *   text merged);
 * - checkpoint: stopping anywhere, `JSON.stringify(checkpoint())` and
 *   resuming in a new sieve gives the events of never stopping;
 * - no throw and no `internal-error` diagnostic, on any string.
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { createSieve } from '../../src/index.js'
import { sieveWith, type SieveInternals } from '../../src/sieve/create.js'
import type { SieveCheckpoint, SieveEvent, SieveOptions } from '../../src/types.js'
import { arbitraryText, chunkBy, chunkSizes, document } from './generator.js'
import { heldParagraphs } from './paragraphs.js'

/** An event with adjacent text merged, the id replaced and the diagnostic message dropped. */
export type Merged =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; name: string; input: Record<string, unknown>; arguments: string; raw: string; span: { start: number; end: number } }
  | { type: 'diagnostic'; code: string; span: { start: number; end: number } }
  | { type: 'reasoning'; text: string }
  | { type: 'reasoning-start'; raw: string; span: { start: number; end: number } }
  | { type: 'reasoning-end'; raw: string; span: { start: number; end: number } }

export function merge(events: readonly SieveEvent[]): Merged[] {
  const out: Merged[] = []
  for (const e of events) {
    if (e.type === 'text') {
      if (e.text === '') continue
      const last = out[out.length - 1]
      if (last?.type === 'text') last.text += e.text
      else out.push({ type: 'text', text: e.text })
    } else if (e.type === 'tool-call') {
      out.push({ type: 'tool-call', name: e.name, input: e.input, arguments: e.arguments, raw: e.raw, span: { ...e.span } })
    } else if (e.type === 'reasoning') {
      const last = out[out.length - 1]
      if (last?.type === 'reasoning') last.text += e.text
      else if (e.text !== '') out.push({ type: 'reasoning', text: e.text })
    } else if (e.type === 'reasoning-start' || e.type === 'reasoning-end') {
      out.push({ ...e, span: { ...e.span } })
    } else if (e.type === 'diagnostic' || e.type === 'error') {
      assert.ok(e.message.length > 0, 'a diagnostic has a message')
      out.push({ type: 'diagnostic', code: e.code, span: { ...e.span } })
    }
  }
  return out
}

/** Pushes `chunks` through one sieve; a throw from `push`/`end` fails the property. `internals` as tests may set them. */
export function run(chunks: readonly string[], opts: SieveOptions = {}, internals: SieveInternals = {}): Merged[] {
  const sieve = sieveWith(opts, internals)
  const events: SieveEvent[] = []
  for (const chunk of chunks) events.push(...sieve.push(chunk))
  events.push(...sieve.end())
  return merge(events)
}

/** Like {@link run}, but after each chunk index in `stops` the sieve is checkpointed through JSON and replaced. */
export function runResumed(chunks: readonly string[], stops: ReadonlySet<number>, opts: SieveOptions = {}): Merged[] {
  let sieve = createSieve(opts)
  const events: SieveEvent[] = []
  chunks.forEach((chunk, i) => {
    if (stops.has(i)) {
      const json = JSON.stringify(sieve.checkpoint())
      sieve = createSieve({ ...opts, resume: JSON.parse(json) as SieveCheckpoint })
    }
    events.push(...sieve.push(chunk))
  })
  if (stops.has(chunks.length)) sieve = createSieve({ ...opts, resume: JSON.parse(JSON.stringify(sieve.checkpoint())) as SieveCheckpoint })
  events.push(...sieve.end())
  return merge(events)
}

/** Conservation and span consistency of one run; no internal error. */
export function checkConservation(input: string, events: readonly Merged[]): void {
  let rebuilt = ''
  for (const e of events) {
    if (e.type === 'text' || e.type === 'reasoning') rebuilt += e.text
    else if (e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end') {
      assert.deepEqual(e.span, { start: rebuilt.length, end: rebuilt.length + e.raw.length }, `span of ${e.type}`)
      rebuilt += e.raw
    } else {
      assert.notEqual(e.code, 'internal-error', 'the sieve hit an internal error')
      assert.ok(0 <= e.span.start && e.span.start <= e.span.end && e.span.end <= input.length, `diagnostic span ${e.span.start}..${e.span.end} inside the input`)
    }
  }
  assert.equal(rebuilt, input, 'text, reasoning, its tags and raws rebuild the input')
}

/** One fuzz stream: an input, how to chunk it, where to split it, where to checkpoint. */
export interface StreamCase {
  input: string
  sizes: number[]
  /** A split point (mod input length + 1). */
  at: number
  /** Chunk indices (mod chunk count + 1) after which to checkpoint and resume. */
  stops: number[]
  captureLimit?: number
}

/** Every property on one stream; throws on the first that fails. */
export function checkStream(c: StreamCase): void {
  const opts: SieveOptions = c.captureLimit === undefined ? {} : { captureLimit: c.captureLimit }
  const reference = run([c.input], opts)
  checkConservation(c.input, reference)
  const chunks = chunkBy(c.input, c.sizes)
  assert.deepEqual(run(chunks, opts), reference, 'random chunking differs from one chunk')
  const at = c.at % (c.input.length + 1)
  assert.deepEqual(run([c.input.slice(0, at), c.input.slice(at)], opts), reference, `split at ${at} differs from one chunk`)
  const windowSize = 1 + (c.at % 40)
  assert.deepEqual(run([c.input], opts, { windowSize }), reference, `lexer windows of ${windowSize} differ from the default`)
  if (c.input.length <= 200) assert.deepEqual(run(Array.from({ length: c.input.length }, (_, i) => c.input.charAt(i)), opts), reference, 'one UTF-16 unit at a time differs from one chunk')
  const stops = new Set(c.stops.map((s) => s % (chunks.length + 1)))
  assert.deepEqual(runResumed(chunks, stops, opts), reference, `resuming from checkpoints after chunks [${[...stops].sort((a, b) => a - b)}] differs`)
}

const stops = fc.array(fc.nat(), { minLength: 1, maxLength: 4 })
/** Small capture limits make captures and holds hit the limit mid-document. */
const limit = (small: boolean) => (small ? fc.option(fc.constantFrom(64, 200), { nil: undefined, freq: 4 }) : fc.constant(undefined))

/** Streams of generated documents. */
export const documentStream = (smallLimits = true): fc.Arbitrary<StreamCase> =>
  fc.record({ input: document(), sizes: chunkSizes, at: fc.nat(), stops, captureLimit: limit(smallLimits) })

/** Streams of arbitrary strings (lone surrogates, NUL, astral characters, construct characters). */
export const arbitraryStream = (smallLimits = true): fc.Arbitrary<StreamCase> =>
  fc.record({ input: arbitraryText, sizes: chunkSizes, at: fc.nat(), stops, captureLimit: limit(smallLimits) })

/** Streams of paragraphs that hold and halt again and again (`paragraphs.ts`). */
export const paragraphStream = (smallLimits = true): fc.Arbitrary<StreamCase> =>
  fc.record({ input: heldParagraphs, sizes: chunkSizes, at: fc.nat(), stops, captureLimit: limit(smallLimits) })

/** What `npm run fuzz` runs: documents three times in five, held paragraphs and arbitrary strings once each. */
export const fuzzStream = (smallLimits = true): fc.Arbitrary<StreamCase> =>
  fc.oneof({ arbitrary: documentStream(smallLimits), weight: 3 }, { arbitrary: paragraphStream(smallLimits), weight: 1 }, { arbitrary: arbitraryStream(smallLimits), weight: 1 })

export interface FuzzOptions {
  streams: number
  seed: number
  /** Stop early after this many milliseconds (0: no limit). */
  timeLimitMs?: number
  /** Also stream with capture limits of 64 and 200 (default true). */
  smallLimits?: boolean
}

export interface FuzzResult {
  streams: number
  failed: boolean
  /** fast-check's report: the shrunk counterexample, the seed and path to replay it. */
  report: string | null
}

/** What a fuzz run found: how many cases ran, and fast-check's report of a failure (the shrunk counterexample, the seed and path to replay it). */
export interface PropertyRun {
  runs: number
  failed: boolean
  report: string | null
}

/** Checks `check` on `runs` cases of `cases` from `seed` (or until `timeLimitMs`, when given); shrinks a failure. */
export function fuzzProperty<T>(cases: fc.Arbitrary<T>, check: (c: T) => void, o: { runs: number; seed: number; timeLimitMs?: number }): PropertyRun {
  const details = fc.check(fc.property(cases, check), {
    numRuns: o.runs,
    seed: o.seed,
    ...(o.timeLimitMs ? { interruptAfterTimeLimit: o.timeLimitMs, markInterruptAsFailure: false } : {}),
  })
  if (!details.failed) return { runs: details.numRuns, failed: false, report: null }
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
  return { runs: details.numRuns, failed: true, report: `${fc.defaultReportMessage(details) ?? 'failed'}\n\n${error}` }
}

/** Runs {@link checkStream} on `streams` random streams from `seed`; shrinks a failure. */
export function fuzz(o: FuzzOptions): FuzzResult {
  const { runs, failed, report } = fuzzProperty(fuzzStream(o.smallLimits !== false), checkStream, { runs: o.streams, seed: o.seed, timeLimitMs: o.timeLimitMs })
  return { streams: runs, failed, report }
}
