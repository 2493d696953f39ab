/**
 * The Markdown guard, a fence in a list item whose content column its
 * marker line sets (CommonMark 5.2): the column is where the item's content
 * begins after the marker and one to four columns of blanks (a tab to its
 * tab stop), or one column past the marker when more follow (the rest is
 * indented code), or past a second marker on the same line. A fence four or
 * more columns in belongs to the item when it stands at most three columns
 * past that column (`10. Run this:` then a fence four columns in); its lines
 * keep the column, and one indented less ends the item and the fence.
 * Every expectation is checked against micromark first (what CommonMark reads
 * as code), then run whole, one character at a time, at every split point
 * and in random chunks.
 */
import { describe, expect, it } from 'vitest'
import { referenceRanges } from '../commonmark/micromark.js'
import { expectOneCall, expectText, live } from '../helpers/guard.js'

/** Whether CommonMark (micromark) reads the block starting at `at` as code. */
function inCode(input: string, at: number): boolean {
  const ref = referenceRanges(input)
  return [...ref.fenced, ...ref.text, ...ref.indented].some((r) => r.start <= at && at < r.end)
}

/** `input` with `B` standing for the block. */
const doc = (s: string): string => s.replaceAll('B', live)

function expectExample(input: string): void {
  expect(inCode(input, input.indexOf(live)), 'CommonMark reads the block as code').toBe(true)
  expectText(input)
}

function expectLive(input: string): void {
  expect(inCode(input, input.indexOf(live)), 'CommonMark reads the block outside code').toBe(false)
  expectOneCall(input)
}

describe('markdown guard: a fence four or more columns in, in a list item whose content column is that far in', () => {
  it.each([
    ['a tilde fence in item 10', '10. Run this:\n    ~~~\n    B\n    ~~~\n'],
    ['a backtick fence in item 10 that the stream ends', '10. Run this:\n    ```\n    B\n'],
    ['a backtick fence in item 10 after a blank line, with a blank line in it', '10. Run this:\n\n    ```xml\n    B\n\n    ```\n'],
    ['a fence indented three columns past the content column of item 10', '10. Run this:\n       ~~~\n       B\n'],
    ['a fence in item 100 (content column five)', '100. Step:\n\n     ~~~\n     B\n     ~~~\n'],
    ['a fence in a bullet item with three spaces after its marker', '-   Step:\n\n    ~~~\n    B\n'],
    ['a fence two columns past a bullet item\'s content column', '- Step:\n\n    ~~~\n    B\n    ~~~\n'],
    ['a fence one column past the content column of item 1', '1. Step:\n\n    ~~~\n    B\n'],
    ['a fence after a lazy line of item 10\'s paragraph', '10. Run this\nmore\n    ~~~\n    B\n'],
    ['the second fence of item 10', '10. Run this:\n    ~~~\n    x\n    ~~~\n    ~~~\n    B\n'],
    ['a fence in item 10 after a CRLF', '10. Run this:\r\n    ~~~\r\n    B\r\n'],
    ['a fence in item 10 of a list', '9. a\n10. Run this:\n    ~~~\n    B\n'],
  ])('should not support (run) a block in %s', (_label, s) => {
    expectExample(doc(s))
  })

  it.each([
    ['after the list ends', '10. Run this:\n    ~~~\n    x\n    ~~~\n\nB'],
    ['on a line indented less than the content column (it ends the item and its fence)', '10. Run this:\n    ~~~\n    x\n  B\n'],
    ['after the fence\'s closer, in the item', '10. Run this:\n    ~~~\n    x\n    ~~~\n    B'],
    ['after a closer three columns past the content column', '10. Run this:\n    ~~~\n    x\n       ~~~\n    B'],
    ['after a fence at column 0 that ended the item', '10. a\n```\nx\n```\nB'],
  ])('should support a block %s (live)', (_label, s) => {
    expectLive(doc(s))
  })
})

describe('markdown guard: a fence on a marker line that sets its content column in an uncommon way', () => {
  it.each([
    ['after an indented marker and four spaces (content column nine)', '   1.    ~~~\n         B\n         ~~~\n'],
    ['after an indented marker and four spaces, a backtick fence the stream ends', '   1.    ```\n         B\n'],
    ['after a tab', '1.\t~~~\n    B\n    ~~~\n'],
    ['after a tab, a backtick fence the stream ends', '1.\t```\n    B\n'],
    ['after a tab, its line indented with a tab', '1.\t~~~\n\tB\n'],
    ['after a bullet and a tab', '-\t~~~\n    B\n'],
    ['after two bullets', '- - ~~~\n    B\n    ~~~\n'],
    ['after two bullets, a backtick fence the stream ends', '- - ```\n    B\n'],
    ['after an ordered marker and a bullet', '1. - ~~~\n     B\n'],
    ['in a block quote opened on the marker line', '- > ~~~\n  > B\n  > ~~~\n'],
    ['in a block quote opened on the marker line, a backtick fence the stream ends', '- > ```\n  > B\n'],
  ])('should not support (run) a block in a fence %s', (_label, s) => {
    expectExample(doc(s))
  })

  it.each([
    ['an indented marker and four spaces: a line indented less ends the item', '   1.    ~~~\n         x\n   B'],
    ['an indented marker and four spaces: after the closer', '   1.    ~~~\n         x\n            ~~~\n         B'],
    ['a tab: after the list ends', '1.\t~~~\n    x\n    ~~~\nB'],
    ['a tab: a line indented less than the content column', '1.\t~~~\n  B'],
    ['two bullets: a line in the outer item only', '- - ~~~\n    x\n  B\n'],
    ['two bullets: after the closer', '- - ~~~\n    x\n    ~~~\n    B'],
    ['a block quote: a line without its marker', '- > ~~~\n  B'],
    ['a block quote: a marker at column 0 (outside the item)', '- > ~~~\n> B'],
    ['a block quote: after the closer', '- > ~~~\n  > x\n  > ~~~\n  > B'],
    ['a block quote: after a blank line', '- > ~~~\n  > x\n\n  > B'],
  ])('should support a block after a fence on a marker line with %s (live)', (_label, s) => {
    expectLive(doc(s))
  })
})
