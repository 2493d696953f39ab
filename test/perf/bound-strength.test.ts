/**
 * The bounds are tight enough to catch what they are for: readers that
 * read again, on every push, what grows with the text. Each such reader is
 * simulated over the same pushes as the sieve (what it would count in
 * `charsLexed`), and its count must break the bound the sieve meets:
 * - re-reading the open paragraph on each push (a reader without a saved
 *   lexer state, or one that re-lexes from the last block boundary);
 * - re-reading everything held on each push (a capture, a held tag and what
 *   follows it, lexed again with every chunk);
 * - parsing an open block on each push, instead of once when it is complete.
 */
import { describe, expect, it } from 'vitest'
import { ADVERSE, DENSE } from './corpus.js'
import { READS_ANY_PUSH, READS_STREAMED, blockNameMentions, lexedBound, run, scaledBound } from './measure.js'
import type { Run } from './measure.js'

/** Where the paragraph open at `end` starts: after the last blank line before it. */
function paragraphStart(input: string, end: number): number {
  const at = input.lastIndexOf('\n\n', end - 2)
  return at < 0 ? 0 : at + 2
}

/** Characters a reader lexes that reads its open paragraph again with every chunk. */
function rereadsParagraph(input: string, chunks: readonly string[]): number {
  let lexed = 0
  let end = 0
  for (const chunk of chunks) {
    end += chunk.length
    lexed += end - paragraphStart(input, end)
  }
  return lexed
}

/** Characters a reader lexes that reads everything it holds again with every chunk (what the sieve held, from its events). */
function rereadsHeld(input: string, chunks: readonly string[]): number {
  const sieve = run(chunks)
  expect(sieve.out).toBe(input.length)
  return sieve.heldTotal + input.length
}

const oneUnit = (input: string) => [...Array(input.length).keys()].map((i) => input.charAt(i))
const tokens = (input: string) => input.match(/[\s\S]{1,4}/g) ?? []

const byName = (name: string) => [...ADVERSE, ...DENSE].find((c) => c.name === name)!.input

describe('bound strength: the bounds fail readers that re-read what grows', () => {
  it.each([
    ['a staircase of held tags (`` ` <t> `` <t> ``` <t> … ``), one paragraph'],
    ['an unclosed code span, then 20k of text with tags'],
    ['a staircase of unclosed comments in one paragraph'],
    ['a paragraph of unclosed inline <code> lines'],
  ])('should not support a reader that reads its open paragraph again on every push: %s', (name) => {
    const input = byName(name)
    for (const chunks of [oneUnit(input), tokens(input)]) {
      const sieve: Run = run(chunks)
      const naive = rereadsParagraph(input, chunks)
      expect(sieve.stats.charsLexed).toBeLessThanOrEqual(lexedBound(input, sieve, READS_STREAMED))
      // the naive reader's pushes hold what the sieve's hold: the same allowance for re-read tails
      expect(naive, `${chunks.length} pushes`).toBeGreaterThan(lexedBound(input, sieve, READS_ANY_PUSH))
    }
  })

  it.each([
    ['deep nested XML (2k levels) in a parameter value'],
    ['an unclosed attribute quote, then 20k of text'],
    ['long attributes with quotes and blanks'],
    ['a long value after a tag'],
    ['60 tags left open 300 characters after a backtick'],
  ])('should not support a reader that reads all it holds again on every push: %s', (name) => {
    const input = byName(name)
    const chunks = oneUnit(input)
    const sieve = run(chunks)
    expect(rereadsHeld(input, chunks)).toBeGreaterThan(lexedBound(input, sieve, READS_ANY_PUSH))
  })

  it('should not support a reader whose work grows with the square of the paragraph, at any size', () => {
    // the scaling bound on its own, without the per-character one: twice the paragraph, four times the work
    const make = (n: number) => 'Use ` then ' + 'words < and > `ticks` ~~ ｜ | ＜ "q" ]] -- 中文\n'.repeat(n)
    const small = make(50)
    const big = make(100)
    const ratio = big.length / small.length
    const naive = (input: string) => rereadsParagraph(input, tokens(input))
    expect(naive(big)).toBeGreaterThan(scaledBound(naive(small), ratio, big.length))
    const sieve = (input: string) => run(tokens(input)).stats.charsLexed
    expect(sieve(big)).toBeLessThanOrEqual(scaledBound(sieve(small), ratio, big.length))
  })

  it.each([
    ['1k tiny blocks in a row (plain XML)'],
    ['deep nested XML (2k levels) in a parameter value'],
    ['paragraphs of a block in an unclosed comment'],
  ])('should not support a reader that parses what it holds on every push: %s', (name) => {
    const input = byName(name)
    for (const chunks of [oneUnit(input), tokens(input)]) {
      const sieve = run(chunks)
      expect(sieve.stats.blocksParsed).toBeLessThanOrEqual(blockNameMentions(input))
      expect(sieve.pushesHoldingMore, `${chunks.length} pushes`).toBeGreaterThan(blockNameMentions(input))
    }
  })
})
