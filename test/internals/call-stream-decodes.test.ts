/**
 * White-box: with `streamArguments`, an invoke is decoded whole once, when
 * it closes (src/sieve/call-stream.ts), and the block's reading takes that
 * decoding (`KnownCalls.settled`, src/sieve/calls.ts) instead of decoding
 * it again, nor parsing its tokens again; a parameter's opening tag is read
 * on its own. Counted, never timed.
 */
import { describe, expect, it, vi } from 'vitest'
import { fixedChunks, tokenChunks } from '../../bench/chunks.js'

const decoded: number[] = []
vi.mock('../../src/values/decode.js', async (original) => {
  const real = await original<typeof import('../../src/values/decode.js')>()
  return { ...real, decodeInvoke: (inv: Parameters<typeof real.decodeInvoke>[0], opts: Parameters<typeof real.decodeInvoke>[1]) => (decoded.push(inv.params.length), real.decodeInvoke(inv, opts)) }
})
// the length of each token list the block grammar parses
const parsedLengths: number[] = []
vi.mock('../../src/parser/block-parser.js', async (original) => {
  const real = await original<typeof import('../../src/parser/block-parser.js')>()
  return { ...real, parseBlock: (lexer: Parameters<typeof real.parseBlock>[0], tokens: Parameters<typeof real.parseBlock>[1]) => (parsedLengths.push(tokens.length), real.parseBlock(lexer, tokens)) }
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

  it('should not parse a streamed block\'s settled invokes twice: the block\'s parse sees each as its opener, an empty tag end and its closer', () => {
    const text = block(3, 200)
    parsedLengths.length = 0
    expect(run([text], false)).toBe(3)
    // without the option: one parse of the whole block
    expect(parsedLengths).toHaveLength(1)
    const whole = parsedLengths[0]!
    parsedLengths.length = 0
    expect(run([text], true)).toBe(3)
    // each invoke's opening tag as it ends (its name), each invoke whole as it closed, then the block with three stand-ins
    const invokes = parsedLengths.slice(0, -1).filter((n) => n > 200)
    expect(parsedLengths).toHaveLength(7)
    expect(invokes).toHaveLength(3)
    expect(invokes.reduce((a, b) => a + b, 0)).toBeLessThan(whole + 3)
    expect(parsedLengths.at(-1)).toBeLessThan(20)
  })
})
