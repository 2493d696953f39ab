/**
 * Section 5 of `npm run bench` (see `bench/run.ts`): a long stream through
 * one sieve, to show that what it keeps alive does not grow with the input.
 */
import { performance } from 'node:perf_hooks'
import type { SieveEvent } from '../src/index.js'
import { tokenChunks } from './chunks.js'
import { config } from './config.js'
import { toolsieve } from './lib.js'
import { MB, bytesOf, fmt, gc, heapPeak, heapUsed, sig } from './measure.js'
import type { Report } from './measure.js'
import { wrong } from './passes.js'
import { generateTurns } from './transcripts.js'

const { createSieve } = toolsieve

export async function heapSection(report: Report): Promise<void> {
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
  report.results.heap = {
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
  report.markdown.push(
    `### Heap (${fmt(streamed / MB, 0)} MB through one sieve)\n\n| start | peak | end (after gc) |\n| ---: | ---: | ---: |\n` +
      `| ${fmt(start / MB)} MB | ${fmt(peak / MB)} MB | ${fmt(end / MB)} MB |\n`,
  )
}
