/**
 * Section 3 of `npm run bench` (see `bench/run.ts`): one parameter value of
 * growing size, so a cost that grows faster than the input shows as a time
 * ratio per doubling above 2; the peers on the same kind of input beside it.
 */
import { performance } from 'node:perf_hooks'
import { fixedChunks } from './chunks.js'
import { TARGETS, config } from './config.js'
import { MB, fmt, gc, geoMean, markdownTable, sig, table } from './measure.js'
import type { Report } from './measure.js'
import { generateParameterStream } from './parameter-stream.js'
import { sameCalls, streamPeer, streamSieveSliced, wrong } from './passes.js'
import { PEERS, drainTimers } from './peers.js'
import { CANONICAL } from './spellings.js'

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
