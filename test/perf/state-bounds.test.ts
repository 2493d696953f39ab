/**
 * The reading state stays bounded (sizes, not times): what a paragraph
 * leaves open is carried in the Markdown state, which the reader consults
 * at every construct and every checkpoint writes out, so it must not grow
 * with the paragraph. (The characters these inputs cost to lex are bounded
 * in `work-bounds.test.ts`.)
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'

/** The checkpoint's size after `input` pushed in 4-character chunks. */
function checkpointAfter(input: string): number {
  const sieve = createSieve()
  for (let i = 0; i < input.length; i += 4) sieve.push(input.slice(i, i + 4))
  return JSON.stringify(sieve.checkpoint()).length
}

describe('bounded reading state (sizes, not times)', () => {
  it.each([
    ['a paragraph of unclosed inline <code> lines', (n: number) => 'The <code> element, see below\n'.repeat(n)],
    ['a tight list of unclosed inline <code> items', (n: number) => '- The <code> element, see below\n'.repeat(n)],
    ['unclosed <code> tags with attributes, one line', (n: number) => 'x <CODE class="a"> '.repeat(n)],
  ])('should support %s with a checkpoint that does not grow with it', (_label, make) => {
    expect(checkpointAfter(make(3000))).toBeLessThanOrEqual(checkpointAfter(make(100)) + 8)
  })
})
