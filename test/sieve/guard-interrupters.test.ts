/**
 * The Markdown guard, paragraph interrupters: a code span cannot cross a
 * paragraph's end (CommonMark 6.1), and a list item or an ATX heading may
 * end a paragraph without a blank line. A bullet item with content, or an
 * ordered one numbered `1` with content, interrupts a paragraph (5.2), as
 * does an ATX heading (4.2); an ordered item numbered otherwise, or an empty
 * item, does not: its line is paragraph text (`14. The number of doors`).
 * Inside a list a marker is taken as the next item's, whatever its number.
 * Every case runs whole, one character at a time, at every split point and
 * in random chunks (`expectChunkInvariant`).
 */
import { describe, expect, it } from 'vitest'
import { callEvents, expectChunkInvariant } from '../helpers/chunking.js'
import { expectOneCall, expectText, live } from '../helpers/guard.js'

/** `input` gives one call for each `live` block starting at the offsets `at`, and nothing else runs, in every chunking. */
function expectCallsAt(input: string, at: number[]): void {
  expect(callEvents(expectChunkInvariant(input)).map((c) => c.span.start)).toEqual(at)
}

describe('markdown guard: a list item or heading that interrupts a paragraph ends its pending code span', () => {
  it.each([
    ['a bullet item', 'a `b\n- `' + live + '`'],
    ['a bullet item after prose that mentions a backtick', 'Type ` to start code.\n- Example: `' + live + '`'],
    ['a `+` item', 'a `b\n+ `' + live + '`'],
    ['a `*` item', 'a `b\n* `' + live + '`'],
    ['an item indented three spaces', 'a `b\n   - `' + live + '`'],
    ['an item with five spaces after its marker', 'a `b\n-     x `' + live + '`'],
    ['an item whose content is an empty item', 'a `b\n- - `' + live + '`'],
    ['an ordered item numbered 1, then a lazy continuation line', 'a `b\n1. c\n`' + live + '`'],
    ['an ordered item `1)`', 'a `b\n1) `' + live + '`'],
    ['a bullet item ending a block quote\'s paragraph, then a lazy line', '> a `b\n- c\n`' + live + '`'],
    ['an item inside a block quote', '> a `b\n> - `' + live + '`'],
    ['the next item of an ordered list', '1. a `b\n2. `' + live + '`'],
    ['an ATX heading', 'a `b\n# `' + live + '`'],
    ['an ATX heading of level 2', 'a `b\n## `' + live + '`'],
    ['an ATX heading with a tab after its `#`', 'a `b\n#\t`' + live + '`'],
    ['an item after a CRLF', 'a `b\r\n- `' + live + '`'],
    ['an item after a CR', 'a `b\r- `' + live + '`'],
  ])('should not support (run) a block in a code span on %s', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a bullet item', 'a `b ' + live + '\n- c\n'],
    ['a bullet item with a backtick run', 'a `b ' + live + '\n- c` d\n'],
    ['an ATX heading with a backtick run', 'a `b ' + live + '\n# c` d\n'],
    ['an ordered item numbered 1 with a backtick run', 'a `b ' + live + '\n1. c` d\n'],
    ['a second item with a backtick run', 'a `b ' + live + '\n- c\n- d` e'],
    ['a setext underline (for comparison)', 'a `b ' + live + '\n-\n` d'],
  ])('should support a block held after an unmatched backtick when %s ends the paragraph (live)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('markdown guard: a list marker that cannot interrupt a paragraph is paragraph text', () => {
  it('should support an inline run after `2.` on a paragraph line (the block in its code span is text)', () => {
    expectText('Intro.\n2. ```\n' + live + '\nend ```')
  })

  it('should support a fence after `2)` on a paragraph line: the paragraph\'s block is live, the fence\'s is text', () => {
    const input = 'Sure.\n2) ```\n   ' + live + '\n   ```\n\n' + live
    expectCallsAt(input, [input.indexOf(live)])
  })

  it.each([
    ['`2)`', 'Intro:\n2) b\n\n    ' + live],
    ['`10.`', 'Intro:\n10. b\n\n    ' + live],
    ['`01.`', 'Intro:\n01. b\n\n    ' + live],
    ['an empty `1.`', 'Intro:\n1.\n\n    ' + live],
    ['an empty `1. `', 'Intro:\n1. \n\n    ' + live],
    ['an empty `+`', 'Intro:\n+\n\n    ' + live],
    ['an empty `* `', 'Intro:\n* \n\n    ' + live],
  ])('should support indented code after a paragraph line starting with %s (no list item)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['`2.`', 'a `b ' + live + '\n2. c` d\n'],
    ['an empty `*`', 'a `b ' + live + '\n*\n` d'],
  ])('should not support (run) a held block whose code span closes after %s on a paragraph line', (_label, input) => {
    expectText(input)
  })
})

describe('markdown guard: a list marker after a block quote\'s paragraph starts a list', () => {
  // the quote's paragraph is in another container: a line without its marker that starts a list item is no
  // lazy continuation, whatever the item's number, and the quote ends (commonmark.js and micromark agree)
  it.each([
    ['`2.` and a fence', '> a\n2. ```\n    ' + live + '\n'],
    ['`10)` and a longer fence', '> quoted para\n10) ````\n    ' + live + '\n    ````\n'],
    ['`2)` and a tilde fence, the quote two lines long', '> a\n> b\n2) ~~~\n   ' + live + '\n'],
    ['`2.` after a lazy line of the quote\'s paragraph', '> a\nb\n2. ```\n   ' + live],
    ['`2.` after two lazy lines', '> a\n> b\nc\nd\n2. ```\n   ' + live],
  ])('should not support (run) a block in the code of an item after a quote: %s', (_label, input) => {
    expectText(input)
  })

  it('should support a block on a lazy line of the quote\'s paragraph (no marker: the paragraph goes on)', () => {
    const input = '> a\nb ' + live
    expectCallsAt(input, [input.indexOf(live)])
  })
})

describe('markdown guard: what paragraph interrupters leave as it was', () => {
  it.each([
    ['a `-` mid-line', 'a `b\nc - `' + live + '`'],
    ['a paragraph line', 'a `b\nc `' + live + '`'],
    ['an item indented four columns', 'a `b\n    - `' + live + '`'],
    ['an item after a tab', 'a `b\n\t- `' + live + '`'],
    ['`#5`, no heading', 'a `b\n#5 `' + live + '`'],
    ['`--`, no item', 'a `b\n-- `' + live + '`'],
    ['`10.`, no item that may interrupt', 'a `b\n10. `' + live + '`'],
  ])('should support a block after a code span that closes on %s (live)', (_label, input) => {
    expectOneCall(input)
  })

  it.each([
    ['on the same line', 'a `b ' + live + ' c` d'],
    ['on a paragraph continuation line', 'a `b ' + live + '\nc` d'],
    ['on a lazy continuation line of a block quote', '> a `b ' + live + '\nc` d'],
  ])('should not support (run) a held block whose code span closes %s', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['an empty heading', 'a `b\n#\n`' + live + '`'],
    ['a setext underline', 'a `b\n-\n`' + live + '`'],
    ['a thematic break', 'a `b\n* * *\n`' + live + '`'],
  ])('should not support (run) a block in a code span after %s', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['the next item of an ordered list', '1. a `b ' + live + '\n2. c` d'],
    ['the next item of a list in a block quote', '> 1. a `b ' + live + '\n> 2. c` d'],
  ])('should support a block held after an unmatched backtick when %s ends the paragraph (live)', (_label, input) => {
    expectOneCall(input)
  })

  it.each([
    ['`2.` indented into an ordered item', '1. a `b ' + live + '\n   2. c` d'],
    ['`2.` indented into a bullet item', '- a `b ' + live + '\n  2. c` d'],
  ])('should not support (run) a held block whose code span closes on %s (paragraph text there)', (_label, input) => {
    expectText(input)
  })

  it('should not support (run) a block in a code span after an empty next item of a list', () => {
    expectText('1. a `b\n2.\n`' + live + '`')
  })

  it('should support `2.` after a blank line as a list item (its indented line is the item\'s paragraph: live)', () => {
    expectOneCall('a\n\n2. x\n\n    ' + live)
  })

  it('should support `* *` after a paragraph line as a list item (its indented line is the item\'s paragraph: live)', () => {
    expectOneCall('a\n* *\n\n    ' + live)
  })

  it.each([
    ['after `1.`', '1. a\n2. ```\n   ' + live + '\n   ```'],
    ['after a bullet item', '- a\n2. ```\n   ' + live + '\n   ```'],
  ])('should support a fence on the next list item\'s marker line %s (text)', (_label, input) => {
    expectText(input)
  })
})
