/**
 * A hand-written SVG bar chart of the transcript benchmark: MB/s by runner,
 * grouped by chunking, on a log scale (the runners span four orders of
 * magnitude). No dependencies; the output is a standalone `.svg` file.
 *
 * `tsx bench/chart.ts [bench/results/latest.json]` re-renders
 * `chart.svg` beside the JSON without running the benchmark again.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface ChartSeries {
  /** Runner label, for the legend. */
  label: string
  color: string
  /** MB/s per group, in group order; `undefined` leaves the slot empty. */
  values: ReadonlyArray<number | undefined>
}

export interface ChartInput {
  title: string
  subtitle: string
  groups: readonly string[]
  series: readonly ChartSeries[]
  /** Lines under the legend. */
  footnote?: readonly string[]
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function label(v: number): string {
  if (v >= 100) return v.toFixed(0)
  if (v >= 10) return v.toFixed(1)
  if (v >= 1) return v.toFixed(2)
  return v.toPrecision(2)
}

export function renderChart(input: ChartInput): string {
  const width = 820
  const height = 470
  const left = 64
  const right = 20
  const top = 70
  const bottom = 126
  const plotW = width - left - right
  const plotH = height - top - bottom

  const all = input.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined && v > 0))
  const lo = Math.floor(Math.log10(Math.min(...all, 1)))
  const hi = Math.ceil(Math.log10(Math.max(...all, 10)))
  const y = (v: number): number => top + plotH - ((Math.log10(v) - lo) / (hi - lo)) * plotH

  const out: string[] = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`,
  )
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`)
  out.push(`<text x="${left}" y="24" font-size="16" font-weight="600" fill="#111">${esc(input.title)}</text>`)
  out.push(`<text x="${left}" y="44" fill="#555">${esc(input.subtitle)}</text>`)

  // Grid lines and labels at each power of ten.
  for (let p = lo; p <= hi; p++) {
    const v = 10 ** p
    const gy = y(v).toFixed(1)
    out.push(`<line x1="${left}" x2="${width - right}" y1="${gy}" y2="${gy}" stroke="#e3e3e3"/>`)
    const tick = p >= 0 ? String(v) : v.toFixed(-p)
    out.push(`<text x="${left - 8}" y="${gy}" text-anchor="end" dominant-baseline="middle" fill="#555">${tick}</text>`)
  }
  out.push(
    `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#555">MB/s (log scale)</text>`,
  )

  const groupW = plotW / input.groups.length
  const n = input.series.length
  const barW = Math.min(34, (groupW - 24) / n)
  input.groups.forEach((group, g) => {
    const x0 = left + g * groupW + (groupW - barW * n) / 2
    input.series.forEach((s, i) => {
      const v = s.values[g]
      if (v === undefined || !(v > 0)) return
      const x = x0 + i * barW
      const by = y(v)
      out.push(
        `<rect x="${(x + 1).toFixed(1)}" y="${by.toFixed(1)}" width="${(barW - 2).toFixed(1)}" ` +
          `height="${(top + plotH - by).toFixed(1)}" fill="${s.color}"><title>${esc(`${s.label}, ${group}: ${label(v)} MB/s`)}</title></rect>`,
      )
      out.push(
        `<text x="${(x + barW / 2).toFixed(1)}" y="${(by - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#333">${label(v)}</text>`,
      )
    })
    out.push(
      `<text x="${(left + g * groupW + groupW / 2).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" fill="#111">${esc(group)}</text>`,
    )
  })
  out.push(`<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#999"/>`)

  // Legend, wrapped to the chart width.
  let lx = left
  let ly = top + plotH + 42
  for (const s of input.series) {
    const w = 24 + s.label.length * 6.6
    if (lx + w > width - right && lx > left) {
      lx = left
      ly += 20
    }
    out.push(`<rect x="${lx}" y="${ly - 10}" width="12" height="12" fill="${s.color}"/>`)
    out.push(`<text x="${lx + 17}" y="${ly}" fill="#111">${esc(s.label)}</text>`)
    lx += w
  }
  ;(input.footnote ?? []).forEach((line, i) => {
    out.push(`<text x="${left}" y="${ly + 26 + i * 15}" font-size="11" fill="#666">${esc(line)}</text>`)
  })
  out.push('</svg>')
  return `${out.join('\n')}\n`
}

/** The parts of `latest.json` the chart reads. */
export interface ResultsForChart {
  machine: { node: string; cpus: number; cpu: string }
  config: { rounds: number; peers: boolean; peerTurnKb: number; peerMb: number; peerBudgetS: number }
  load?: { start: number; end: number }
  transcript?: {
    bytes: number
    chunkings: Array<{
      label: string
      runners: Array<{ id: string; label: string; mbps: number }>
      peers: Array<{ peer: string; sieveMbps: number }>
    }>
  }
}

const COLORS: Record<string, string> = {
  floor: '#9e9e9e',
  toolsieve: '#1f6feb',
  'toolsieve-peer-turns': '#8fb8f7',
  hermes: '#e8912d',
  xml: '#c0392b',
}

/** The chart of a results object, or undefined when it has no transcript section. */
export function chartFromResults(results: ResultsForChart): string | undefined {
  const t = results.transcript
  if (t === undefined || t.chunkings.length === 0) return undefined
  const first = t.chunkings[0]!
  const series: ChartSeries[] = []
  for (const r of first.runners) {
    series.push({
      label: r.label,
      color: COLORS[r.id] ?? '#555',
      values: t.chunkings.map((c) => c.runners.find((x) => x.id === r.id)?.mbps),
    })
    // Beside toolsieve: toolsieve's own pass on the first peer's turns (ordinary turns of at most 32 KB), the like-for-like figure.
    const peer = first.peers[0]
    if (r.id === 'toolsieve' && peer !== undefined) {
      series.push({
        label: `toolsieve on the ${peer.peer} turns`,
        color: COLORS['toolsieve-peer-turns']!,
        values: t.chunkings.map((c) => c.peers.find((p) => p.peer === peer.peer)?.sieveMbps),
      })
    }
  }
  const m = results.machine
  const load = results.load === undefined ? '' : `; load average ${results.load.start.toFixed(1)}–${results.load.end.toFixed(1)}`
  return renderChart({
    title: 'toolsieve vs copy-through floor vs @ai-sdk-tool/parser: MB/s by chunking',
    subtitle: `${(t.bytes / 1024 / 1024).toFixed(0)} MB of assistant turns; node ${m.node}, ${m.cpus} cores, ${m.cpu}; median of ${results.config.rounds} rounds${load}`,
    groups: t.chunkings.map((c) => c.label),
    series,
    footnote: results.config.peers
      ? [
          `Peers (no DSML, no Markdown guard): ordinary turns ≤ ${results.config.peerTurnKb} KB, the first ${results.config.peerMb} MB or ${results.config.peerBudgetS} s of them,`,
          'blocks re-encoded in their formats. toolsieve: all turns, rare 20–200 KB writes included; light blue: the same turns as hermes.',
        ]
      : undefined,
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2] ?? 'bench/results/latest.json'
  const svg = chartFromResults(JSON.parse(readFileSync(file, 'utf8')) as ResultsForChart)
  if (svg === undefined) {
    console.error(`${file} has no transcript results`)
    process.exit(1)
  }
  writeFileSync(join(dirname(file), 'chart.svg'), svg)
  console.log(`wrote ${join(dirname(file), 'chart.svg')}`)
}
