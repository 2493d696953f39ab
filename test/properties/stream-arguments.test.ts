/**
 * `streamArguments` on random documents (every construct of the generator)
 * in random chunkings and capture limits: the streaming invariants hold
 * (`checkStreamed`), and the calls, text and diagnostics are those of a sieve
 * without the option, in any chunking; a block whose streamed arguments would
 * change (a parameter given twice) is the one allowed difference, and it is text.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { checkStreamed, comparable, streamed, unstreamed } from '../helpers/streamed.js'
import { chunkBy, chunkSizes, document } from './generator.js'

const settings = (seed: number, numRuns = 150) => ({ seed, numRuns })

describe('streamed call properties', () => {
  it('should support every start ending once, deltas that concatenate to the arguments, and the events of a sieve without the option', () => {
    fc.assert(
      fc.property(document(), chunkSizes, fc.constantFrom(undefined, 64, 200), (input, sizes, captureLimit) => {
        const opts = captureLimit === undefined ? {} : { captureLimit }
        const chunks = chunkBy(input, sizes)
        const s = streamed(chunks, opts)
        const changed = s.rest.some((e) => e.type === 'diagnostic' && e.code === 'streamed-arguments-changed')
        if (!changed) expect(comparable(s.rest)).toEqual(comparable(unstreamed(chunks, opts)))
        // whatever the chunking, the same calls, text and diagnostics
        expect(comparable(s.rest)).toEqual(comparable(streamed([input], opts).rest))
      }),
      settings(1601, 300),
    )
  })

  it('should support every abort followed by a diagnostic with its code (the markup follows as text, saying why)', () => {
    // starts themselves depend on the chunking: a block that breaks within one push never started
    fc.assert(
      fc.property(document(), chunkSizes, fc.constantFrom(undefined, 64), (input, sizes, captureLimit) => {
        let n = 0
        const sieve = createSieve({ streamArguments: true, captureLimit, generateId: () => `id${n++}` })
        const events = [...chunkBy(input, sizes).flatMap((c) => sieve.push(c)), ...sieve.end()]
        checkStreamed(events)
        events.forEach((e, i) => {
          if (e.type !== 'tool-call-abort') return
          const later = events.slice(i + 1).filter((x) => x.type === 'diagnostic').map((x) => (x as { code: string }).code)
          expect(later, `abort ${e.code}`).toContain(e.code)
        })
      }),
      settings(1602),
    )
  })

  it('should support one character at a time on short documents', () => {
    fc.assert(
      fc.property(document(4), (input) => {
        const s = streamed(Array.from({ length: input.length }, (_, i) => input.charAt(i)))
        expect(comparable(s.rest)).toEqual(comparable(streamed([input]).rest))
      }),
      settings(1603, 200),
    )
  })
})
