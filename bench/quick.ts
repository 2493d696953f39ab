/**
 * Quick benchmark: `npm run bench:quick`.
 *
 * 1. Throughput: a seeded 10 MB mixed transcript streamed in token-sized
 *    chunks (1–12 chars, mean ≈ 4) through `createSieve`, beside a copy-through floor
 *    measured in the same run (collect the same chunks, `indexOf` for `<` and
 *    `＜` in each, join once). Rounds are interleaved; best and median shown.
 * 2. Linearity: one parameter of 64 KB … 1 MB streamed in 4-char chunks; the
 *    time ratio per doubling should stay near 2.
 *
 * Aborts (exit 1) if the sieve finds a different number of calls than the
 * generator put in: a benchmark must never time a broken path.
 */
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { toolsieve } from './lib.js'
import type { SieveEvent } from '../src/index.js'
import { fixedChunks, tokenChunks } from './chunks.js'
import { generateTranscript } from './generate.js'
import { generateParameterStream } from './parameter-stream.js'

/** Timed from the compiled package, as users run it (see `bench/lib.ts`). */
const { createSieve } = toolsieve

const SEED = 20240601
const SIZE = 10 * 1024 * 1024
const ROUNDS = 5
const DOUBLING_SIZES = [64, 128, 256, 512, 1024].map((k) => k * 1024)
const DOUBLING_ROUNDS = 5
const TARGET_FLOOR_SHARE = 0.25
const TARGET_DOUBLING = 2.2

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const MB = 1024 * 1024
const fmt = (n: number, digits = 1): string => n.toFixed(digits)
const heapMB = (): number => process.memoryUsage().heapUsed / MB
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
const row = (cells: Array<string | number>, widths: number[]): string =>
  cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ')

function fail(message: string): never {
  console.error(`\n*** BENCH ABORTED: ${message} ***\n`)
  process.exit(1)
}

/** Keeps the floor's work observable so it cannot be optimised away. */
let sink = 0

/** The floor: what any consumer that copies the stream and looks for `<` pays. */
function floor(chunks: string[]): number {
  const t0 = performance.now()
  const parts: string[] = []
  let hits = 0
  for (const chunk of chunks) {
    parts.push(chunk)
    if (chunk.indexOf('<') !== -1) hits++
    if (chunk.indexOf('＜') !== -1) hits++
  }
  const joined = parts.join('')
  const ms = performance.now() - t0
  sink += joined.length + hits
  return ms
}

interface SieveRun {
  ms: number
  calls: number
  diagnostics: string[]
  textChars: number
}

function count(events: SieveEvent[], run: SieveRun): void {
  for (const e of events) {
    if (e.type === 'tool-call') run.calls++
    else if (e.type === 'text') run.textChars += e.text.length
    else if (e.type === 'diagnostic' || e.type === 'error') run.diagnostics.push(e.code)
  }
}

function sieveRun(chunks: string[], captureLimit?: number): SieveRun {
  const run: SieveRun = { ms: 0, calls: 0, diagnostics: [], textChars: 0 }
  const t0 = performance.now()
  const sieve = createSieve(captureLimit === undefined ? {} : { captureLimit })
  for (const chunk of chunks) count(sieve.push(chunk), run)
  count(sieve.end(), run)
  run.ms = performance.now() - t0
  return run
}

function check(run: SieveRun, expectedCalls: number, what: string): void {
  if (run.calls !== expectedCalls) fail(`${what}: sieve found ${run.calls} calls, manifest says ${expectedCalls}`)
  if (run.diagnostics.length > 0) fail(`${what}: unexpected diagnostics ${run.diagnostics.slice(0, 5).join(', ')}`)
}

// ---------------------------------------------------------------------------
// 1. Throughput

const transcript = generateTranscript({ seed: SEED, size: SIZE })
const chunks = tokenChunks(transcript.text, SEED)
const bytes = Buffer.byteLength(transcript.text, 'utf8')
const mb = bytes / MB

gc()
const heapBefore = heapMB()

// Warm up both paths once (JIT), and check the sieve's answer before timing it.
floor(chunks)
const warm = sieveRun(chunks)
check(warm, transcript.calls.length, 'transcript')

const floorMs: number[] = []
const sieveMs: number[] = []
let heapPeak = heapMB()
for (let i = 0; i < ROUNDS; i++) {
  gc()
  floorMs.push(floor(chunks))
  gc()
  const run = sieveRun(chunks)
  check(run, transcript.calls.length, `transcript round ${i + 1}`)
  sieveMs.push(run.ms)
  heapPeak = Math.max(heapPeak, heapMB())
}
gc()
const heapAfter = heapMB()

const floorBest = mb / (Math.min(...floorMs) / 1000)
const floorMed = mb / (median(floorMs) / 1000)
const sieveBest = mb / (Math.min(...sieveMs) / 1000)
const sieveMed = mb / (median(sieveMs) / 1000)
const shareBest = sieveBest / floorBest
const shareMed = sieveMed / floorMed

console.log(`toolsieve bench:quick  node ${process.version}  seed ${SEED}`)
console.log(
  `transcript ${fmt(mb, 2)} MB (${transcript.text.length} UTF-16 units), ${chunks.length} chunks of 1-12 chars (mean ≈ 4), ` +
    `${transcript.blocks} blocks, ${transcript.calls.length} calls (matches manifest)`,
)
console.log('')
const w1 = [24, 12, 12]
console.log(row(['throughput', 'best MB/s', 'median MB/s'], w1))
console.log(row(['copy-through floor', fmt(floorBest), fmt(floorMed)], w1))
console.log(row(['toolsieve', fmt(sieveBest), fmt(sieveMed)], w1))
console.log(row(['toolsieve / floor', `${fmt(shareBest * 100)}%`, `${fmt(shareMed * 100)}%`], w1))
console.log(
  row([`target >= ${TARGET_FLOOR_SHARE * 100}% of floor`, shareBest >= TARGET_FLOOR_SHARE ? 'met' : 'NOT MET',
    shareMed >= TARGET_FLOOR_SHARE ? 'met' : 'NOT MET'], w1),
)
console.log('')
console.log(
  `heap used: before ${fmt(heapBefore)} MB, max after a round (before gc) ${fmt(heapPeak)} MB, after (gc) ${fmt(heapAfter)} MB ` +
    `(transcript + chunks held throughout)`,
)
if (sink === 0) fail('floor did no work')

// ---------------------------------------------------------------------------
// 2. Doubling table

console.log('')
const w2 = [16, 10, 10, 12, 12]
console.log(row(['one parameter', 'chunks', 'best ms', 'ratio', 'MB/s'], w2))
const ratios: number[] = []
let previous: number | undefined
for (const size of DOUBLING_SIZES) {
  const stream = generateParameterStream(size)
  const parts = fixedChunks(stream.text, 4)
  // The value outgrows the default capture limit (256 KiB); raise it for this bench.
  const captureLimit = 4 * size + 4096
  const times: number[] = []
  for (let i = 0; i <= DOUBLING_ROUNDS; i++) {
    gc()
    const run = sieveRun(parts, captureLimit)
    check(run, 1, `parameter stream ${size / 1024} KB`)
    if (i > 0) times.push(run.ms) // round 0 is warm-up
  }
  const best = Math.min(...times)
  const ratio = previous === undefined ? undefined : best / previous
  if (ratio !== undefined) ratios.push(ratio)
  previous = best
  console.log(row([`${size / 1024} KB`, parts.length, fmt(best, 2), ratio === undefined ? '-' : fmt(ratio, 2),
    fmt(stream.text.length / MB / (best / 1000))], w2))
}
const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length)
const worst = Math.max(...ratios)
console.log(row(['geometric mean', '', '', fmt(geo, 2), ''], w2))
console.log(row([`target <= ${TARGET_DOUBLING}`, '', '', geo <= TARGET_DOUBLING ? 'met' : 'NOT MET',
  `worst ${fmt(worst, 2)}`], w2))
