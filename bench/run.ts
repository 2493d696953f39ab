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
 * 3. Scaling: one parameter of 64 KB … 4 MB in 4-char chunks (sliced as they
 *    are pushed); time ratio per doubling (2 is linear, 4 quadratic). The
 *    peers over 8 KB … until a run takes more than half the peer budget (2 s),
 *    on chunks made up front.
 * 4. Adversarial inputs (`bench/adversarial.ts`): MB/s, and time per MB
 *    against ordinary turns streamed beside them round by round, with the
 *    sieve's own counters.
 * 5. Heap: a 100 MB stream through one sieve; heap at start, peak and end.
 *
 * Results go to `bench/results/latest.json`, `latest.md` (the tables as
 * Markdown) and `chart.svg` (full runs, or any run given `--out DIR`).
 * Exits 1 if toolsieve gets any input wrong.
 *
 * Each section is a module of its own (`bench/transcript-section.ts`,
 * `guard-section.ts`, `scaling-section.ts`, `adversarial-section.ts`,
 * `heap-section.ts`); this script prints the header, runs them in order and
 * writes the results.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { adversarialSection } from './adversarial-section.js'
import { chartFromResults } from './chart.js'
import type { ResultsForChart } from './chart.js'
import { TARGETS, config, outDir, quick, runs } from './config.js'
import { guardSection } from './guard-section.js'
import { heapSection } from './heap-section.js'
import { MB, fmt, machine } from './measure.js'
import { failureCount, floorSink } from './passes.js'
import { scalingSection } from './scaling-section.js'
import { transcriptSection } from './transcript-section.js'
import { generateTurns } from './transcripts.js'

// ---------------------------------------------------------------------------
// Header

const results: Record<string, unknown> = {}
const markdown: string[] = []

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

// ---------------------------------------------------------------------------
// Sections

const report = { results, markdown }
const turns = runs('transcript') || runs('guard') ? generateTurns({ seed: config.seed, size: config.mb * MB }) : []

if (runs('transcript')) await transcriptSection(report, turns)
if (runs('guard') && config.peers) await guardSection(report, turns)

// The transcript is not needed past this point.
turns.length = 0

if (runs('scaling')) await scalingSection(report)
if (runs('adversarial')) await adversarialSection(report)
if (runs('heap')) await heapSection(report)

// ---------------------------------------------------------------------------
// Output

if (floorSink() === 0 && runs('transcript')) console.log('(floor did no work?)')
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

if (failureCount() > 0) {
  console.log(`\n*** ${failureCount()} correctness failure(s): see WRONG above ***`)
  process.exit(1)
}
