/**
 * The oracle's block decision, outside the test runner (so long local runs
 * can use it from a script): a block is live exactly when micromark puts
 * its start outside fenced, indented and inline code and outside the raw
 * HTML the guard reads.
 */
import { run } from '../properties/check.js'
import { referenceRanges } from './micromark.js'

/**
 * The documents whose block decision differs from micromark's, described;
 * with `liveOnly`, only those where toolsieve runs what CommonMark makes an
 * example.
 */
export function disagreements(cases: ReadonlyArray<{ text: string; blockStart: number }>, liveOnly = false): string[] {
  const wrong: string[] = []
  for (const { text, blockStart } of cases) {
    const ref = referenceRanges(text)
    const within = (r: { start: number; end: number }) => r.start <= blockStart && blockStart < r.end
    const inCode = [...ref.fenced, ...ref.text, ...ref.indented, ...ref.html].some(within)
    const events = run([text])
    const live = events.some((e) => e.type === 'tool-call' && e.span.start === blockStart)
    if (live === inCode && (!liveOnly || live)) wrong.push(`  ${inCode ? 'example' : 'live'} per CommonMark, toolsieve ${live ? 'live' : 'text'}: ${JSON.stringify(text)}`)
  }
  return wrong
}

