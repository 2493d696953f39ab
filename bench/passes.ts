/**
 * The runners and their timed passes: each runner streams one turn (chunked
 * up front, or sliced as it is pushed) and reports what it found; a pass streams many turns and keeps
 * per-turn times, the heap peak and how many turns came out exact.
 */
import { performance } from 'node:perf_hooks'
import type { SieveEvent, SieveOptions, SieveStats } from '../src/index.js'
import { PAIR_BLOCK } from './config.js'
import type { ManifestCall } from './generate.js'
import { toolsieve } from './lib.js'
import { gc, heapPeak, heapUsed } from './measure.js'
import { drainTimers } from './peers.js'
import type { Peer } from './peers.js'
import type { Turn } from './transcripts.js'

/** Timed from the compiled package, as users run it (see `bench/lib.ts`). */
const { createSieve } = toolsieve

let failures = 0

/** How many correctness failures were reported. */
export function failureCount(): number {
  return failures
}

/** Report a wrong answer: the bench exits 1 at the end. */
export function wrong(what: string): void {
  failures++
  console.log(`  *** WRONG: ${what}`)
}

/** Keeps the floor's work observable so it cannot be optimised away. */
let sink = 0

/** The floor's accumulated work (never 0 once it ran). */
export function floorSink(): number {
  return sink
}

// ---------------------------------------------------------------------------
// Runners: each streams one text and reports what it found.

export interface Found {
  calls: ManifestCall[]
  diagnostics: string[]
  /** Text characters plus raw characters of calls: equals the input length when nothing is lost. */
  chars: number
  stats?: SieveStats
}

let tick = 0

export function streamSieve(chunks: readonly string[], options?: number | SieveOptions): Found {
  const run = sieveRun(options)
  for (let i = 0; i < chunks.length; i++) {
    run.take(run.sieve.push(chunks[i]!))
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  return run.finish()
}

/**
 * `text` in chunks of `size`, each sliced just before it is pushed, as a
 * stream's chunks arrive: no array of every chunk exists. (Millions of
 * chunks made up front and kept alive for the run cost the collector most
 * in the runs that stream them once, the largest, and that cost is the
 * harness's, not the sieve's.)
 */
export function streamSieveSliced(text: string, size: number, captureLimit?: number): Found {
  const run = sieveRun(captureLimit)
  for (let i = 0; i < text.length; i += size) {
    run.take(run.sieve.push(text.slice(i, i + size)))
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  return run.finish()
}

/** One sieve and what it found, gathered by `take` as its events come. */
function sieveRun(options?: number | SieveOptions): { sieve: ReturnType<typeof createSieve>; take: (events: SieveEvent[]) => void; finish: () => Found } {
  const found: Found = { calls: [], diagnostics: [], chars: 0 }
  const take = (events: SieveEvent[]): void => {
    for (const e of events) {
      if (e.type === 'text') found.chars += e.text.length
      else if (e.type === 'tool-call') {
        found.calls.push({ name: e.name, input: e.input as Record<string, string> })
        found.chars += e.raw.length
      } else if (e.type === 'diagnostic' || e.type === 'error') found.diagnostics.push(e.code)
    }
  }
  const sieve = createSieve(options === undefined ? {} : typeof options === 'number' ? { captureLimit: options } : options)
  const finish = (): Found => {
    take(sieve.end())
    found.stats = sieve.stats()
    return found
  }
  return { sieve, take, finish }
}

export function streamFloor(chunks: readonly string[]): number {
  const parts: string[] = []
  let hits = 0
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!
    parts.push(chunk)
    if (chunk.indexOf('<') !== -1) hits++
    if (chunk.indexOf('＜') !== -1) hits++
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  return parts.join('').length + hits
}

export function streamPeer(peer: Peer, chunks: readonly string[]): Found {
  const parser = peer.create()
  for (let i = 0; i < chunks.length; i++) {
    parser.push(chunks[i]!)
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  parser.end()
  return { calls: parser.calls, diagnostics: [], chars: parser.textChars }
}

/** Same calls, by name and by input key and value (prototype-blind, key-order-blind). */
export function sameCalls(a: readonly ManifestCall[], b: readonly ManifestCall[], namesOnly = false): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x.name !== y.name) return false
    const kx = Object.keys(x.input).sort()
    const ky = Object.keys(y.input).sort()
    if (kx.join('\0') !== ky.join('\0')) return false
    if (namesOnly) continue
    for (const k of kx) {
      const vx: unknown = x.input[k]
      const vy: unknown = y.input[k]
      if (vx !== vy && JSON.stringify(vx) !== JSON.stringify(vy)) return false
    }
  }
  return true
}

// ---------------------------------------------------------------------------
// Passes over many turns: per-turn times, exact turns, heap peak.

export interface Pass {
  ms: number
  /** Per-turn milliseconds, in turn order. */
  times: Float64Array
  /** Turns streamed (a budgeted pass may stop early). */
  turns: number
  exact: number
  peakBytes: number
  baseBytes: number
}

/**
 * Start a pass. A `fresh` pass (the untimed warm-up) starts from a full gc, so
 * its heap peak means something. Timed passes never force a gc: right after
 * one, V8 runs measurably slower for a while (its young generation regrows and
 * sweeping catches up), which would land on whoever runs first.
 */
export function beginPass(fresh: boolean): number {
  if (fresh) gc()
  const base = heapUsed()
  heapPeak.reset()
  return base
}

export function sievePass(chunked: ReadonlyArray<readonly string[]>, turns: readonly Turn[], fresh = false): Pass {
  const baseBytes = beginPass(fresh)
  const times = new Float64Array(chunked.length)
  let ms = 0
  let exact = 0
  for (let i = 0; i < chunked.length; i++) {
    const t0 = performance.now()
    const found = streamSieve(chunked[i]!)
    const dt = performance.now() - t0
    times[i] = dt
    ms += dt
    heapPeak.sample()
    const turn = turns[i]!
    if (found.diagnostics.length === 0 && found.chars === turn.text.length && sameCalls(found.calls, turn.calls)) exact++
  }
  return { ms, times, turns: chunked.length, exact, peakBytes: heapPeak.value, baseBytes }
}

/** Repeated passes over the same turns as one: their mean time (per turn too), the fewest exact turns, the highest peak. */
export function meanPass(passes: readonly Pass[]): Pass {
  const n = passes.length
  const times = new Float64Array(passes[0]!.times.length)
  for (const p of passes) for (let i = 0; i < times.length; i++) times[i]! += p.times[i]! / n
  return {
    ms: passes.reduce((a, p) => a + p.ms, 0) / n,
    times,
    turns: passes[0]!.turns,
    exact: Math.min(...passes.map((p) => p.exact)),
    peakBytes: Math.max(...passes.map((p) => p.peakBytes)),
    baseBytes: passes[0]!.baseBytes,
  }
}

export function floorPass(chunked: ReadonlyArray<readonly string[]>, fresh = false): Pass {
  const baseBytes = beginPass(fresh)
  const times = new Float64Array(chunked.length)
  let ms = 0
  for (let i = 0; i < chunked.length; i++) {
    const t0 = performance.now()
    sink += streamFloor(chunked[i]!)
    const dt = performance.now() - t0
    times[i] = dt
    ms += dt
  }
  heapPeak.sample()
  return { ms, times, turns: chunked.length, exact: chunked.length, peakBytes: heapPeak.value, baseBytes }
}

export interface PairedPass extends Pass {
  /** toolsieve's time on the same turns, each streamed right before the peer's. */
  sieveMs: number
}

/**
 * A peer pass, paired: blocks of `block` turns go through toolsieve (its own
 * spelling) and then through the peer (the peer's format), back to back, so
 * both see the same machine load. Blocks, not single turns: a toolsieve turn
 * takes a fraction of a millisecond, and started right after several of the
 * peer's it runs with the caches that work left behind (about half speed);
 * over a block of turns both parsers run warm. The heap peak is the peer's.
 */
export async function peerPass(
  peer: Peer,
  chunked: ReadonlyArray<readonly string[]>,
  sieveChunked: ReadonlyArray<readonly string[]>,
  expected: ReadonlyArray<readonly ManifestCall[]>,
  budgetMs = Infinity,
  fresh = false,
  block = PAIR_BLOCK,
): Promise<PairedPass> {
  const baseBytes = beginPass(fresh)
  const times = new Float64Array(chunked.length)
  let ms = 0
  let sieveMs = 0
  let exact = 0
  let turns = 0
  let peakBytes = heapPeak.value
  for (let i = 0; i < chunked.length && ms < budgetMs; i += block) {
    const end = Math.min(i + block, chunked.length)
    const s0 = performance.now()
    for (let k = i; k < end; k++) streamSieve(sieveChunked[k]!)
    sieveMs += performance.now() - s0
    heapPeak.reset()
    for (let k = i; k < end; k++) {
      const t0 = performance.now()
      const found = streamPeer(peer, chunked[k]!)
      const dt = performance.now() - t0
      times[k] = dt
      ms += dt
      turns++
      if (sameCalls(found.calls, expected[k]!)) exact++
    }
    heapPeak.sample()
    if (heapPeak.value > peakBytes) peakBytes = heapPeak.value
  }
  const pass = { ms, sieveMs, times, turns, exact, peakBytes, baseBytes }
  await drainTimers()
  return pass
}
