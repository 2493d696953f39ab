/**
 * `reasoningCalls: 'call'` on random documents as the reasoning (every
 * construct of the generator, a block, a fence left open) followed by an
 * answer: conservation and chunk invariance hold, and the answer reads as
 * it would with no reasoning before it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkConservation, run } from './check.js'
import { chunkBy, chunkSizes, document } from './generator.js'

const opts = { reasoningCalls: 'call' as const }

describe('reasoning sieved for calls', () => {
  it('should support conservation and chunk invariance with any reasoning and any answer', () => {
    fc.assert(
      fc.property(document(8), document(6), chunkSizes, (reasoning, answer, sizes) => {
        const input = `<think>${reasoning.replaceAll('</think>', '')}</think>${answer}`
        const whole = run([input], opts)
        checkConservation(input, whole)
        expect(run(chunkBy(input, sizes), opts)).toEqual(whole)
      }),
      { seed: 1701, numRuns: 200 },
    )
  })

  it('should support the answer read as it would be with no reasoning before it', () => {
    fc.assert(
      fc.property(document(8), document(6), (reasoning, answer) => {
        const think = `<think>${reasoning.replaceAll('</think>', '')}</think>`
        const after = run([think + answer], opts)
        const end = after.findIndex((e) => e.type === 'reasoning-end')
        const shift = (e: (typeof after)[number]) => ('span' in e ? { ...e, span: { start: e.span.start - think.length, end: e.span.end - think.length } } : e)
        expect(after.slice(end + 1).map(shift)).toEqual(run([answer], opts))
      }),
      { seed: 1702, numRuns: 200 },
    )
  })
})
