/**
 * The Markdown guard, raw HTML blocks of kinds 3 to 5 (CommonMark 4.6): a
 * line starting (at most 3 spaces in) with `<?` (a processing instruction,
 * to the line holding `?>`), `<!` and an ASCII letter (a declaration, to
 * the line holding `>`) or `<![CDATA[` (to the line holding `]]>`) starts
 * an HTML block that may interrupt a paragraph. Everything to the end of
 * its closer's line is text, and the line after it follows no paragraph: a
 * line four columns in is indented code, as after a comment block (kind 2).
 * Every case runs whole, one character at a time, at every split point and
 * in random chunks (`expectChunkInvariant`).
 */
import { describe, expect, it } from 'vitest'
import { expectChunkInvariant, outline } from '../helpers/chunking.js'
import { SPELLINGS, block } from '../helpers/blocks.js'
import { call, expectOneCall, expectText, live } from '../helpers/guard.js'

/** A block of each kind, closed on its line, for the cases every kind shares. */
const closed = [
  ['a processing instruction (kind 3)', '<?x?>'],
  ['`<?>`, a whole instruction', '<?>'],
  ['a declaration (kind 4)', '<!DOCTYPE x>'],
  ['a lower-case declaration', '<!doctype html>'],
  ['a CDATA section (kind 5)', '<![CDATA[x]]>'],
  ['the comment block the guard already knew (kind 2), for comparison', '<!-- c -->'],
] as const

describe('html guard: HTML blocks of kinds 3, 4 and 5 before indented code', () => {
  it.each(closed)('should support an indented line after %s that interrupts a paragraph as indented code (text)', (_label, html) => {
    expectText('a\n' + html + '\n    ' + live)
  })

  it.each(closed)('should support a tab-indented line after %s as indented code (text)', (_label, html) => {
    expectText('Text\n' + html + '\n\t' + live + '\nok')
  })

  it.each(closed)('should support a real block on an unindented line after %s (live)', (_label, html) => {
    const input = 'a\n' + html + '\n' + live
    expect(outline(expectChunkInvariant(input))).toEqual(['a\n' + html + '\n', call])
  })

  it.each([
    ['`<!` and no letter is no declaration', 'a\n<!1>\n    ' + live],
    ['`<![cdata[` in lower case is no CDATA section', 'a\n<![cdata[x]]>\n    ' + live],
    ['`<?` mid-line is no block (the next line continues the paragraph)', 'Use <?x?> inline:\n    ' + live],
    ['indented four columns after a paragraph line, no block', 'x\n    <?x?>\n    ' + live],
  ])('should not support an indented line as code where no HTML block ended before it (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('html guard: markup inside HTML blocks of kinds 3, 4 and 5', () => {
  it.each([
    ['after the instruction\'s closer on its line', 'a\n<?x?> ' + live + '\nok'],
    ['on the instruction\'s opening line', 'a\n<?x ' + live + ' ?>\nok'],
    ['on a later line, before the closer', '<?x\n' + live + '\n?>\nok'],
    ['interrupting a paragraph', 'Text\n<?php\n' + live + '\n?>\n'],
    ['with blank lines inside', '<?x\n\n' + live + '\n\n?>\n'],
    ['unclosed, running to the end of the stream', 'Notes:\n\n<?x\n' + live],
    ['indented three spaces', '   <?x\n' + live + '\n?>'],
    ['every spelling inside', '<?x\n' + SPELLINGS.map((s) => block(s, [{ name: 'x' }])).join('\n') + '\n?>\n'],
    ['CRLF line endings', 'a\r\n<?x\r\n' + live + '\r\n?>\r\n    ' + live + '\r\nok'],
    ['after an unmatched backtick in the paragraph it interrupts', 'Use ` then\n<?x\n' + live + '\n?>\nok'],
    ['after a declaration\'s closer on its line', 'a\n<!DOCTYPE html> ' + live + '\nok'],
    ['a declaration\'s later line (its `>` ends the block with that line)', 'a\n<!ELEMENT x\n' + live + '\nok'],
    ['a declaration split over lines, then indented code', 'a\n<!ATTLIST x\ny>\n    ' + live],
    ['after a CDATA section\'s closer on its line', 'a\n<![CDATA[x]]> ' + live + '\nok'],
    ['inside a CDATA section over lines (`>` alone does not end it)', '<![CDATA[\n>\n' + live + '\n]]>\nok'],
  ])('should not support (run) a block inside an HTML block of kind 3 to 5 (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['after an instruction closed on a later line', '<?x\ny\n?>\n' + live],
    ['after a CDATA section closed on a later line', '<![CDATA[\ny\n]]>\n' + live],
    ['held after an unmatched backtick, then an instruction interrupting the paragraph', 'Use ` then ' + live + '\n<?x\ny\n?>\n'],
  ])('should support a block outside an HTML block of kind 3 to 5 (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('html guard: inline <code> opened twice and closed once', () => {
  // documented (docs/reference/markdown-guard.md): an inline `<code>` whose own closer never arrives hides nothing,
  // as an unmatched backtick; a `</code>` closes the innermost open `<code>`, so the first one here stays open
  it('should support a block after the first of two <code>s when only the second closes, held to the paragraph\'s end (live, as an unclosed <code>)', () => {
    const input = 'a <code>' + live + ' <code>x</code> b\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['a <code>', call, ' <code>x</code> b\n\nok'])
  })

  it('should not support (run) such a block once the first <code> closes too', () => {
    expectText('a <code>' + live + ' <code>x</code> b</code> c\n\nok')
  })

  it('should support a real block after a properly closed <code>…</code>', () => {
    expectOneCall('a <code>x</code> ' + live)
  })
})
