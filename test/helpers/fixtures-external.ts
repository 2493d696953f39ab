/**
 * Shared by the tests over other people's DeepSeek fixtures
 * (`test/fixtures-external/`): the three chunkings, a run that collects
 * events without asserting (so one test can gather every failing record),
 * the reasoning cut, conservation, and a lossless JSON comparison that keeps
 * number tokens as written (`100.0` is not `100`, `9007199254740993` is not
 * `9007199254740992`).
 *
 * Every check returns a problem string (or `null`) instead of throwing, so
 * the caller can name the record or case it belongs to.
 */
import { readFileSync } from 'node:fs'
import { createSieve } from '../../src/index.js'
import type { DiagnosticEvent, ErrorEvent, SieveEvent, SieveOptions, ToolCallEvent } from '../../src/types.js'
import { prng, seedOf } from './chunking.js'
import { argumentsProblem } from './lossless-json.js'

// ---------------------------------------------------------------- chunkings

export type ChunkingName = 'whole' | 'code points' | 'random'
export const CHUNKINGS: readonly ChunkingName[] = ['whole', 'code points', 'random']

/**
 * `input` cut as the chunking says. `code points` is one code point per
 * chunk (`Array.from`, so a surrogate pair stays whole, as a real stream
 * delivers it); `random` is runs of 1–16 code points drawn from a PRNG seeded
 * by `seedKey` (the record or case id), so a failure replays exactly.
 */
export function chunkInput(input: string, chunking: ChunkingName, seedKey: string): string[] {
  if (chunking === 'whole') return [input]
  const points = Array.from(input)
  if (chunking === 'code points') return points
  const random = prng(seedOf(seedKey))
  const chunks: string[] = []
  for (let i = 0; i < points.length; ) {
    const size = 1 + Math.floor(random() * 16)
    chunks.push(points.slice(i, i + size).join(''))
    i += size
  }
  return chunks
}

// ---------------------------------------------------------------- running

export interface Run {
  events: SieveEvent[]
  /** The text events joined. */
  text: string
  /** The reasoning events joined. */
  reasoning: string
  calls: ToolCallEvent[]
  /** Diagnostic and error events, in order. */
  diagnostics: (DiagnosticEvent | ErrorEvent)[]
  /** Set when `createSieve`, `push` or `end` threw: the run is a failure. */
  threw?: string
}

/** Streams `chunks` through a fresh sieve and ends it, without asserting anything. */
export function runChunks(chunks: readonly string[], options: SieveOptions = {}): Run {
  const events: SieveEvent[] = []
  let threw: string | undefined
  try {
    const sieve = createSieve(options)
    for (const chunk of chunks) events.push(...sieve.push(chunk))
    events.push(...sieve.end())
  } catch (error) {
    threw = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  }
  const run: Run = {
    events,
    text: events.map((e) => (e.type === 'text' ? e.text : '')).join(''),
    reasoning: events.map((e) => (e.type === 'reasoning' ? e.text : '')).join(''),
    calls: events.filter((e): e is ToolCallEvent => e.type === 'tool-call'),
    diagnostics: events.filter((e): e is DiagnosticEvent | ErrorEvent => e.type === 'diagnostic' || e.type === 'error'),
  }
  if (threw !== undefined) run.threw = threw
  return run
}

/**
 * Conservation: the text and reasoning events, the reasoning tags and the
 * calls' `raw`s, in event order, are the input fed; and each call's `span` is
 * where its `raw` sits.
 */
export function conservationProblem(input: string, events: readonly SieveEvent[]): string | null {
  let rebuilt = ''
  for (const event of events) {
    if (event.type === 'text' || event.type === 'reasoning') rebuilt += event.text
    else if (event.type === 'reasoning-start' || event.type === 'reasoning-end') rebuilt += event.raw
    else if (event.type === 'tool-call') {
      const { start, end } = event.span
      if (start !== rebuilt.length || end !== start + event.raw.length) {
        return `call ${event.name}: span ${start}..${end}, but its raw sits at ${rebuilt.length}..${rebuilt.length + event.raw.length}`
      }
      rebuilt += event.raw
    }
  }
  if (rebuilt === input) return null
  let i = 0
  while (i < rebuilt.length && rebuilt[i] === input[i]) i++
  return `text + raws differ from the input at ${i}: ${show(rebuilt.slice(i, i + 40))} vs ${show(input.slice(i, i + 40))} (lengths ${rebuilt.length} vs ${input.length})`
}

/** Every call of a run has its own id (the sources ask for distinct ids for calls of the same tool). */
function idsProblem(calls: readonly ToolCallEvent[]): string | null {
  const ids = calls.map((c) => c.id)
  return new Set(ids).size === ids.length ? null : `call ids not distinct: ${ids.join(', ')}`
}

/** A short, escaped rendering of a string or value for failure messages. */
export function show(value: unknown, max = 120): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)
  return s.length > max ? `${s.slice(0, max)}…` : s
}

// ---------------------------------------------------------------- input comparison

/**
 * Deep equality of decoded inputs: primitives by `Object.is` (so `-0` is not
 * `0`), arrays in order, objects by their own keys in any order. An integer
 * past 2^53 compares as the double both sides round it to.
 */
export function inputProblem(actual: unknown, expected: unknown, path = ''): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || '/'}: ${show(actual)} where an array ${show(expected)} was expected`
    if (actual.length !== expected.length) return `${path || '/'}: ${actual.length} items, expected ${expected.length}: ${show(actual)} vs ${show(expected)}`
    for (let i = 0; i < expected.length; i++) {
      const p = inputProblem(actual[i], expected[i], `${path}/${i}`)
      if (p !== null) return p
    }
    return null
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path || '/'}: ${show(actual)} where an object was expected`
    const a = actual as Record<string, unknown>
    const e = expected as Record<string, unknown>
    const missing = Object.keys(e).filter((k) => !Object.prototype.hasOwnProperty.call(a, k))
    const extra = Object.keys(a).filter((k) => !Object.prototype.hasOwnProperty.call(e, k))
    if (missing.length > 0 || extra.length > 0) return `${path || '/'}: keys missing ${show(missing)}, extra ${show(extra)}`
    for (const k of Object.keys(e)) {
      const p = inputProblem(a[k], e[k], `${path}/${k}`)
      if (p !== null) return p
    }
    return null
  }
  return Object.is(actual, expected) ? null : `${path || '/'}: ${show(actual)}, expected ${show(expected)}`
}

// ---------------------------------------------------------------- DeepSeek encoder records

/** One record of `test/fixtures/deepseek-encoder/*.jsonl` (see the PROVENANCE.md beside them). */
export interface EncoderRecord {
  id: string
  version: 'v32' | 'v4'
  /** `thinking`: the prompt ended with `<think>`, so `text` starts inside the reasoning. */
  thinking_mode: 'thinking' | 'chat'
  prompt_tail: string
  /** Exactly what the model generates after `prompt_tail`. */
  text: string
  content: string
  reasoning: string | null
  calls: { name: string; arguments: Record<string, unknown>; arguments_json: string }[]
  /** Whether the encoder's own parser read the record back as `content`, `reasoning` and `calls`. */
  official_agrees: boolean
  edge_classes: string[]
  features: string[]
}

/** Reads a JSONL file of encoder records. */
export function readRecords(path: string): EncoderRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as EncoderRecord)
}

/** What the sieve is fed for a record: its `text`, exactly as the model generates it after the prompt. */
export function encoderInput(record: EncoderRecord): string {
  return record.text
}

/**
 * The options a record is read with: in thinking mode the prompt ends with
 * `<think>`, so the text starts inside the reasoning (`startInReasoning`).
 */
export function encoderOptions(record: EncoderRecord): SieveOptions {
  return { startInReasoning: record.thinking_mode === 'thinking' }
}

/**
 * Every problem with one record under one chunking (empty: it passes).
 *
 * - the calls in order: same name, `input` deep-equal to the record's
 *   `arguments` (read by `JSON.parse`, so an integer past 2^53 is the nearest
 *   double on both sides), `arguments` equal to `arguments_json` with every
 *   number token as written (`100.0` stays `100.0`);
 * - no diagnostic or error event; every call its own id;
 * - text: the encoders write the content, then `\n\n`, then the block, and
 *   nothing after it; the blank line is not markup, so the text events joined
 *   are exactly `content + "\n\n"` (no trimming on either side);
 * - conservation: text events and raws, in order, are the input fed.
 */
export function encoderProblems(record: EncoderRecord, chunking: ChunkingName): string[] {
  const input = encoderInput(record)
  const run = runChunks(chunkInput(input, chunking, record.id), encoderOptions(record))
  const problems: string[] = []
  if (run.threw !== undefined) problems.push(`threw ${run.threw}`)
  if (run.diagnostics.length > 0) problems.push(`diagnostics ${run.diagnostics.map((d) => d.code).join(', ')}`)
  const ids = idsProblem(run.calls)
  if (ids !== null) problems.push(ids)
  if (run.calls.length !== record.calls.length) {
    problems.push(`${run.calls.length} calls (${run.calls.map((c) => c.name).join(', ')}), expected ${record.calls.length}`)
  } else {
    record.calls.forEach((expected, i) => {
      const call = run.calls[i]!
      if (call.name !== expected.name) problems.push(`call ${i}: name ${show(call.name)}, expected ${show(expected.name)}`)
      const p = inputProblem(call.input, expected.arguments) ?? argumentsProblem(call.arguments, expected.arguments_json)
      if (p !== null) problems.push(`call ${i} (${expected.name}): ${p}`)
    })
  }
  const text = record.content + '\n\n'
  if (run.text !== text) problems.push(`text ${show(run.text)}, expected ${show(text)}`)
  if (run.reasoning !== (record.reasoning ?? '')) problems.push(`reasoning ${show(run.reasoning)}, expected ${show(record.reasoning)}`)
  const lost = conservationProblem(input, run.events)
  if (lost !== null) problems.push(lost)
  return problems
}

/**
 * For a record the format cannot carry (a value holding the exact closer
 * `</｜DSML｜parameter>`): every problem with failing closed under one
 * chunking: no call, the input back as text, one `malformed-block`.
 */
export function failClosedProblems(record: EncoderRecord, chunking: ChunkingName): string[] {
  const input = encoderInput(record)
  const run = runChunks(chunkInput(input, chunking, record.id), encoderOptions(record))
  const problems: string[] = []
  if (run.threw !== undefined) problems.push(`threw ${run.threw}`)
  if (run.calls.length > 0) problems.push(`${run.calls.length} calls (${run.calls.map((c) => c.name).join(', ')}), expected none`)
  const codes = run.diagnostics.map((d) => d.code)
  if (codes.join() !== 'malformed-block') problems.push(`diagnostics [${codes.join(', ')}], expected [malformed-block]`)
  // in thinking mode the reasoning comes first and its closing tag is neither text nor reasoning
  const given = record.thinking_mode === 'thinking' ? run.reasoning + run.text : run.text
  if (given !== (record.thinking_mode === 'thinking' ? input.replace('</think>', '') : input)) problems.push(`text ${show(run.text)}, expected the input`)
  const lost = conservationProblem(input, run.events)
  if (lost !== null) problems.push(lost)
  return problems
}

// ---------------------------------------------------------------- other projects' cases

/** One case of `test/fixtures/external/cases.json` (shape in the SOURCES.md beside it). */
export interface ExternalCase {
  id: string
  source: string
  origin: { repo: string; path: string; commit: string; test?: string }
  chunks: string[]
  expect: {
    calls: { name: string; input: Record<string, unknown>; inputJSON: string }[]
    text: string | null
    reasoning: string | null
    textIncludes?: string[]
    textExcludes?: string[]
    extraChunkings?: string[][]
  }
  note: string
  tools?: unknown[]
}

/** What a case is checked against: the source's expectation, or ours where a decision overrides it. */
export interface Expected {
  calls: { name: string; input: Record<string, unknown>; inputJSON: string }[]
  /** The text events joined, exactly; `null`: not asserted (the source asserts none). */
  text: string | null
  textIncludes: string[]
  textExcludes: string[]
  /** The codes of the diagnostic events, exactly and in order. */
  diagnostics: string[]
}

export type ExternalChunking = 'recorded' | ChunkingName
export const EXTERNAL_CHUNKINGS: readonly ExternalChunking[] = ['recorded', ...CHUNKINGS]

export function readCases(path: string): ExternalCase[] {
  return JSON.parse(readFileSync(path, 'utf8')) as ExternalCase[]
}

/**
 * The chunk lists a case is fed under a chunking, labelled. `recorded` is
 * the source's own chunks (a recorded stream's `delta.content`s, or a test's
 * split) plus any `extraChunkings`. A stream that opens with `<think>` is fed
 * whole: its reasoning is the sieve's to split off.
 */
export function externalFeeds(c: ExternalCase, chunking: ExternalChunking): { label: string; chunks: string[] }[] {
  const recorded = c.chunks
  if (chunking !== 'recorded') return [{ label: chunking, chunks: chunkInput(recorded.join(''), chunking, c.id) }]
  return [
    { label: 'recorded', chunks: recorded },
    ...(c.expect.extraChunkings ?? []).map((chunks, i) => ({ label: `extra chunking #${i}`, chunks })),
  ]
}

/** Every problem with one case under one chunking, against `expected` (empty: it passes). */
export function externalProblems(c: ExternalCase, expected: Expected, chunking: ExternalChunking, options: SieveOptions): string[] {
  const problems: string[] = []
  for (const { label, chunks } of externalFeeds(c, chunking)) {
    const input = chunks.join('')
    const run = runChunks(chunks, options)
    const say = (p: string): void => void problems.push(chunking === 'recorded' ? `${label}: ${p}` : p)
    if (run.threw !== undefined) say(`threw ${run.threw}`)
    const codes = run.diagnostics.map((d) => d.code)
    if (codes.join() !== expected.diagnostics.join()) say(`diagnostics [${codes.join(', ')}], expected [${expected.diagnostics.join(', ')}]`)
    const ids = idsProblem(run.calls)
    if (ids !== null) say(ids)
    if (run.calls.length !== expected.calls.length) {
      say(`${run.calls.length} calls ${show(run.calls.map((x) => [x.name, x.arguments]))}, expected ${expected.calls.length}`)
    } else {
      expected.calls.forEach((e, i) => {
        const call = run.calls[i]!
        if (call.name !== e.name) say(`call ${i}: name ${show(call.name)}, expected ${show(e.name)}`)
        const p = inputProblem(call.input, e.input) ?? argumentsProblem(call.arguments, e.inputJSON)
        if (p !== null) say(`call ${i} (${e.name}): ${p}`)
      })
    }
    if (expected.text !== null && run.text !== expected.text) say(`text ${show(run.text)}, expected ${show(expected.text)}`)
    if (c.expect.reasoning !== null && run.reasoning !== c.expect.reasoning) say(`reasoning ${show(run.reasoning)}, expected ${show(c.expect.reasoning)}`)
    for (const s of expected.textIncludes) if (!run.text.includes(s)) say(`text ${show(run.text)} lacks ${show(s)}`)
    for (const s of expected.textExcludes) if (run.text.includes(s)) say(`text ${show(run.text)} holds ${show(s)}`)
    const lost = conservationProblem(input, run.events)
    if (lost !== null) say(lost)
  }
  return problems
}
