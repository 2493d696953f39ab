/**
 * White-box: `stringFlag` (`src/lexer/tokens.ts`) tells a parameter tag's
 * `string` attribute apart by char codes in the common shapes and reads
 * the rest by slicing and trimming; either way its answer is the reading
 * written out below, for an `Attr` token's image or any other text.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { stringFlag } from '../../src/lexer/tokens.js'

/** The attribute's name, trimmed and lowered, is `name`: whether its quoted value, with XML blanks trimmed, lowered, is `true` or `false`. */
function reference(image: string, name: string): boolean | null {
  const eq = image.indexOf('=')
  if (image.slice(0, eq).trim().toLowerCase() !== name) return null
  const flag = image.slice(eq + 1).trim().slice(1, -1).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').toLowerCase()
  return flag === 'true' || flag === 'false'
}

const blanks = fc.array(fc.constantFrom(' ', '\t', '\r', '\n'), { maxLength: 3 }).map((a) => a.join(''))
const names = fc.constantFrom('string', 'String', 'STRING', 'name', 'strings', 'strin', 'str-ing', 'x', 'stringx')
const values = fc.constantFrom('true', 'false', 'TRUE', 'False', ' true ', '\u00a0true\u3000', 'tru', 'truee', '', 'yes', '"', 'false ')
const quotes = fc.constantFrom('"', "'")

describe('stringFlag', () => {
  it('should read an attribute image as the slicing reading does', () => {
    const image = fc
      .tuple(fc.constantFrom(' ', '\n', '\t '), names, blanks, blanks, quotes, values)
      .map(([lead, name, before, after, q, value]) => `${lead}${name}${before}=${after}${q}${value}${q}`)
    fc.assert(
      fc.property(image, fc.constantFrom('string', 'name', 'kind'), (img, want) => {
        expect(stringFlag(img, want)).toBe(reference(img, want))
      }),
      { numRuns: 3000 },
    )
  })

  it('should read any other text as the slicing reading does', () => {
    const text = fc.array(fc.constantFrom(' ', '=', '"', "'", 's', 'string', 'true', 'false', 'S', '\n', 'é', '\u212a'), { maxLength: 12 }).map((a) => a.join(''))
    fc.assert(
      fc.property(text, fc.constantFrom('string', 'name'), (img, want) => {
        expect(stringFlag(img, want)).toBe(reference(img, want))
      }),
      { numRuns: 3000 },
    )
  })
})
