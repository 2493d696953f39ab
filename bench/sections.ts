/**
 * Sections 3–5 of `npm run bench` (see `bench/run.ts`): one parameter value
 * of growing size, the adversarial inputs, and a long stream's heap.
 */
import { performance } from 'node:perf_hooks'
import type { SieveEvent, SieveStats } from '../src/index.js'
import { ADVERSARIAL } from './adversarial.js'
import type { Adversarial } from './adversarial.js'
import { TARGETS, WARM_UP_MS, config } from './config.js'
import { CANONICAL, fixedChunks, generateParameterStream, tokenChunks } from './generate.js'
import { toolsieve } from './lib.js'
import { MB, bytesOf, fmt, gc, geoMean, heapPeak, heapUsed, markdownTable, median, sig, table } from './measure.js'
import { sameCalls, streamPeer, streamSieve, streamSieveSliced, wrong } from './passes.js'
import { PEERS, drainTimers } from './peers.js'
import { generateTurns } from './transcripts.js'

const { createSieve } = toolsieve

/** Where sections put their results: the JSON object and the Markdown lines. */
export interface Report {
  results: Record<string, unknown>
  markdown: string[]
}

// ---------------------------------------------------------------------------
// 3. Scaling

export async function scalingSection(report: Report): Promise<void> {
  console.log('')
  console.log('## 3. Scaling: one parameter value streamed in 4-char chunks (capture limit raised to fit)')
  console.log(`Best of ${Math.max(config.rounds, 5)} passes over all sizes (a small value runs several times a pass), after a warm-up run.`)
  /**
   * Best time of each value size. The sizes take turns, a pass at a time: on a shared machine a slow spell
   * lasting minutes then slows every size's runs alike instead of the few sizes it happened to fall on.
   */
  const streams = (cdata: boolean) =>
    sizes.map((size) => {
      const stream = generateParameterStream(size, { cdata })
      const captureLimit = 4 * size + 4096
      gc()
      const warm = streamSieveSliced(stream.text, 4, captureLimit)
      if (!(sameCalls(warm.calls, stream.calls) && warm.diagnostics.length === 0)) {
        wrong(`scaling ${size / 1024} KB${cdata ? ' CDATA' : ''}: ${warm.calls.length} calls, ${warm.diagnostics.join(',')}`)
      }
      // runs per pass: about 256 KB of value each pass, so the small sizes are not timed on one short run
      return { text: stream.text, captureLimit, reps: Math.max(1, Math.round((256 * 1024) / size)), best: Infinity }
    })
  const sizes: number[] = []
  for (let kb = 64; kb <= config.scaleMaxKb; kb *= 2) sizes.push(kb * 1024)
  const plainRuns = streams(false)
  const cdataRuns = streams(true)
  for (let pass = 0; pass < Math.max(config.rounds, 5); pass++) {
    for (const run of [...plainRuns, ...cdataRuns]) {
      for (let r = 0; r < run.reps; r++) {
        const t0 = performance.now()
        // each chunk sliced as it is pushed (see streamSieveSliced): an array of them all made up front cost the
        // collector copies of the chunks not yet pushed, in the sizes timed once a pass (512 KB and up) only
        streamSieveSliced(run.text, 4, run.captureLimit)
        const dt = performance.now() - t0
        if (dt < run.best) run.best = dt
      }
    }
  }
  const rows: string[][] = []
  const points: Array<Record<string, unknown>> = []
  const ratios: number[] = []
  const cdataRatios: number[] = []
  let prev: { plain: number; cdata: number } | undefined
  for (const [i, size] of sizes.entries()) {
    const plain = plainRuns[i]!.best
    const cdata = cdataRuns[i]!.best
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
  report.markdown.push(`### Scaling (one value, 4-char chunks)\n\n${markdownTable(header, rows)}\n`)

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
    report.markdown.push(`### Peers on one value (4-char chunks, one run each)\n\n${markdownTable(peerHeader, peerRows)}\n`)
  }
  report.results.scaling = { chunk: 4, points, geoMean: geo, cdataGeoMean: cdataGeo, target: TARGETS.doubling, met, peers: peerPoints }
}

// ---------------------------------------------------------------------------
// 4. Adversarial

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

// ---------------------------------------------------------------------------
// 5. Heap

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
