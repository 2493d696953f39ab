/**
 * A bounded run of `npm run fuzz` (same streams, same properties) with a
 * fixed seed, so CI runs the fuzzer on every change within a small budget.
 */
import { describe, expect, it } from 'vitest'
import { fuzz, run } from './check.js'

describe('fuzz (bounded)', () => {
  it('should support 300 streams with every property (default capture limit)', () => {
    const result = fuzz({ streams: 300, seed: 20240601, smallLimits: false })
    if (result.failed) console.error(result.report)
    expect(result).toMatchObject({ failed: false, streams: 300 })
  })

  it('KNOWN GAP: a hold over the capture limit depends on where a chunk cuts the run that ends it', () => {
    // Reported to the lead. "<function_calls" is held after the unmatched "`" (15 units, the limit).
    // One chunk: the closing "`" resolves the hold as a code span first: text, no diagnostic.
    // Cut after the "`": the run could still grow, so it is held too, the hold passes 15 and gives up.
    // When fixed, the two runs agree: replace this case by `smallLimits: true` above.
    const input = '`<function_calls`<'
    const whole = run([input], { captureLimit: 15 })
    const cut = run(['`<function_calls`', '<'], { captureLimit: 15 })
    console.warn(`known gap (hold limit vs chunking): whole=${JSON.stringify(whole)} cut=${JSON.stringify(cut)}`)
    expect(whole.filter((e) => e.type !== 'diagnostic')).toEqual([{ type: 'text', text: input }])
  })
})
