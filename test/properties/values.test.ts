/**
 * Properties of DeepSeek-native values (`values.ts`): whatever markup-like
 * text a `string` value holds, the block gives exactly one call whose
 * input is the text as written, in any chunking, and nothing is lost.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkConservation, run } from './check.js'
import { chunkBy, chunkSizes } from './generator.js'
import { nativeBlock } from './values.js'

describe('native value properties', () => {
  it('should support any markup-like text in a string value as its exact text, in any chunking', () => {
    fc.assert(
      fc.property(fc.constantFrom('', 'Sure.', 'See `x` and <b>.'), nativeBlock, chunkSizes, (before, block, sizes) => {
        const input = before + block.text
        const whole = run([input])
        checkConservation(input, whole)
        const found = whole.filter((e) => e.type === 'tool-call')
        expect(found).toHaveLength(1)
        expect(found[0]!.type === 'tool-call' && found[0]!.input).toEqual(block.input)
        expect(whole.filter((e) => e.type === 'diagnostic')).toEqual([])
        expect(run(chunkBy(input, sizes))).toEqual(whole)
      }),
      { seed: 141, numRuns: 400 },
    )
  })

  it('should support a native block as the value of an outer plain block only as text (no call from inside a value)', () => {
    fc.assert(
      fc.property(nativeBlock, (block) => {
        const input = `<tool_calls><invoke name="outer"><parameter name="p">${block.text}</parameter></invoke></tool_calls>`
        const events = run([input])
        checkConservation(input, events)
        expect(events.filter((e) => e.type === 'tool-call' && e.name === 'tool')).toEqual([])
      }),
      { seed: 142, numRuns: 200 },
    )
  })
})
