/**
 * White-box: with `streamArguments`, an invoke is decoded whole once, when
 * it closes (src/sieve/call-stream.ts), and the block's reading takes that
 * decoding (`KnownCalls.settled`, src/sieve/calls.ts) instead of decoding
 * it again; a parameter's opening tag is read on its own. Counted, never
 * timed.
 */
import { describe, expect, it, vi } from 'vitest'
import { fixedChunks, tokenChunks } from '../../bench/chunks.js'

const decoded: number[] = []
vi.mock('../../src/values/decode.js', async (original) => {
  const real = await original<typeof import('../../src/values/decode.js')>()
  return { ...real, decodeInvoke: (inv: Parameters<typeof real.decodeInvoke>[0], opts: Parameters<typeof real.decodeInvoke>[1]) => (decoded.push(inv.params.length), real.decodeInvoke(inv, opts)) }
})
const { createSieve } = await import('../../src/index.js')

const block = (invokes: number, params: number) =>
  '<tool_calls>\n' +
  Array.from({ length: invokes }, (_, k) => `<invoke name="f${k}">\n` + Array.from({ length: params }, (_, i) => `<parameter name="p${i}" string="true">value ${i}</parameter>\n`).join('') + '</invoke>\n').join('') +
  '</tool_calls>'

function run(chunks: readonly string[], streamArguments: boolean): number {
  const sieve = createSieve({ streamArguments, captureLimit: 8 << 20 })
  let calls = 0
  for (const e of [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]) if (e.type === 'tool-call') calls++
  return calls
}

describe('streamed calls, decodings per block', () => {
  for (const [name, split] of [['whole', (t: string) => [t]], ['4096-character', (t: string) => fixedChunks(t, 4096)], ['token-sized', (t: string) => tokenChunks(t, 3)]] as const) {
    it(`should support each invoke of ${name} chunks decoded whole once, as without the option`, () => {
      const text = block(3, 200)
      decoded.length = 0
      expect(run(split(text), false)).toBe(3)
      expect(decoded.filter((n) => n === 200)).toHaveLength(3)
      decoded.length = 0
      expect(run(split(text), true)).toBe(3)
      // whole once each, and each opening tag once (its name, as the tag ends); a parameter's tag is read on its own
      // and a string value streams, so no decoding of one parameter
      expect(decoded.filter((n) => n === 200)).toHaveLength(3)
      expect(decoded.filter((n) => n !== 200)).toEqual([0, 0, 0])
    })
  }
})
