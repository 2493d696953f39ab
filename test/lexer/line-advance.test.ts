/**
 * The line state over a stretch of text (`advanceLines`, `advanceUnlessCode`)
 * jumps ahead: a quiet line is skipped to its next `<` or line feed, and
 * inside an HTML candidate only the candidate moves until the line feed. Both
 * must give exactly what stepping `next` one character at a time gives, from
 * any state the text itself can lead to.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { advanceLines, advanceUnlessCode, next, streamStart } from '../../src/lexer/lines.js'

/** Pieces that move the line state and the HTML candidate: tags, attributes, quotes, markers, fences, indents. */
const piece = fc.constantFrom(
  '<', '>', '<a', '<div class="x">', 'Vec<String>', '<a href=\'`\'>', '<!-- c -->', '<http://x.y>', '</a>', '<a/>',
  '"', "'", '=', ' ', '    ', '\t', '\n', '\r\n', '\n\n', '`', '```', '~~~', '- ', '1. ', '> ', '# ', 'x', 'word', '｜', '＜',
)
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 24 }).map((ps) => ps.join(''))

function stepped(ls: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) ls = next(ls, s.charCodeAt(i))
  return ls
}

describe('line state over a stretch of text', () => {
  it('should support any split of a text: the jumps give what `next` gives, character by character', () => {
    fc.assert(
      fc.property(text, text, fc.nat(), (before, s, k) => {
        // the state the first text leads to, then the second text in two pieces
        const ls = stepped(streamStart, before, 0, before.length)
        const cut = s.length === 0 ? 0 : k % (s.length + 1)
        const mid = advanceLines(ls, s, 0, cut)
        expect(mid).toBe(stepped(ls, s, 0, cut))
        expect(advanceLines(mid, s, cut, s.length)).toBe(stepped(ls, s, 0, s.length))
      }),
      { numRuns: 3000 },
    )
  })

  it('should support finding indented code only where stepping finds it: otherwise the same state', () => {
    fc.assert(
      fc.property(text, text, (before, s) => {
        const ls = stepped(streamStart, before, 0, before.length)
        const got = advanceUnlessCode(ls, s, 0, s.length)
        if (got >= 0) expect(got).toBe(stepped(ls, s, 0, s.length))
      }),
      { numRuns: 2000 },
    )
  })

  it('should support a candidate that spans a line feed and one a blank line voids', () => {
    const ls = stepped(streamStart, 'para ', 0, 5)
    for (const s of ['<a\nhref="x">`', '<a\n\nb>`', 'x <div title="a`b"> y', '<a <b c="`">']) {
      expect(advanceLines(ls, s, 0, s.length)).toBe(stepped(ls, s, 0, s.length))
    }
  })
})
