/**
 * White-box: a character set (`src/sieve/char-set.ts`) finds by a regex scan
 * on long texts and by testing characters one by one on short ones; either
 * way `find` is the first character from `from` on that `has` holds for.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { CharSet } from '../../src/sieve/char-set.js'

/** The first index from `from` on whose character is in `set`, one test per character. */
function reference(set: CharSet, text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (set.has(text.charCodeAt(i))) return i
  return -1
}

// the characters the sets are made of, and others: ASCII, fullwidth forms, CJK, a lone surrogate
const alphabet = ['<', '＜', '｜', '`', '~', '\n', ' ', '\t', 'a', '-', '中', '\ud83d', '\ude00', ']']
const codes = alphabet.map((c) => c.charCodeAt(0))

describe('character sets', () => {
  it('should find what testing each character finds, on short and long texts, from any offset', () => {
    fc.assert(
      fc.property(
        fc.subarray(codes),
        fc.boolean(),
        fc.array(fc.constantFrom(...alphabet), { maxLength: 120 }).map((cs) => cs.join('')),
        fc.nat(),
        (listed, inverted, text, at) => {
          const set = new CharSet(listed, inverted)
          const from = text.length === 0 ? 0 : at % (text.length + 1)
          expect(set.find(text, from)).toBe(reference(set, text, from))
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('should find nothing in an empty set, and the first character in its inverse', () => {
    const long = 'x'.repeat(100)
    expect(new CharSet([]).find(long)).toBe(-1)
    expect(new CharSet([], true).find(long, 7)).toBe(7)
  })
})
