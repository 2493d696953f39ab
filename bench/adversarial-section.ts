/**
 * Section 4 of `npm run bench` (see `bench/run.ts`): the adversarial inputs
 * (`bench/adversarial.ts`), each beside the ordinary transcript's MB/s in the
 * same chunking, with the sieve's own counters to show where the time goes.
 */
import { performance } from 'node:perf_hooks'
import type { SieveStats } from '../src/index.js'
import { ADVERSARIAL } from './adversarial.js'
import type { Adversarial } from './adversarial.js'
import { fixedChunks, tokenChunks } from './chunks.js'
import { TARGETS, WARM_UP_MS, config } from './config.js'
import { MB, bytesOf, fmt, gc, markdownTable, median, sig, table } from './measure.js'
import type { Report } from './measure.js'
import { sameCalls, streamSieve, wrong } from './passes.js'

export async function adversarialSection(report: Report, ordinary: Record<string, number>): Promise<void> {
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
    // whole: the input in one push, as a caller with a finished (not streamed) response gives it
    for (const id of ['token', '4096', 'whole']) {
      const chunks = id === 'token' ? tokenChunks(a.text, config.seed) : id === 'whole' ? [a.text] : fixedChunks(a.text, 4096)
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
    const whole = cells.whole!
    const within = (c: { slowdown: number }): boolean => Number.isNaN(c.slowdown) || c.slowdown <= TARGETS.adversarialSlowdown
    const met = Number.isNaN(token.slowdown) || (within(token) && within(big) && within(whole))
    if (!met) allMet = false
    rows.push([
      a.id,
      `${fmt(bytes / 1024, 0)} KB`,
      sig(token.mbps),
      Number.isNaN(token.slowdown) ? '-' : `${fmt(token.slowdown)}×`,
      sig(big.mbps),
      Number.isNaN(big.slowdown) ? '-' : `${fmt(big.slowdown)}×`,
      sig(whole.mbps),
      Number.isNaN(whole.slowdown) ? '-' : `${fmt(whole.slowdown)}×`,
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
  console.log('slower: the ordinary transcript\'s MB/s (same chunking, section 1) over this input\'s. lexed/len and held tail:')
  console.log('sieve.stats() at token chunks (characters handed to the lexer per input character; largest held tail).')
  for (const make of ADVERSARIAL) {
    const a = make(config.advScale)
    console.log(`  ${a.id}: ${a.label}`)
  }
  if (ordinary.token !== undefined) {
    console.log(`Target: every input within ${TARGETS.adversarialSlowdown}× of the ordinary transcript: ${allMet ? 'met' : 'NOT MET'}`)
  }
  report.markdown.push(`### Adversarial inputs\n\n${markdownTable(header, rows)}\n`)
  report.results.adversarial = { scale: config.advScale, ordinary, inputs: adv, target: TARGETS.adversarialSlowdown, met: ordinary.token === undefined ? null : allMet }
}
