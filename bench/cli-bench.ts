/**
 * `toolsieve bench` on `npm run bench`'s own transcript (20 MB, seed
 * 20240601, written as JSONL), from the compiled package as users run it,
 * with one job and with two, beside the MB/s `npm run bench` recorded in
 * `bench/results/latest.json` (for figures from the same moment, run
 * `npm run bench -- --only transcript --no-peers` right before).
 *
 *   tsx bench/cli-bench.ts [--mb 20] [--seed 20240601] [--jobs 2]
 *
 * The two differ in method: `npm run bench` takes the median of five rounds
 * after warm-up passes; `toolsieve bench` streams the file once, warm-up
 * included, as a user's run does, and reads it from disk as it goes.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import './lib.js'
import { generateTurns, transcriptJsonl } from './transcripts.js'

const { values } = parseArgs({ options: { mb: { type: 'string', default: '20' }, seed: { type: 'string', default: '20240601' }, jobs: { type: 'string', default: '2' } } })
const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(tmpdir(), `toolsieve-cli-bench-${values.seed}-${values.mb}`)
const file = join(dir, 'transcript.jsonl')
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(file, transcriptJsonl(generateTurns({ seed: Number(values.seed), size: Number(values.mb) * 1024 * 1024 })))
}

interface Summary {
  turns: number
  bytes: number
  wallMs: number
  speedup: number
  cpuMs: number
  peakRssMB: number
  order: string[]
  chunkings: Record<string, { mbps: number; calls: number; diagnostics: Record<string, number> }>
}

const CHUNKINGS = ['token', '16', '4096', 'whole']
function run(jobs: string): Summary {
  const out = execFileSync(process.execPath, [join(root, 'dist/cli/main.js'), 'bench', file, '--json', '--jobs', jobs, '--chunk', CHUNKINGS.join(',')], { encoding: 'utf8', maxBuffer: 1 << 26 })
  return JSON.parse(out) as Summary
}

const recorded = new Map<string, number>()
try {
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as { transcript: { chunkings: { id: string; runners: { id: string; mbps: number }[] }[] } }
  for (const c of latest.transcript.chunkings) recorded.set(c.id, c.runners.find((r) => r.id === 'toolsieve')?.mbps ?? NaN)
} catch {
  // No recorded run: the column stays empty.
}

const one = run('1')
const many = run(values.jobs)
console.log(`toolsieve bench on ${file}: ${one.turns} turns, ${(one.bytes / 1024 / 1024).toFixed(2)} MB; node ${process.version}`)
console.log('')
console.log(`| chunking | toolsieve bench, 1 job MB/s | ${values.jobs} jobs MB/s (per thread) | npm run bench MB/s (latest.json) | calls | diagnostics |`)
console.log('| --- | ---: | ---: | ---: | ---: | --- |')
for (const id of CHUNKINGS) {
  const a = one.chunkings[id]!
  const b = many.chunkings[id]!
  const codes = Object.entries(a.diagnostics).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'
  console.log(`| ${id} | ${a.mbps.toFixed(1)} | ${b.mbps.toFixed(1)} | ${(recorded.get(id) ?? NaN).toFixed(1)} | ${a.calls} | ${codes} |`)
}
console.log('')
console.log(`CPU the machine gave: 1 job ${(one.cpuMs / one.wallMs).toFixed(2)} cores on average, ${values.jobs} jobs ${(many.cpuMs / many.wallMs).toFixed(2)} (CPU time ${(one.cpuMs / 1000).toFixed(1)} s and ${(many.cpuMs / 1000).toFixed(1)} s)`)
console.log(`wall time: 1 job ${(one.wallMs / 1000).toFixed(1)} s, ${values.jobs} jobs ${(many.wallMs / 1000).toFixed(1)} s: ${(one.wallMs / many.wallMs).toFixed(2)}× faster (the bench's own speed-up figure, busy over wall: ${many.speedup.toFixed(2)}×); peak RSS ${one.peakRssMB.toFixed(0)} MB and ${many.peakRssMB.toFixed(0)} MB`)
