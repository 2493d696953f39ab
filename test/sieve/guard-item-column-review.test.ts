/**
 * The Markdown guard, where a list item's content column ends (CommonMark
 * 5.2): an empty item followed by a blank line is over; a line indented
 * less than the column goes on the item only as a lazy line of its
 * paragraph (none after an empty item or a heading); an item in a block
 * quote holds no line without the quote's marker. The first shapes ran a
 * block that CommonMark reads as code once the line state carried the
 * column (9837d9a, 63c1dc4). Every expectation is checked against micromark
 * first, then run whole, one character at a time, at every split point and
 * in random chunks.
 */
import { describe, expect, it } from 'vitest'
import { referenceRanges } from '../commonmark/micromark.js'
import { expectOneCall, expectText, live } from '../helpers/guard.js'

function inCode(input: string, at: number): boolean {
  const ref = referenceRanges(input)
  return [...ref.fenced, ...ref.text, ...ref.indented].some((r) => r.start <= at && at < r.end)
}

const doc = (s: string): string => s.replaceAll('B', live)

describe('markdown guard: the item column outlives the item', () => {
  it.each([
    // an empty item followed by a blank line is over (CommonMark 5.2: at most one blank line begins an item): the line
    // four columns in is indented code, the one at column 2 opens a fence
    ['an empty bullet item and a blank line', '-\n\n    ```\n    x\n  ```\nB\n```\n'],
    ['an empty ordered item and a blank line', '5)\n\n    ~~~\n   ~~~\nB\n'],
    // a line at column 0 (or indented less) after an item line with no paragraph is no lazy line: the item is over, the
    // line four columns in goes on the new paragraph, whose code span holds the block
    ['an empty item, then a line indented less', '10.\n  a `B\n    ```\n`\n'],
    ['an item holding a heading, then a line at column 0', '- # Setup\nRun `B\n    ```\n`\n'],
    // an item opened in a block quote: its column counts from the quote's content, a lazy line's from the margin
    ['a bullet item in a block quote, then a lazy line four columns in', '> - a `B\n    ```\n`\n'],
  ])('should not support (run) a block after %s', (_label, s) => {
    const input = doc(s)
    expect(inCode(input, input.indexOf(live)), 'CommonMark reads the block as code').toBe(true)
    expectText(input)
  })
})

describe('markdown guard: the item column where CommonMark keeps the item going', () => {
  it.each([
    // a paragraph's lazy line keeps the column; a `#` without its blank is no heading
    ['a lazy line of an item whose text begins with #', '- #hashtag\nmore\n    ~~~\n    B\n'],
    // an item that begins with a blank line holds what is indented to its column
    ['an empty item, then a line at its column', '-\n  ~~~\n  B\n'],
    // after a heading the item goes on past a blank line
    ['an item holding a heading, then a blank line', '- # Setup\n\n    ~~~\n    B\n'],
  ])('should not support (run) a block in a fence after %s', (_label, s) => {
    const input = doc(s)
    expect(inCode(input, input.indexOf(live)), 'CommonMark reads the block as code').toBe(true)
    expectText(input)
  })

  it.each([
    // a line without the quote's marker is no line of an item in the quote: `    ```` there is lazy paragraph text
    ['after a lazy line four columns in, after an item in a block quote', '> 1. a\n    ```\n    B\n'],
  ])('should support a block %s (live)', (_label, s) => {
    const input = doc(s)
    expect(inCode(input, input.indexOf(live)), 'CommonMark reads the block outside code').toBe(false)
    expectOneCall(input)
  })
})
