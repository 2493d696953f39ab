/**
 * `abort()` at any point of a random stream (any document, any chunking,
 * reasoning before it or not, with `streamArguments`, `reasoningCalls:
 * 'call'` and small capture limits): text + reasoning + raw of calls is the
 * input pushed so far, no call comes out of `abort()`, and every started
 * call ends in its call or its abort.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'
import { checkConservation, merge } from './check.js'
import { chunkBy, chunkSizes, document } from './generator.js'

const options: fc.Arbitrary<SieveOptions> = fc.record({
  streamArguments: fc.boolean(),
  reasoningCalls: fc.constantFrom('text' as const, 'call' as const),
  startInReasoning: fc.boolean(),
  captureLimit: fc.constantFrom(undefined, 64, 200),
})

const stream = fc.record({
  opener: fc.constantFrom('', '<think>', '  <think>'),
  body: document(10),
  closer: fc.constantFrom('', '</think>'),
  answer: document(6),
  sizes: chunkSizes,
  at: fc.nat(),
  options,
})

describe('abort properties', () => {
  it('should support abort at any chunk edge: text + reasoning + raw = the input pushed, no call from what was held', () => {
    fc.assert(
      fc.property(stream, ({ opener, body, closer, answer, sizes, at, options: o }) => {
        const input = opener + body + closer + answer
        const chunks = chunkBy(input, sizes)
        const k = at % (chunks.length + 1)
        const sieve = createSieve(o)
        const pushed: SieveEvent[] = []
        for (const chunk of chunks.slice(0, k)) pushed.push(...sieve.push(chunk))
        const abort = sieve.abort()
        const all = [...pushed, ...abort]
        checkConservation(chunks.slice(0, k).join(''), merge(all))
        expect(abort.filter((e) => e.type === 'tool-call' || e.type === 'tool-call-start' || e.type === 'tool-call-delta')).toEqual([])
        const started = all.filter((e) => e.type === 'tool-call-start').map((e) => e.id)
        const ended = all.filter((e) => e.type === 'tool-call' || e.type === 'tool-call-abort').map((e) => e.id)
        if (o.streamArguments === true) expect(ended).toEqual(started)
        expect(sieve.abort()).toEqual([])
        expect(() => sieve.push('x')).toThrow(expect.objectContaining({ code: 'sieve-finished' }))
      }),
      { seed: 4201, numRuns: 400 },
    )
  })

  it('should support abort after pushing all of a stream: the calls are those its pushes gave, nothing more', () => {
    fc.assert(
      fc.property(stream, ({ opener, body, closer, answer, sizes, options: o }) => {
        const input = opener + body + closer + answer
        const sieve = createSieve(o)
        const pushed: SieveEvent[] = []
        for (const chunk of chunkBy(input, sizes)) pushed.push(...sieve.push(chunk))
        const abort = sieve.abort()
        checkConservation(input, merge([...pushed, ...abort]))
        expect(abort.some((e) => e.type === 'tool-call')).toBe(false)
      }),
      { seed: 4202, numRuns: 200 },
    )
  })
})
