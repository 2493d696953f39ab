/**
 * The Markdown guard's state stays bounded (counters and sizes, not times):
 * what a paragraph leaves open is carried in the Markdown state, which every
 * token copies and searches and every checkpoint writes out, so it must not
 * grow with the paragraph.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../src/index.js'

/** The checkpoint's size after `input` pushed in 4-character chunks, and the characters lexed. */
function after(input: string): { checkpoint: number; lexed: number } {
  const sieve = createSieve()
  for (let i = 0; i < input.length; i += 4) sieve.push(input.slice(i, i + 4))
  const checkpoint = JSON.stringify(sieve.checkpoint()).length
  sieve.end()
  return { checkpoint, lexed: sieve.stats().charsLexed }
}

describe('linearity of the Markdown state (sizes, not times)', () => {
  it.each([
    ['a paragraph of unclosed inline <code> lines', (n: number) => 'The <code> element, see below\n'.repeat(n)],
    ['a tight list of unclosed inline <code> items', (n: number) => '- The <code> element, see below\n'.repeat(n)],
    ['unclosed <code> tags with attributes, one line', (n: number) => 'x <CODE class="a"> '.repeat(n)],
  ])('should support %s with a checkpoint that does not grow with it, lexed at most 3 × its length', (_label, make) => {
    const small = after(make(100))
    const large = after(make(3000))
    expect(large.checkpoint).toBeLessThanOrEqual(small.checkpoint + 8)
    expect(large.lexed).toBeLessThanOrEqual(3 * make(3000).length)
  })
})
