/**
 * What the differential checks (`differential.ts`, `differential-dialects.ts`)
 * compare: a run's events normalised, and where two such strings first differ.
 */
import type { SieveEvent } from '../src/index.js'

/** Events normalised for comparison: adjacent text and reasoning merged, everything else as given (ids are deterministic). */
export function normalised(events: readonly SieveEvent[]): string {
  const out: unknown[] = []
  let text = ''
  let reasoning = ''
  const flush = (): void => {
    if (text !== '') out.push({ type: 'text', text })
    if (reasoning !== '') out.push({ type: 'reasoning', text: reasoning })
    text = ''
    reasoning = ''
  }
  for (const e of events) {
    if (e.type === 'text') {
      if (reasoning !== '') flush()
      text += e.text
    } else if (e.type === 'reasoning') {
      if (text !== '') flush()
      reasoning += e.text
    } else {
      flush()
      out.push(e)
    }
  }
  flush()
  return JSON.stringify(out)
}

/** Where two normalised runs first differ, with some context on each side. */
export function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return `at ${i}: mine …${a.slice(Math.max(0, i - 80), i + 120)}…\n        ref  …${b.slice(Math.max(0, i - 80), i + 120)}…`
}
