/**
 * The benchmark: `npm run bench` (about 5 minutes on 2 cores), or
 * `npm run bench -- --quick` (about 1.5 minutes). Flags: `--help`.
 *
 * 1. Transcript: seeded assistant turns (`bench/transcripts.ts`, default
 *    20 MB) streamed turn by turn, one fresh parser per turn, in four
 *    chunkings (token-sized 1–12 chars with mean ≈ 4, 16 chars, 4096 chars,
 *    whole turn), through toolsieve, a copy-through floor (collect the chunks,
 *    `indexOf` for `<` and `＜`, join once) and the peer `@ai-sdk-tool/parser`
 *    (hermes and morph-XML protocols, same turns re-encoded in their formats;
 *    it has no DSML and no Markdown guard, see `bench/peers.ts`). One process,
 *    interleaved rounds, median of ≥ 3 after a warm-up pass. Every runner's
 *    answer is checked against the manifest (turns exact / total).
 * 2. Markdown guard: the same turns with fenced examples in each peer's own
 *    format, to count the calls a parser without a guard invents.
 * 3. Scaling: one parameter of 64 KB … 4 MB in 4-char chunks; time ratio per
 *    doubling (2 is linear, 4 quadratic). The peers over 8 KB … until a run
 *    takes more than half the peer budget (2 s).
 * 4. Adversarial inputs (`bench/adversarial.ts`): MB/s beside the ordinary
 *    transcript's, with the sieve's own counters.
 * 5. Heap: a 100 MB stream through one sieve; heap at start, peak and end.
 *
 * Results go to `bench/results/latest.json`, `latest.md` (the tables as
 * Markdown) and `chart.svg` (full runs, or any run given `--out DIR`).
 * Exits 1 if toolsieve gets any input wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { toolsieve } from './lib.js'
import type { SieveEvent, SieveStats } from '../src/index.js'
import { ADVERSARIAL } from './adversarial.js'
import type { Adversarial } from './adversarial.js'
import { chartFromResults } from './chart.js'
import type { ResultsForChart } from './chart.js'
import { CANONICAL, fixedChunks, generateParameterStream, tokenChunks } from './generate.js'
import type { ManifestCall } from './generate.js'
import { MB, bytesOf, fmt, gc, geoMean, heapPeak, heapUsed, machine, markdownTable, median, sig, table } from './measure.js'
import { PEERS, drainTimers } from './peers.js'
import type { Peer } from './peers.js'
import { generateTurns, renderTurn } from './transcripts.js'
import type { Turn } from './transcripts.js'

/** Timed from the compiled package, as users run it (see `bench/lib.ts`). */
const { createSieve } = toolsieve

// ---------------------------------------------------------------------------
// Flags

const HELP = `npm run bench -- [flags]
  --quick              small sizes for a fast look (2 MB transcript, scaling to 1 MB, 10 MB heap run)
  --mb N               transcript size in MB (default 20; quick 2)
  --rounds N           timed rounds after the warm-up, median reported (default 3)
  --seed N             generator seed (default 20240601)
  --only LIST          sections to run: transcript,guard,scaling,adversarial,heap (default all)
  --no-peers           skip @ai-sdk-tool/parser
  --peer-mb N          most MB of turns a peer streams per chunking (default 2; quick 0.5)
  --peer-budget S      a peer's warm-up pass stops after S seconds; rounds reuse its turns (default 4; quick 1)
  --peer-turn-kb N     peers skip turns larger than N KB (default 32): their time grows with the square of a call's length
  --scale-max-kb N     largest parameter in the scaling table (default 4096; quick 1024)
  --adv-scale X        size factor of the adversarial inputs (default 1; quick 0.25)
  --heap-mb N          size of the heap-check stream (default 100; quick 10)
  --out DIR            write latest.json, latest.md, chart.svg to DIR (default bench/results on full runs; quick runs write nothing unless given)`

const { values: flags } = parseArgs({
  options: {
    help: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    mb: { type: 'string' },
    rounds: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'no-peers': { type: 'boolean', default: false },
    'peer-mb': { type: 'string' },
    'peer-budget': { type: 'string' },
    'peer-turn-kb': { type: 'string' },
    'scale-max-kb': { type: 'string' },
    'adv-scale': { type: 'string' },
    'heap-mb': { type: 'string' },
    out: { type: 'string' },
  },
})
if (flags.help) {
  console.log(HELP)
  process.exit(0)
}

function num(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} wants a positive number, got ${value}`)
    process.exit(2)
  }
  return n
}

const quick = flags.quick
const config = {
  quick,
  mb: num(flags.mb, quick ? 2 : 20, 'mb'),
  rounds: Math.round(num(flags.rounds, 3, 'rounds')),
  seed: Math.round(num(flags.seed, 20240601, 'seed')),
  peers: !flags['no-peers'],
  peerMb: num(flags['peer-mb'], quick ? 0.5 : 2, 'peer-mb'),
  peerBudgetS: num(flags['peer-budget'], quick ? 1 : 4, 'peer-budget'),
  peerTurnKb: num(flags['peer-turn-kb'], 32, 'peer-turn-kb'),
  scaleMaxKb: num(flags['scale-max-kb'], quick ? 1024 : 4096, 'scale-max-kb'),
  advScale: num(flags['adv-scale'], quick ? 0.25 : 1, 'adv-scale'),
  heapMb: num(flags['heap-mb'], quick ? 10 : 100, 'heap-mb'),
}
const SECTIONS = ['transcript', 'guard', 'scaling', 'adversarial', 'heap'] as const
type Section = (typeof SECTIONS)[number]
const only = new Set((flags.only ?? SECTIONS.join(',')).split(',').map((s) => s.trim()))
for (const s of only) {
  if (!(SECTIONS as readonly string[]).includes(s)) {
    console.error(`--only: unknown section ${s} (know ${SECTIONS.join(', ')})`)
    process.exit(2)
  }
}
const runs = (s: Section): boolean => only.has(s)
const outDir = flags.out ?? (quick ? undefined : 'bench/results')

/** The issue's targets. */
const TARGETS = {
  floorShare: 0.25,
  peerSpeedup: 20,
  doubling: 2.2,
  adversarialSlowdown: 5,
}

/** Warm-up before timing: passes repeat until this much time went by. */
const WARM_UP_MS = 2000

/** Turns per pairing block in the peer passes (see `peerPass`). */
const PAIR_BLOCK = 64

let failures = 0
function wrong(what: string): void {
  failures++
  console.log(`  *** WRONG: ${what}`)
}

/** Keeps the floor's work observable so it cannot be optimised away. */
let sink = 0

// ---------------------------------------------------------------------------
// Runners: each streams one text (already chunked) and reports what it found.

interface Found {
  calls: ManifestCall[]
  diagnostics: string[]
  /** Text characters plus raw characters of calls: equals the input length when nothing is lost. */
  chars: number
  stats?: SieveStats
}

let tick = 0

function streamSieve(chunks: readonly string[], captureLimit?: number): Found {
  const found: Found = { calls: [], diagnostics: [], chars: 0 }
  const take = (events: SieveEvent[]): void => {
    for (const e of events) {
      if (e.type === 'text') found.chars += e.text.length
      else if (e.type === 'tool-call') {
        found.calls.push({ name: e.name, input: e.input as Record<string, string> })
        found.chars += e.raw.length
      } else found.diagnostics.push(e.code)
    }
  }
  const sieve = createSieve(captureLimit === undefined ? {} : { captureLimit })
  for (let i = 0; i < chunks.length; i++) {
    take(sieve.push(chunks[i]!))
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  take(sieve.end())
  found.stats = sieve.stats()
  return found
}

function streamFloor(chunks: readonly string[]): number {
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

function streamPeer(peer: Peer, chunks: readonly string[]): Found {
  const parser = peer.create()
  for (let i = 0; i < chunks.length; i++) {
    parser.push(chunks[i]!)
    if ((++tick & 4095) === 0) heapPeak.sample()
  }
  parser.end()
  return { calls: parser.calls, diagnostics: [], chars: parser.textChars }
}

/** Same calls, by name and by input key and value (prototype-blind, key-order-blind). */
function sameCalls(a: readonly ManifestCall[], b: readonly ManifestCall[], namesOnly = false): boolean {
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

interface Pass {
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
function beginPass(fresh: boolean): number {
  if (fresh) gc()
  const base = heapUsed()
  heapPeak.reset()
  return base
}

function sievePass(chunked: ReadonlyArray<readonly string[]>, turns: readonly Turn[], fresh = false): Pass {
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

function floorPass(chunked: ReadonlyArray<readonly string[]>, fresh = false): Pass {
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

interface PairedPass extends Pass {
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
async function peerPass(
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

// ---------------------------------------------------------------------------
// Results

interface RunnerResult {
  id: string
  label: string
  turns: number
  bytes: number
  roundsMs: number[]
  mbps: number
  bestMbps: number
  peakHeapMB: number
  exact: number | null
  total: number | null
}

interface PeerComparison {
  peer: string
  turns: number
  /** toolsieve's median time on exactly the peer's turns, paired with the peer block by block. */
  sieveMs: number
  peerMs: number
  /** Median over rounds of the peer's time over toolsieve's on the same turns, paired by blocks of turns. */
  speedup: number
  sieveMbps: number
  /**
   * One pass pairing single turns (toolsieve, then the peer, per turn): each toolsieve turn then starts
   * after several milliseconds of the peer's work, with the caches that work left behind.
   */
  paired: { sieveMs: number; speedup: number; sieveMbps: number }
}

interface ChunkingResult {
  id: string
  label: string
  chunks: number
  runners: RunnerResult[]
  floorShare: number
  peers: PeerComparison[]
}

const results: Record<string, unknown> = {}
const markdown: string[] = []

/** `passes` are the timed rounds; `warm` the fresh warm-up pass the heap peak comes from. */
function runnerResult(id: string, label: string, bytes: number, passes: readonly Pass[], warm: Pass, checked: boolean): RunnerResult {
  const roundsMs = passes.map((p) => p.ms)
  const first = passes[0]!
  const exact = checked ? Math.min(warm.exact, ...passes.map((p) => p.exact)) : null
  return {
    id,
    label,
    turns: first.turns,
    bytes,
    roundsMs,
    mbps: bytes / MB / (median(roundsMs) / 1000),
    bestMbps: bytes / MB / (Math.min(...roundsMs) / 1000),
    peakHeapMB: (warm.peakBytes - warm.baseBytes) / MB,
    exact,
    total: checked ? first.turns : null,
  }
}

// ---------------------------------------------------------------------------
// 1. Transcript

interface Chunking {
  id: string
  label: string
  split(text: string, seed: number): string[]
}

const CHUNKINGS: readonly Chunking[] = [
  { id: 'token', label: 'token-sized (1–12, mean ≈ 4)', split: (t, s) => tokenChunks(t, s) },
  { id: '16', label: '16 chars', split: (t) => fixedChunks(t, 16) },
  { id: '4096', label: '4096 chars', split: (t) => fixedChunks(t, 4096) },
  { id: 'whole', label: 'whole turn', split: (t) => [t] },
]

const machineInfo = machine()
const loadAtStart = loadavg()[0]!
console.log(`toolsieve bench  ${machineInfo.date}  (load average ${fmt(loadAtStart, 2)} at start)`)
console.log(`node ${machineInfo.node}  ${machineInfo.cpus} cores (nproc)  ${machineInfo.cpu}  ${machineInfo.platform}  commit ${machineInfo.commit}`)
console.log('toolsieve is timed from its compiled package (dist/), as users import it; the peers from theirs')
console.log(
  `flags: ${quick ? '--quick ' : ''}--mb ${config.mb} --rounds ${config.rounds} --seed ${config.seed} ` +
    `--peer-mb ${config.peerMb} --peer-budget ${config.peerBudgetS} --peer-turn-kb ${config.peerTurnKb} ` +
    `--scale-max-kb ${config.scaleMaxKb} --adv-scale ${config.advScale} --heap-mb ${config.heapMb}` +
    `${config.peers ? '' : ' --no-peers'}`,
)
results.machine = machineInfo
results.config = config
results.targets = TARGETS
if (config.rounds < 3) console.log(`note: ${config.rounds} round(s); the issue asks for the median of at least 3`)

const turns = runs('transcript') || runs('guard') ? generateTurns({ seed: config.seed, size: config.mb * MB }) : []
const turnBytes = turns.map((t) => bytesOf(t.text))
const transcriptBytes = turnBytes.reduce((a, b) => a + b, 0)
const transcriptCalls = turns.reduce((n, t) => n + t.calls.length, 0)

/** Reference MB/s of the ordinary transcript, by chunking, for the adversarial table. */
const ordinary: Record<string, number> = {}

if (runs('transcript')) await (async () => {
  console.log('')
  console.log(`## 1. Transcript: ${turns.length} assistant turns, ${fmt(transcriptBytes / MB, 2)} MB, ${transcriptCalls} calls`)
  console.log('One fresh parser per turn. MB/s is each runner\'s own input (UTF-8) over the median of')
  console.log(`${config.rounds} interleaved rounds after warm-up passes. Exact: the turn's calls (names and inputs) match the manifest,`)
  console.log('with no diagnostic and no character lost (toolsieve), or the same calls (peers). Peak heap: most heapUsed')
  console.log('above the start of the first warm-up pass (which starts from a full gc), garbage included.')
  if (config.peers) {
    console.log('Peer: @ai-sdk-tool/parser, hermes and morph-XML protocols, transform() called directly. It has NO DSML')
    console.log('and NO Markdown guard: each turn\'s real blocks are re-encoded in its own format; fenced DSML examples stay.')
    console.log(`Peers stream the first turns of at most ${config.peerTurnKb} KB, up to ${config.peerMb} MB or ${config.peerBudgetS} s of warm-up;`)
    console.log(`"toolsieve faster by": blocks of ${PAIR_BLOCK} of those turns go through toolsieve, then the peer, back to back`)
    console.log('(median of rounds). Also shown: one pass pairing single turns, where each short toolsieve turn starts')
    console.log('right after the peer\'s work on the previous one, with the caches that work left behind.')
  }

  const peerTurns = new Map<string, { texts: string[]; expected: ManifestCall[][]; index: number[]; bytes: number[] }>()
  if (config.peers) {
    for (const peer of PEERS) {
      const texts: string[] = []
      const expected: ManifestCall[][] = []
      const index: number[] = []
      const bytes: number[] = []
      let total = 0
      for (const turn of turns) {
        const text = renderTurn(turn.segments, peer.format)
        const b = bytesOf(text)
        if (b > config.peerTurnKb * 1024) continue
        if (total + b > config.peerMb * MB) break
        texts.push(text)
        expected.push(turn.calls)
        index.push(turn.id)
        bytes.push(b)
        total += b
      }
      peerTurns.set(peer.id, { texts, expected, index, bytes })
    }
  }

  const chunkingResults: ChunkingResult[] = []
  for (const chunking of CHUNKINGS) {
    const chunked = turns.map((t) => chunking.split(t.text, config.seed + t.id))
    const chunkCount = chunked.reduce((n, c) => n + c.length, 0)

    // Warm-up passes (until WARM_UP_MS of sieve time: the JIT needs a few on small inputs),
    // correctness, and the peers' turn counts within their budget.
    // The first warm-up pass of each runner starts from a full gc and gives its heap peak.
    let warmMs = 0
    let floorWarm: Pass | undefined
    let sieveWarm: Pass | undefined
    for (let w = 0; w < 8 && warmMs < WARM_UP_MS; w++) {
      const f = floorPass(chunked, w === 0)
      const t = sievePass(chunked, turns, w === 0)
      floorWarm ??= f
      sieveWarm ??= t
      warmMs += t.ms
    }
    if (sieveWarm!.exact !== turns.length) {
      wrong(`toolsieve got ${turns.length - sieveWarm!.exact} of ${turns.length} turns wrong (${chunking.id})`)
    }
    const peerChunks = new Map<string, { peer: string[][]; sieve: string[][] }>()
    const peerWarm = new Map<string, Pass>()
    for (const peer of config.peers ? PEERS : []) {
      const p = peerTurns.get(peer.id)!
      const all = p.texts.map((t, k) => chunking.split(t, config.seed + p.index[k]!))
      const sieveAll = p.index.map((id) => chunked[id]!)
      const warm = await peerPass(peer, all, sieveAll, p.expected, config.peerBudgetS * 1000, true)
      peerWarm.set(peer.id, warm)
      peerChunks.set(peer.id, { peer: all.slice(0, warm.turns), sieve: sieveAll.slice(0, warm.turns) })
    }

    const floorPasses: Pass[] = []
    const sievePasses: Pass[] = []
    const peerPasses = new Map<string, PairedPass[]>()
    for (let r = 0; r < config.rounds; r++) {
      floorPasses.push(floorPass(chunked))
      sievePasses.push(sievePass(chunked, turns))
      for (const peer of config.peers ? PEERS : []) {
        const p = peerTurns.get(peer.id)!
        const c = peerChunks.get(peer.id)!
        const list = peerPasses.get(peer.id) ?? []
        list.push(await peerPass(peer, c.peer, c.sieve, p.expected))
        peerPasses.set(peer.id, list)
      }
    }
    // one more pass pairing single turns, reported beside the block figure
    const turnByTurn = new Map<string, PairedPass>()
    for (const peer of config.peers ? PEERS : []) {
      const c = peerChunks.get(peer.id)!
      turnByTurn.set(peer.id, await peerPass(peer, c.peer, c.sieve, peerTurns.get(peer.id)!.expected, Infinity, false, 1))
    }

    const floor = runnerResult('floor', 'copy-through floor', transcriptBytes, floorPasses, floorWarm!, false)
    const sieve = runnerResult('toolsieve', 'toolsieve', transcriptBytes, sievePasses, sieveWarm!, true)
    const runners = [floor, sieve]
    const comparisons: PeerComparison[] = []
    for (const peer of config.peers ? PEERS : []) {
      const p = peerTurns.get(peer.id)!
      const passes = peerPasses.get(peer.id)!
      const n = passes[0]!.turns
      const bytes = p.bytes.slice(0, n).reduce((a, b) => a + b, 0)
      runners.push(runnerResult(peer.id, peer.label, bytes, passes, peerWarm.get(peer.id)!, true))
      // toolsieve on exactly the same turns, streamed right before the peer in each round.
      const ids = p.index.slice(0, n)
      const sieveMs = median(passes.map((q) => q.sieveMs))
      const peerMs = median(passes.map((q) => q.ms))
      const speedup = median(passes.map((q) => q.ms / q.sieveMs))
      const sieveBytes = ids.reduce((sum, id) => sum + turnBytes[id]!, 0)
      const single = turnByTurn.get(peer.id)!
      const paired = { sieveMs: single.sieveMs, speedup: single.ms / single.sieveMs, sieveMbps: sieveBytes / MB / (single.sieveMs / 1000) }
      comparisons.push({ peer: peer.id, turns: n, sieveMs, peerMs, speedup, sieveMbps: sieveBytes / MB / (sieveMs / 1000), paired })
    }
    const result: ChunkingResult = {
      id: chunking.id,
      label: chunking.label,
      chunks: chunkCount,
      runners,
      floorShare: sieve.mbps / floor.mbps,
      peers: comparisons,
    }
    chunkingResults.push(result)
    ordinary[chunking.id] = sieve.mbps

    console.log('')
    console.log(`### ${chunking.label}: ${chunkCount.toLocaleString('en-US')} chunks`)
    const rows = runners.map((r) => {
      const cmp = comparisons.find((c) => c.peer === r.id)
      return [
        r.label,
        sig(r.mbps),
        sig(r.bestMbps),
        `${fmt((r.mbps / floor.mbps) * 100)}%`,
        cmp === undefined ? '-' : `${fmt(cmp.speedup, cmp.speedup < 10 ? 2 : 1)}×`,
        `${fmt(r.bytes / MB, 2)} MB / ${r.turns}`,
        `+${fmt(r.peakHeapMB)} MB`,
        r.exact === null ? '-' : `${r.exact}/${r.total}`,
      ]
    })
    const header = ['runner', 'MB/s', 'best', 'of floor', 'toolsieve faster by', 'input / turns', 'peak heap', 'exact']
    console.log(table(header, rows))
    for (const c of comparisons) {
      console.log(
        `  ${c.peer}: on its ${c.turns} turns, paired by blocks of ${PAIR_BLOCK}, toolsieve takes ${fmt(c.sieveMs)} ms (${sig(c.sieveMbps)} MB/s), ` +
          `the peer ${fmt(c.peerMs)} ms: toolsieve ${fmt(c.speedup, 2)}× faster; ` +
          `paired turn by turn ${fmt(c.paired.sieveMs)} ms (${sig(c.paired.sieveMbps)} MB/s): ${fmt(c.paired.speedup, 2)}×`,
      )
    }
    const pairs = comparisons.map(
      (c) =>
        `- ${c.peer}, its ${c.turns} turns: toolsieve ${sig(c.sieveMbps)} MB/s paired by blocks of ${PAIR_BLOCK} turns, ${fmt(c.speedup, 2)}× the peer; ` +
        `paired turn by turn ${sig(c.paired.sieveMbps)} MB/s, ${fmt(c.paired.speedup, 2)}×`,
    )
    markdown.push(`### ${chunking.label}\n\n${markdownTable(header, rows)}\n${pairs.length > 0 ? `\n${pairs.join('\n')}\n` : ''}`)
    chunked.length = 0
    peerChunks.clear()
  }

  const token = chunkingResults.find((c) => c.id === 'token')!
  const fastest = token.peers.reduce<PeerComparison | undefined>((m, c) => (m === undefined || c.speedup < m.speedup ? c : m), undefined)
  console.log('')
  console.log('Targets (token-sized chunks):')
  const shareMet = token.floorShare >= TARGETS.floorShare
  console.log(`  toolsieve ≥ ${TARGETS.floorShare * 100}% of the floor: ${fmt(token.floorShare * 100)}% — ${shareMet ? 'met' : 'NOT MET'}`)
  if (fastest !== undefined) {
    const met = fastest.speedup >= TARGETS.peerSpeedup
    console.log(`  toolsieve ≥ ${TARGETS.peerSpeedup}× the fastest peer (${fastest.peer}): ${fmt(fastest.speedup)}× — ${met ? 'met' : 'NOT MET'}`)
  }
  results.transcript = {
    seed: config.seed,
    turns: turns.length,
    bytes: transcriptBytes,
    calls: transcriptCalls,
    chunkings: chunkingResults,
    targets: {
      floorShare: { value: token.floorShare, target: TARGETS.floorShare, met: shareMet },
      peerSpeedup: fastest === undefined ? null : { value: fastest.speedup, peer: fastest.peer, target: TARGETS.peerSpeedup, met: fastest.speedup >= TARGETS.peerSpeedup },
    },
  }
})()

// ---------------------------------------------------------------------------
// 2. Markdown guard

if (runs('guard') && config.peers) await (async () => {
  console.log('')
  console.log('## 2. Markdown guard: fenced tool-call examples written in each parser\'s own format')
  const withExamples = turns.filter((t) => t.segments.some((s) => s.kind === 'fence' && s.fence.kind === 'example'))
  const examples = withExamples.reduce(
    (n, t) => n + t.segments.reduce((m, s) => m + (s.kind === 'fence' && s.fence.kind === 'example' ? s.fence.block.calls.length : 0), 0),
    0,
  )
  const rows: string[][] = []
  const guard: Array<Record<string, unknown>> = []
  {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamSieve([t.text])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    rows.push(['toolsieve (examples in DSML and XML)', `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: 'toolsieve', turns: withExamples.length, exact, invented })
  }
  for (const peer of PEERS) {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamPeer(peer, [renderTurn(t.segments, peer.formatWithExamples)])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    await drainTimers()
    rows.push([`${peer.label} (examples in its format)`, `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: peer.id, turns: withExamples.length, exact, invented })
  }
  console.log(`${withExamples.length} turns hold ${examples} example calls inside \`\`\` / ~~~ fences; whole-turn chunks.`)
  const header = ['parser', 'turns exact', 'calls invented']
  console.log(table(header, rows))
  markdown.push(`### Markdown guard\n\n${markdownTable(header, rows)}\n`)
  results.guard = { turns: withExamples.length, exampleCalls: examples, runners: guard }
})()

// The transcript is not needed past this point.
turns.length = 0
turnBytes.length = 0

// ---------------------------------------------------------------------------
// 3. Scaling

if (runs('scaling')) await (async () => {
  console.log('')
  console.log('## 3. Scaling: one parameter value streamed in 4-char chunks (capture limit raised to fit)')
  console.log(`Best of at least ${config.rounds} runs (more on small values, until 0.5 s of runs), after a warm-up run.`)
  /** Best time of one value size: the least disturbed by other load on the machine. */
  const scaleTime = (size: number, cdata: boolean): number => {
    const stream = generateParameterStream(size, { cdata })
    const chunks = fixedChunks(stream.text, 4)
    const captureLimit = 4 * size + 4096
    gc()
    const warm = streamSieve(chunks, captureLimit)
    if (!(sameCalls(warm.calls, stream.calls) && warm.diagnostics.length === 0)) {
      wrong(`scaling ${size / 1024} KB${cdata ? ' CDATA' : ''}: ${warm.calls.length} calls, ${warm.diagnostics.join(',')}`)
    }
    const times: number[] = []
    let spent = 0
    while (times.length < config.rounds || (spent < 500 && times.length < 25)) {
      const t0 = performance.now()
      streamSieve(chunks, captureLimit)
      const dt = performance.now() - t0
      times.push(dt)
      spent += dt
    }
    return Math.min(...times)
  }
  scaleTime(256 * 1024, false) // warm-up before the first row
  const sizes: number[] = []
  for (let kb = 64; kb <= config.scaleMaxKb; kb *= 2) sizes.push(kb * 1024)
  const rows: string[][] = []
  const points: Array<Record<string, unknown>> = []
  const ratios: number[] = []
  const cdataRatios: number[] = []
  let prev: { plain: number; cdata: number } | undefined
  for (const size of sizes) {
    const plain = scaleTime(size, false)
    const cdata = scaleTime(size, true)
    const ratio = prev === undefined ? undefined : plain / prev.plain
    const cdataRatio = prev === undefined ? undefined : cdata / prev.cdata
    if (ratio !== undefined) ratios.push(ratio)
    if (cdataRatio !== undefined) cdataRatios.push(cdataRatio)
    prev = { plain, cdata }
    rows.push([
      `${size / 1024} KB`,
      fmt(plain, 1),
      ratio === undefined ? '-' : fmt(ratio, 2),
      sig(size / MB / (plain / 1000)),
      fmt(cdata, 1),
      cdataRatio === undefined ? '-' : fmt(cdataRatio, 2),
      sig(size / MB / (cdata / 1000)),
    ])
    points.push({ bytes: size, plainMs: plain, plainRatio: ratio ?? null, cdataMs: cdata, cdataRatio: cdataRatio ?? null })
  }
  const geo = ratios.length > 0 ? geoMean(ratios) : Number.NaN
  const cdataGeo = cdataRatios.length > 0 ? geoMean(cdataRatios) : Number.NaN
  rows.push(['geometric mean', '', fmt(geo, 2), '', '', fmt(cdataGeo, 2), ''])
  const header = ['value', 'plain ms', 'ratio', 'MB/s', 'CDATA ms', 'ratio', 'MB/s']
  console.log(table(header, rows))
  const met = geo <= TARGETS.doubling && cdataGeo <= TARGETS.doubling
  console.log(`Target: geometric-mean time ratio per doubling ≤ ${TARGETS.doubling} (2 linear, 4 quadratic): ${met ? 'met' : 'NOT MET'}`)
  markdown.push(`### Scaling (one value, 4-char chunks)\n\n${markdownTable(header, rows)}\n`)

  const peerPoints: Array<Record<string, unknown>> = []
  if (config.peers) {
    console.log('')
    console.log('The peers on the same kind of input (one write_file call, 4-char chunks, one run each; a column stops')
    console.log(`after the first run over ${fmt(config.peerBudgetS / 2, 1)} s):`)
    const peerRows: string[][] = []
    const peerSizes = [8, 16, 32, 64, 128, 256].map((k) => k * 1024)
    const peerStopMs = (config.peerBudgetS * 1000) / 2
    const stopped = new Set<string>()
    const last = new Map<string, number>()
    for (const size of peerSizes) {
      const value = generateParameterStream(size).calls[0]!.input.content!
      const row = [`${size / 1024} KB`]
      for (const peer of PEERS) {
        if (stopped.has(peer.id)) {
          row.push('-', '-')
          continue
        }
        // write_file declares `path` as required; hermes drops a call without it.
        const call = {
          name: 'write_file',
          params: [
            { key: 'path', value: 'src/big.txt', cdata: false, padded: false, stringAttr: false },
            { key: 'content', value, cdata: false, padded: false, stringAttr: false },
          ],
        }
        const text = `Writing the file now.\n\n${peer.format.block({ spelling: CANONICAL, calls: [call] })}\n\nDone.\n`
        const chunks = fixedChunks(text, 4)
        gc()
        const t0 = performance.now()
        const found = streamPeer(peer, chunks)
        const ms = performance.now() - t0
        await drainTimers()
        const ok = found.calls.length === 1 && found.calls[0]!.input.content === value
        const prevMs = last.get(peer.id)
        row.push(`${fmt(ms, 0)}${ok ? '' : ' (wrong)'}`, prevMs === undefined ? '-' : fmt(ms / prevMs, 2))
        last.set(peer.id, ms)
        peerPoints.push({ peer: peer.id, bytes: size, ms, ratio: prevMs === undefined ? null : ms / prevMs, exact: ok })
        if (ms > peerStopMs) stopped.add(peer.id)
      }
      peerRows.push(row)
    }
    const peerHeader = ['value', ...PEERS.flatMap((p) => [`${p.id} ms`, 'ratio'])]
    console.log(table(peerHeader, peerRows))
    markdown.push(`### Peers on one value (4-char chunks, one run each)\n\n${markdownTable(peerHeader, peerRows)}\n`)
  }
  results.scaling = { chunk: 4, points, geoMean: geo, cdataGeoMean: cdataGeo, target: TARGETS.doubling, met, peers: peerPoints }
})()

// ---------------------------------------------------------------------------
// 4. Adversarial

if (runs('adversarial')) await (async () => {
  console.log('')
  console.log(`## 4. Adversarial inputs (scale ${config.advScale}), median of ${config.rounds} runs after warm-up runs`)
  const adv: Array<Record<string, unknown>> = []
  const rows: string[][] = []
  let allMet = true
  for (const make of ADVERSARIAL) {
    const a: Adversarial = make(config.advScale)
    const bytes = bytesOf(a.text)
    const cells: Record<string, { mbps: number; slowdown: number; stats: SieveStats }> = {}
    let shapeOk = true
    for (const id of ['token', '4096']) {
      const chunks = id === 'token' ? tokenChunks(a.text, config.seed) : fixedChunks(a.text, 4096)
      const times: number[] = []
      let stats: SieveStats | undefined
      let warmMs = 0
      let warmRuns = 0
      gc()
      for (let r = 0; r <= config.rounds; r++) {
        const t0 = performance.now()
        const found = streamSieve(chunks)
        const dt = performance.now() - t0
        // Warm up until WARM_UP_MS / 4 went by (at most 8 runs); the first run checks the shape.
        if (r === 0 && warmRuns < 8 && (warmMs += dt) < WARM_UP_MS / 4) {
          warmRuns++
          r = -1
          continue
        }
        if (r === 0) {
          stats = found.stats
          const codes = [...new Set(found.diagnostics)].sort()
          const ok =
            sameCalls(found.calls, a.calls, a.namesOnly === true) &&
            codes.join(',') === [...a.diagnostics].sort().join(',') &&
            found.chars === a.text.length
          if (!ok) {
            shapeOk = false
            wrong(`${a.id} (${id}): ${found.calls.length} calls (want ${a.calls.length}), diagnostics [${codes}] (want [${a.diagnostics}])`)
          }
        } else times.push(dt)
      }
      const mbps = bytes / MB / (median(times) / 1000)
      const ref = ordinary[id]
      cells[id] = { mbps, slowdown: ref === undefined ? Number.NaN : ref / mbps, stats: stats! }
    }
    const token = cells.token!
    const big = cells['4096']!
    const met = Number.isNaN(token.slowdown) || (token.slowdown <= TARGETS.adversarialSlowdown && big.slowdown <= TARGETS.adversarialSlowdown)
    if (!met) allMet = false
    rows.push([
      a.id,
      `${fmt(bytes / 1024, 0)} KB`,
      sig(token.mbps),
      Number.isNaN(token.slowdown) ? '-' : `${fmt(token.slowdown)}×`,
      sig(big.mbps),
      Number.isNaN(big.slowdown) ? '-' : `${fmt(big.slowdown)}×`,
      fmt(token.stats.charsLexed / a.text.length, 2),
      String(token.stats.maxHeldTail),
      `${a.calls.length}${a.diagnostics.length > 0 ? ` + ${a.diagnostics.join(',')}` : ''}${shapeOk ? '' : ' WRONG'}`,
      Number.isNaN(token.slowdown) ? '-' : met ? 'met' : 'NOT MET',
    ])
    adv.push({
      id: a.id,
      label: a.label,
      bytes,
      tokenMbps: token.mbps,
      tokenSlowdown: token.slowdown,
      chunk4096Mbps: big.mbps,
      chunk4096Slowdown: big.slowdown,
      tokenStats: token.stats,
      chunk4096Stats: big.stats,
      calls: a.calls.length,
      diagnostics: a.diagnostics,
      shapeOk,
      met,
    })
  }
  const header = ['input', 'size', 'token MB/s', 'slower', '4096 MB/s', 'slower', 'lexed/len', 'held tail', 'calls + diagnostics', `≤ ${TARGETS.adversarialSlowdown}×`]
  console.log(table(header, rows))
  console.log('slower: the ordinary transcript\'s MB/s (same chunking, section 1) over this input\'s. lexed/len and held tail:')
  console.log('sieve.stats() at token chunks (characters handed to the lexer per input character; largest held tail).')
  for (const make of ADVERSARIAL) {
    const a = make(config.advScale)
    console.log(`  ${a.id}: ${a.label}`)
  }
  if (ordinary.token !== undefined) {
    console.log(`Target: every input within ${TARGETS.adversarialSlowdown}× of the ordinary transcript: ${allMet ? 'met' : 'NOT MET'}`)
  }
  markdown.push(`### Adversarial inputs\n\n${markdownTable(header, rows)}\n`)
  results.adversarial = { scale: config.advScale, ordinary, inputs: adv, target: TARGETS.adversarialSlowdown, met: ordinary.token === undefined ? null : allMet }
})()

// ---------------------------------------------------------------------------
// 5. Heap

if (runs('heap')) await (async () => {
  console.log('')
  console.log(`## 5. Heap: ${config.heapMb} MB through one sieve in token-sized chunks, generated 1 MB at a time`)
  gc()
  gc()
  const start = heapUsed()
  heapPeak.reset()
  const sieve = createSieve()
  let calls = 0
  let expected = 0
  let diagnostics = 0
  let streamed = 0
  let ms = 0
  const take = (events: SieveEvent[]): void => {
    for (const e of events) {
      if (e.type === 'tool-call') calls++
      else if (e.type === 'diagnostic') diagnostics++
    }
  }
  /** heapUsed after a full gc, every 10 MB: what the sieve keeps alive. */
  const retained: number[] = []
  for (let slice = 0; streamed < config.heapMb * MB; slice++) {
    const sliceTurns = generateTurns({ seed: config.seed + 1000 + slice, size: MB })
    const text = `${sliceTurns.map((t) => t.text).join('\n\n')}\n\n`
    expected += sliceTurns.reduce((n, t) => n + t.calls.length, 0)
    const chunks = tokenChunks(text, config.seed + slice)
    const t0 = performance.now()
    for (let i = 0; i < chunks.length; i++) {
      take(sieve.push(chunks[i]!))
      if ((i & 4095) === 0) heapPeak.sample()
    }
    ms += performance.now() - t0
    streamed += bytesOf(text)
    heapPeak.sample()
    if (slice % 10 === 9) {
      gc()
      retained.push(heapUsed())
    }
  }
  take(sieve.end())
  gc()
  gc()
  const end = heapUsed()
  const peak = heapPeak.value
  const growth = (end - start) / MB
  const spread = retained.length > 0 ? (Math.max(...retained) - Math.min(...retained)) / MB : 0
  // Flat: no growth from start to end, and what survives a gc stays put along the way.
  const flat = growth < 8 && spread < 8
  console.log(
    `streamed ${fmt(streamed / MB, 1)} MB in ${fmt(ms / 1000, 1)} s (${sig(streamed / MB / (ms / 1000))} MB/s, generation not counted); ` +
      `${calls} calls (want ${expected}), ${diagnostics} diagnostics`,
  )
  console.log(
    `heap used: start ${fmt(start / MB)} MB, peak ${fmt(peak / MB)} MB (garbage included), end ${fmt(end / MB)} MB (after gc): ` +
      `${flat ? 'flat' : 'GROWS'} (${growth >= 0 ? '+' : ''}${fmt(growth)} MB)`,
  )
  console.log(`after a gc every 10 MB: ${retained.map((r) => fmt(r / MB)).join(', ')} MB`)
  if (calls !== expected || diagnostics !== 0) wrong(`heap run: ${calls} calls of ${expected}, ${diagnostics} diagnostics`)
  results.heap = {
    mb: streamed / MB,
    seconds: ms / 1000,
    calls,
    expected,
    startMB: start / MB,
    peakMB: peak / MB,
    endMB: end / MB,
    retainedEveryTenMB: retained.map((r) => r / MB),
    flat,
  }
  markdown.push(
    `### Heap (${fmt(streamed / MB, 0)} MB through one sieve)\n\n| start | peak | end (after gc) |\n| ---: | ---: | ---: |\n` +
      `| ${fmt(start / MB)} MB | ${fmt(peak / MB)} MB | ${fmt(end / MB)} MB |\n`,
  )
})()

// ---------------------------------------------------------------------------
// Output

if (sink === 0 && runs('transcript')) console.log('(floor did no work?)')
const loadAtEnd = loadavg()[0]!
console.log('')
console.log(`load average: ${fmt(loadAtStart, 2)} at start, ${fmt(loadAtEnd, 2)} at end (${machineInfo.cpus} cores; other processes share them)`)
results.load = { start: loadAtStart, end: loadAtEnd }

if (outDir !== undefined) {
  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`)
  const head =
    `Measured ${machineInfo.date.slice(0, 10)} on node ${machineInfo.node}, ${machineInfo.cpus} cores (nproc), ${machineInfo.cpu}, ` +
    `commit ${machineInfo.commit}; \`npm run bench${quick ? ' -- --quick' : ''}\`; toolsieve timed from its compiled package (\`dist/\`), as users import it.\n\n`
  writeFileSync(join(outDir, 'latest.md'), `${head}${markdown.join('\n')}`)
  const svg = chartFromResults(results as unknown as ResultsForChart)
  if (svg !== undefined) writeFileSync(join(outDir, 'chart.svg'), svg)
  console.log('')
  console.log(`wrote ${join(outDir, 'latest.json')}, latest.md${svg !== undefined ? ', chart.svg' : ''}`)
}

if (failures > 0) {
  console.log(`\n*** ${failures} correctness failure(s): see WRONG above ***`)
  process.exit(1)
}
