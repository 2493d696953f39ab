/**
 * White-box: the work `streamArguments` does per push stays linear in a
 * block of many parameters or many invokes (src/sieve/call-stream.ts),
 * counted, never timed: the calls asked for something to send, and the
 * elements a key lookup compares. A quadratic path grows with the block; the
 * bounds here are per parameter or per push, so they do not depend on its
 * size.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSieve } from '../../src/index.js'
import { CallStream } from '../../src/sieve/call-stream.js'
import { fixedChunks, tokenChunks } from '../../bench/chunks.js'

const manyParams = (n: number) =>
  '<tool_calls>\n<invoke name="write">\n' + Array.from({ length: n }, (_, i) => `<parameter name="p${i}">value ${i}</parameter>\n`).join('') + '</invoke>\n</tool_calls>'
const manyInvokes = (n: number) =>
  '<tool_calls>\n' + Array.from({ length: n }, (_, i) => `<invoke name="f${i}"><parameter name="p">v${i}</parameter></invoke>\n`).join('') + '</tool_calls>'

function stream(chunks: readonly string[]): number {
  const sieve = createSieve({ streamArguments: true, captureLimit: 8 << 20 })
  let calls = 0
  for (const c of [...chunks.flatMap((chunk) => sieve.push(chunk)), ...sieve.end()]) if (c.type === 'tool-call') calls++
  return calls
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('streamed calls, work per push', () => {
  it('should support a block of many parameters comparing each key with a few, not with every key before it', () => {
    // what an array search of the keys would compare: its length at each call
    let compared = 0
    const includes = Array.prototype.includes
    vi.spyOn(Array.prototype, 'includes').mockImplementation(function (this: unknown[], ...args: [unknown, number?]) {
      compared += this.length
      return includes.apply(this, args)
    })
    const n = 3000
    expect(stream(fixedChunks(manyParams(n), 512))).toBe(1)
    // a search per parameter compared n²/2 = 4.5 million; a set, nothing
    expect(compared / n).toBeLessThan(20)
  })

  it('should support a block of many invokes in token-sized chunks asking only the calls that may still send', () => {
    const send = vi.spyOn(CallStream.prototype as unknown as { send: (c: unknown) => void }, 'send')
    for (const n of [500, 2000]) {
      send.mockClear()
      const chunks = tokenChunks(manyInvokes(n), 7)
      expect(stream(chunks)).toBe(n)
      // at most the open call and the one its closer finished, per push: every call at every push was n per push
      expect(send.mock.calls.length / chunks.length, `${n} invokes`).toBeLessThan(3)
    }
  })
})
