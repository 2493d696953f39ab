/**
 * Measuring helpers for `bench/run.ts`: garbage collection on demand, a heap
 * peak sampler, medians, the machine description, plain-text tables, and the
 * report each section writes its results into.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
/** A full garbage collection (`--expose-gc`, switched on at run time). */
export const gc = runInNewContext('gc') as () => void

export const MB = 1024 * 1024

export const heapUsed = (): number => process.memoryUsage().heapUsed

/**
 * The largest `heapUsed` seen since `reset()`. Runners call `sample()` every
 * few thousand chunks and after every turn, so a capture held inside one turn
 * shows up too.
 */
export const heapPeak = {
  value: 0,
  reset(): void {
    this.value = heapUsed()
  },
  sample(): void {
    const h = heapUsed()
    if (h > this.value) this.value = h
  },
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

export function geoMean(xs: readonly number[]): number {
  return Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length)
}

export const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8')

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return '-'
  return n.toFixed(digits)
}

/** Three significant figures, for MB/s that run from 0.05 to 5000. */
export function sig(n: number): string {
  if (!Number.isFinite(n)) return '-'
  if (n >= 100) return n.toFixed(0)
  if (n >= 10) return n.toFixed(1)
  if (n >= 1) return n.toFixed(2)
  return n.toPrecision(2)
}

export interface Machine {
  node: string
  cpus: number
  cpu: string
  platform: string
  date: string
  commit: string
}

export function machine(): Machine {
  let cpu = 'unknown'
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (match?.[1] !== undefined) cpu = match[1].trim()
  } catch {
    // Not Linux: leave it unknown.
  }
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'grammar'], { encoding: 'utf8' }).trim()
    if (dirty !== '') commit += ' (src modified)'
  } catch {
    // Not a git checkout.
  }
  return {
    node: process.version,
    cpus: availableParallelism(),
    cpu,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    commit,
  }
}

/** Where sections put their results: the JSON object and the Markdown lines. */
export interface Report {
  results: Record<string, unknown>
  markdown: string[]
}

/** A plain-text table: first column left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** The same rows as a Markdown table. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|')
  const line = (cells: readonly string[]): string => `| ${cells.map(esc).join(' | ')} |`
  return [line(header), `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map(line)].join('\n')
}
