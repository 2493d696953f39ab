/**
 * A bounded run of `npm run fuzz` (same streams, same properties) with a
 * fixed seed, so CI runs the fuzzer on every change within a small budget.
 */
import { describe, expect, it } from 'vitest'
import { fuzz, run } from './check.js'

describe('fuzz (bounded)', () => {
  it('should support 300 streams with every property (default and small capture limits)', () => {
    const result = fuzz({ streams: 300, seed: 20240601, smallLimits: true })
    if (result.failed) console.error(result.report)
    expect(result).toMatchObject({ failed: false, streams: 300 })
  })

  it('should support a hold over the capture limit the same whether or not a chunk cuts the run that ends it', () => {
    // "<function_calls" and the spaces after it are held after the unmatched "`" (47 units, the limit, the smallest
    // there is); the closing "`" resolves the hold as a code span. Cut after that "`", the run could still grow: it
    // must be judged when it ends, as in one chunk.
    const head = '`<function_calls' + ' '.repeat(32) + '`'
    const input = head + '<'
    const whole = run([input], { captureLimit: 47 })
    expect(whole).toEqual([{ type: 'text', text: input }])
    expect(run([head, '<'], { captureLimit: 47 })).toEqual(whole)
  })
})
