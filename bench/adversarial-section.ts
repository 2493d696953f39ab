/**
 * Section 4 of `npm run bench` (see `bench/run.ts`): the adversarial inputs
 * (`bench/adversarial.ts`), each against ordinary turns in the same chunking,
 * with the sieve's own counters to show where the time goes.
 *
 * How much slower an input is than ordinary turns is measured in this
 * section, not taken from section 1: each round streams the input and a
 * fixed sample of ordinary turns, the two going first by turns, and the
 * ratio is of their time per megabyte (medians over the rounds). On a shared machine the load changes
 * over the minutes between section 1 and this one; the two halves of a
 * round share it. (Wall time: the process's CPU time also counts V8's
 * compiler and collector threads, which run beside the sieve.)
 */
import { performance } from 'node:perf_hooks'
import type { SieveStats } from '../src/index.js'
import { ADVERSARIAL } from './adversarial.js'
import type { Adversarial } from './adversarial.js'
import { fixedChunks, tokenChunks } from './chunks.js'
import { TARGETS, WARM_UP_MS, config } from './config.js'
import { MB, bytesOf, fmt, markdownTable, median, sig, table } from './measure.js'
import type { Report } from './measure.js'
import { sameCalls, streamSieve, wrong } from './passes.js'
import { generateTurns } from './transcripts.js'

/** The ordinary turns each round streams beside an input: about this many MB of them (a megabyte at scale 1). */
const referenceMb = (): number => Math.min(1, Math.max(0.25, config.advScale))

/** Milliseconds to stream the reference sample in one chunking: each turn's chunks, a fresh sieve per turn as in section 1. */
function streamTurns(turns: readonly string[][]): number {
  const t0 = performance.now()
  for (const chunks of turns) streamSieve(chunks)
  return performance.now() - t0
}

export async function adversarialSection(report: Report): Promise<void> {
  console.log('')
  console.log(`## 4. Adversarial inputs (scale ${config.advScale}), median of ${config.rounds} runs after warm-up runs`)
  const sample = generateTurns({ seed: config.seed + 1, size: referenceMb() * MB })
  const sampleBytes = sample.reduce((n, t) => n + bytesOf(t.text), 0)
  const reference: Record<string, string[][]> = {
    token: sample.map((t, i) => tokenChunks(t.text, config.seed + i)),
    '4096': sample.map((t) => fixedChunks(t.text, 4096)),
    whole: sample.map((t) => [t.text]),
  }
  const ordinary: Record<string, number[]> = { token: [], '4096': [], whole: [] }
  // warm: the sample's first passes run at a fraction of the speed of later ones
  for (let i = 0; i < 6; i++) for (const turns of Object.values(reference)) streamTurns(turns)
  const adv: Array<Record<string, unknown>> = []
  const rows: string[][] = []
  let allMet = true
  for (const make of ADVERSARIAL) {
    const a: Adversarial = make(config.advScale)
    const bytes = bytesOf(a.text)
    const cells: Record<string, { mbps: number; slowdown: number; stats: SieveStats }> = {}
    let shapeOk = true
    // whole: the input in one push, as a caller with a finished (not streamed) response gives it
    for (const id of ['token', '4096', 'whole']) {
      const chunks = id === 'token' ? tokenChunks(a.text, config.seed) : id === 'whole' ? [a.text] : fixedChunks(a.text, 4096)
      const times: number[] = []
      // milliseconds per MB, the input's and the reference sample's, round by round
      const advPerMb: number[] = []
      const refPerMb: number[] = []
      let stats: SieveStats | undefined
      let warmMs = 0
      let warmRuns = 0
      // no gc before the rounds either: the slow stretch after one would fall on the small inputs' rounds
      for (let r = 0; r <= config.rounds; r++) {
        // the halves take turns going first: what one leaves behind (garbage, a deoptimisation) falls on each alike
        const refFirst = r % 2 === 0 && r > 0
        const refMs = refFirst ? streamTurns(reference[id]!) : 0
        const t0 = performance.now()
        const found = streamSieve(chunks, a.options)
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
        } else {
          times.push(dt)
          // no gc between the halves: right after one V8 runs slower for a while (see `beginPass`)
          advPerMb.push(dt / (bytes / MB))
          refPerMb.push((refFirst ? refMs : streamTurns(reference[id]!)) / (sampleBytes / MB))
        }
      }
      const mbps = bytes / MB / (median(times) / 1000)
      const ref = median(refPerMb)
      ordinary[id]!.push(1000 / ref)
      cells[id] = { mbps, slowdown: median(advPerMb) / ref, stats: stats! }
    }
    const token = cells.token!
    const big = cells['4096']!
    const whole = cells.whole!
    const within = (c: { slowdown: number }): boolean => c.slowdown <= TARGETS.adversarialSlowdown
    const met = within(token) && within(big) && within(whole)
    if (!met) allMet = false
    rows.push([
      a.id,
      `${fmt(bytes / 1024, 0)} KB`,
      sig(token.mbps),
      `${fmt(token.slowdown)}×`,
      sig(big.mbps),
      `${fmt(big.slowdown)}×`,
      sig(whole.mbps),
      `${fmt(whole.slowdown)}×`,
      fmt(token.stats.charsLexed / a.text.length, 2),
      String(token.stats.maxHeldTail),
      `${a.calls.length}${a.diagnostics.length > 0 ? ` + ${a.diagnostics.join(',')}` : ''}${shapeOk ? '' : ' WRONG'}`,
      met ? 'met' : 'NOT MET',
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
      wholeMbps: whole.mbps,
      wholeSlowdown: whole.slowdown,
      calls: a.calls.length,
      diagnostics: a.diagnostics,
      shapeOk,
      met,
    })
  }
  const header = ['input', 'size', 'token MB/s', 'slower', '4096 MB/s', 'slower', 'whole MB/s', 'slower', 'lexed/len', 'held tail', 'calls + diagnostics', `≤ ${TARGETS.adversarialSlowdown}×`]
  console.log(table(header, rows))
  console.log(`slower: time per MB of this input over that of ${fmt(sampleBytes / MB, 2)} MB of ordinary turns (${sample.length}, a fresh sieve each),`)
  console.log('the same chunking, streamed beside it in every round, each half first in turn (medians of the rounds). lexed/len and held tail:')
  console.log('sieve.stats() at token chunks (characters handed to the lexer per input character; largest held tail).')
  for (const make of ADVERSARIAL) {
    const a = make(config.advScale)
    console.log(`  ${a.id}: ${a.label}`)
  }
  // the reference's MB/s, a median over every input's rounds: how fast ordinary turns went in this section
  const mbps = Object.fromEntries(Object.entries(ordinary).map(([id, xs]) => [id, median(xs)]))
  console.log(`Ordinary turns in this section, MB/s: token ${sig(mbps.token!)}, 4096 ${sig(mbps['4096']!)}, whole ${sig(mbps.whole!)}`)
  console.log(`Target: every input within ${TARGETS.adversarialSlowdown}× of ordinary turns: ${allMet ? 'met' : 'NOT MET'}`)
  report.markdown.push(`### Adversarial inputs\n\n${markdownTable(header, rows)}\n`)
  report.results.adversarial = {
    scale: config.advScale,
    reference: { turns: sample.length, bytes: sampleBytes, mbps },
    inputs: adv,
    target: TARGETS.adversarialSlowdown,
    met: allMet,
  }
}
