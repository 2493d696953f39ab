/**
 * What `bench` adds up and prints: the totals by chunking, the slowest
 * turns, peak memory and the speed-up, as a table or (`--json`) one object.
 */
import type { BatchResult } from './bench-run.js'

const MB = 1024 * 1024

export interface ChunkingSummary {
  /** UTF-8 MB (2^20 bytes) per second of the sieve's own time in this chunking, one thread's view (as `npm run bench` reports). */
  mbps: number
  ms: number
  turns: number
  calls: number
  diagnostics: Record<string, number>
}

export interface BenchSummary {
  files: { file: string; format: string; turns: number; bytes: number }[]
  bytes: number
  turns: number
  /** Input lines that held no turn (skipped). */
  unreadable: number
  /** The threads that ran batches: at most `--jobs`, the cores and the batches (1 with `--jobs 1`). */
  jobs: number
  wallMs: number
  /** All chunkings' input over the wall time: what the jobs together got through. */
  wallMbps: number
  /**
   * The threads' busy time over the wall time: how many turns ran at once, on
   * average. 1 with `--jobs 1`; at most the jobs (less when the reader or a
   * shared machine holds them back).
   */
  speedup: number
  /**
   * CPU time the process got (user + system, all threads, start-up included),
   * ms. Over `wallMs` it says how many cores the machine gave: on a shared
   * machine a speed-up can be no larger.
   */
  cpuMs: number
  /** Peak resident memory of the process (all threads), MB. */
  peakRssMB: number
  chunkings: Record<string, ChunkingSummary>
  /** The chunkings' names in the order given (`chunkings` is keyed by them). */
  order: string[]
  /** The slowest turns over all chunkings. */
  slowest: { where: string; bytes: number; ms: number; mbps: number }[]
}

/** Sums batch results as they arrive; keeps only the slowest `top` turns. */
export class Totals {
  bytes = 0
  turns = 0
  busyMs = 0
  readonly byChunking: { ms: number; calls: number; diagnostics: Map<string, number> }[]
  private slowest: [string, number, number][] = []

  constructor(
    readonly names: readonly string[],
    private readonly top: number,
  ) {
    this.byChunking = names.map(() => ({ ms: 0, calls: 0, diagnostics: new Map() }))
  }

  add(r: BatchResult): void {
    this.bytes += r.bytes
    this.turns += r.turns
    this.busyMs += r.busyMs
    r.chunkings.forEach((t, i) => {
      const c = this.byChunking[i]!
      c.ms += t.ms
      c.calls += t.calls
      for (const [code, n] of Object.entries(t.diagnostics)) c.diagnostics.set(code, (c.diagnostics.get(code) ?? 0) + n)
    })
    if (this.top === 0) return
    for (const turn of r.perTurn) this.slowest.push(turn)
    // Sorted and cut only once the list is well past the size kept, so each turn costs O(1) on average.
    if (this.slowest.length > this.top * 8 + 64) this.cut()
  }

  private cut(): void {
    this.slowest.sort((a, b) => b[2] - a[2])
    this.slowest.length = Math.min(this.slowest.length, this.top)
  }

  summary(files: BenchSummary['files'], unreadable: number, jobs: number, wallMs: number, cpuMs: number, peakRssMB: number): BenchSummary {
    this.cut()
    const chunkings: Record<string, ChunkingSummary> = {}
    this.names.forEach((name, i) => {
      const c = this.byChunking[i]!
      chunkings[name] = {
        mbps: c.ms > 0 ? this.bytes / MB / (c.ms / 1000) : 0,
        ms: c.ms,
        turns: this.turns,
        calls: c.calls,
        diagnostics: Object.fromEntries([...c.diagnostics].sort((a, b) => b[1] - a[1])),
      }
    })
    return {
      files,
      bytes: this.bytes,
      turns: this.turns,
      unreadable,
      jobs,
      wallMs,
      wallMbps: wallMs > 0 ? (this.bytes * this.names.length) / MB / (wallMs / 1000) : 0,
      speedup: wallMs > 0 ? this.busyMs / wallMs : 1,
      cpuMs,
      peakRssMB,
      chunkings,
      order: [...this.names],
      slowest: this.slowest.map(([where, bytes, ms]) => ({ where, bytes, ms, mbps: ms > 0 ? bytes / MB / (ms / 1000) : 0 })),
    }
  }
}

const fmt = (n: number, digits = 1): string => (n >= 100 ? n.toFixed(0) : n.toFixed(digits))

/** The summary as a few lines and tables for a terminal. */
export function renderSummary(s: BenchSummary): string {
  const lines: string[] = []
  lines.push(`${s.files.length} file${s.files.length === 1 ? '' : 's'}, ${s.turns} turns, ${fmt(s.bytes / MB, 2)} MB${s.unreadable > 0 ? `, ${s.unreadable} unreadable lines skipped` : ''}`)
  lines.push('')
  // In the order given: an object lists a key like 4096 before the others.
  const rows = s.order.map((name) => [name, s.chunkings[name]!] as const).map(([name, c]) => {
    const codes = Object.entries(c.diagnostics).map(([code, n]) => `${code} ${n}`).join(', ')
    return [name, fmt(c.mbps), String(c.calls), codes === '' ? 'none' : codes]
  })
  lines.push(...table(['chunking', 'MB/s', 'calls', 'diagnostics'], rows, [0, 3]))
  lines.push('')
  lines.push(`${s.jobs} job${s.jobs === 1 ? '' : 's'}: ${(s.wallMs / 1000).toFixed(2)} s wall, ${fmt(s.wallMbps)} MB/s over all chunkings, speed-up ${s.speedup.toFixed(2)}× (busy time over wall time)`)
  lines.push(`CPU: ${(s.cpuMs / 1000).toFixed(2)} s, ${(s.cpuMs / s.wallMs).toFixed(2)} cores busy on average (a shared machine may give fewer than the jobs)`)
  lines.push(`peak memory (RSS): ${fmt(s.peakRssMB)} MB`)
  if (s.slowest.length > 0) {
    lines.push('')
    lines.push('slowest turns (all chunkings):')
    lines.push(...table(['turn', 'KB', 'ms', 'MB/s'], s.slowest.map((t) => [t.where, fmt(t.bytes / 1024), fmt(t.ms), fmt(t.mbps)])))
  }
  return lines.join('\n') + '\n'
}

/** Columns padded to their widest cell; figures line up on the right, the `left` columns (names) on the left. */
function table(header: readonly string[], rows: readonly (readonly string[])[], left: readonly number[] = [0]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  return [line(header), ...rows.map(line)]
}
