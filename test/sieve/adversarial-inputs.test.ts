/**
 * Inputs built to make a reader hold, re-read or re-parse (one path each:
 * `test/helpers/adversarial-inputs.ts`) give the answer a correct reader
 * gives: the calls they hold, every character out once, the same events
 * pushed whole, one unit at a time and in 4-unit chunks. (These inputs are
 * long, so not the whole chunking matrix; what they cost to read is bounded
 * in `test/perf/`.)
 */
import { describe, expect, it } from 'vitest'
import { ADVERSE } from '../helpers/adversarial-inputs.js'
import { expectConservation, runSieve } from '../helpers/chunking.js'
import { fixedChunks } from '../../bench/chunks.js'

describe('adversarial inputs', () => {
  it.each(ADVERSE.map((c) => [c.name, c] as const))('should support %s: the same answer in every chunking, nothing lost', (_, c) => {
    const whole = runSieve(c.input, [c.input], c.opts)
    expectConservation(c.input, whole)
    if (c.calls !== undefined) expect(whole.filter((e) => e.type === 'tool-call')).toHaveLength(c.calls)
    expect(runSieve(c.input, fixedChunks(c.input, 1), c.opts), 'one unit at a time').toEqual(whole)
    expect(runSieve(c.input, fixedChunks(c.input, 4), c.opts), '4 units').toEqual(whole)
  })
})
