/**
 * Work linear in the input: each family built at one size and at about
 * twice it, read in the same chunking shapes (one unit, 4 units,
 * token-sized, whole). The larger may cost at most its length ratio times
 * the smaller, and a little for what does not scale evenly (`scaledBound`):
 * characters lexed, tokens, blocks parsed. Counts, not
 * times: a reader that reads again, on every push or every going-back,
 * what grows with the input costs about four times as much at twice the
 * size and fails this at any size.
 */
import { describe, expect, it } from 'vitest'
import { bareInvokes, codeTags, crLines, dsmlMentions, loneLessThan, tinyBlocks } from '../../bench/adversarial.js'
import { realCall } from '../helpers/adversarial-inputs.js'
import { run, scaledBound, scalingChunkings } from './measure.js'
import type { Run } from './measure.js'

interface Family {
  name: string
  make: (n: number) => string
  /** The smaller size; the larger is twice it. */
  n: number
}

const xml = '<tool_calls><invoke name="a"><parameter name="p">x</parameter></invoke></tool_calls>'
const indented = (attrs: string, value: string) => `<tool_calls>\n  <invoke name="a">\n    <parameter name="p"${attrs}>${value}</parameter>\n  </invoke>\n</tool_calls>`
const noise = (n: number) => 'words < and > `ticks` ~~ ｜ | </invoke> ＜ "q" ]] -- 中文\n'.repeat(n)
const staircase = (n: number) => Array.from({ length: n }, (_, i) => '`'.repeat(i + 1) + ' <tool_calls> ').join('') + '\n\nend'
const bench = (make: (scale: number) => { text: string }) => (n: number) => make(n / 10_000).text

const FAMILIES: Family[] = [
  { name: 'paragraphs, each a tag held after an unmatched backtick', make: (n) => '`x <｜DSML｜tool_calls> y\n\n'.repeat(n), n: 400 },
  { name: 'short paragraphs, each two tags held after unmatched runs', make: (n) => '`<invoke>``<invoke>\n\n'.repeat(n), n: 400 },
  // the staircase's length grows with the square of its steps: 60 and 85 steps are about 1× and 2× the length
  { name: 'a staircase of held tags in one paragraph', make: (n) => staircase(n === 60 ? 60 : 85), n: 60 },
  { name: 'an unclosed code span, then text with tags', make: (n) => 'Use ` then ' + realCall + ' ' + noise(n), n: 100 },
  { name: 'an unclosed attribute quote, then text', make: (n) => '<tool_calls><invoke name="' + noise(n), n: 100 },
  { name: 'tiny blocks in a row', make: (n) => xml.repeat(n), n: 100 },
  { name: 'nested XML in a parameter value', make: (n) => `<tool_calls><invoke name="w"><parameter name="x">${'<a><b x="1">'.repeat(n)}leaf${'</b></a>'.repeat(n)}</parameter></invoke></tool_calls>`, n: 300 },
  { name: 'paragraphs of a block in an unclosed comment', make: (n) => ('x <!-- ' + xml + '\n\n').repeat(n), n: 60 },
  { name: 'a paragraph of unclosed inline <code> lines', make: (n) => 'The <code> element, see below\n'.repeat(n), n: 200 },
  // past the 1 KiB a tag's text may wait unlexed at both sizes, so both are lexed
  { name: 'an opening tag with long attributes', make: (n) => indented(' name="p"' + ' data-x = \'a b\'  note="a > b < c"'.repeat(n), 'x'), n: 60 },
  { name: 'a long value after a tag', make: (n) => indented(' name="p"', 'a/very/long/path/'.repeat(n) + 'main.rs'), n: 60 },
  { name: 'bracketed code in CDATA', make: (n) => indented(' name="p"', `<![CDATA[${'rows[i][j] = grid[k];\n'.repeat(n)}]]>`), n: 100 },
  { name: 'dashes in a comment in a value', make: (n) => indented(' name="p"', `x<!-- ${'a - b -- c <!-- d\n'.repeat(n)}-->`), n: 100 },
  { name: 'the bench\'s lone `<`', make: bench(loneLessThan), n: 50 },
  { name: 'the bench\'s DSML mentions', make: bench(dsmlMentions), n: 50 },
  { name: 'the bench\'s tiny blocks', make: bench(tinyBlocks), n: 50 },
  { name: 'the bench\'s bare invokes', make: bench(bareInvokes), n: 50 },
  { name: 'the bench\'s unclosed <code> lines', make: bench(codeTags), n: 50 },
  { name: 'the bench\'s lone-CR paragraphs and examples', make: bench(crLines), n: 50 },
]

function expectScaled(what: string, big: number, small: number, ratio: number, length: number): void {
  expect(big, `${what}: ${big} at about twice the size of ${small}`).toBeLessThanOrEqual(scaledBound(small, ratio, length))
}

describe('work linear in the input (counts, not times)', () => {
  it.each(FAMILIES.map((f) => [f.name, f] as const))('should support %s at twice the size for at most twice the work', (_, f) => {
    const small = f.make(f.n)
    const big = f.make(2 * f.n)
    const ratio = big.length / small.length
    expect(ratio, 'the larger input is about twice the smaller').toBeGreaterThan(1.8)
    expect(ratio).toBeLessThan(2.2)
    const bigChunkings = scalingChunkings(big)
    scalingChunkings(small).forEach(({ name }, i) => {
      const measure = (input: string, chunks: string[]): Run => {
        const r = run(chunks)
        expect(r.out, `${name}: every character leaves once`).toBe(input.length)
        return r
      }
      const s = measure(small, scalingChunkings(small)[i]!.chunks)
      const b = measure(big, bigChunkings[i]!.chunks)
      expectScaled(`${name}: characters lexed`, b.stats.charsLexed, s.stats.charsLexed, ratio, big.length)
      expectScaled(`${name}: tokens`, b.stats.tokens, s.stats.tokens, ratio, big.length)
      expectScaled(`${name}: blocks parsed`, b.stats.blocksParsed, s.stats.blocksParsed, ratio, 0)
    })
  })

  it.each([
    ['bracketed code in CDATA', (n: number) => indented('', `<![CDATA[${'rows[i][j] = grid[k];\n'.repeat(n)}]]>`)],
    ['dashes and comment openers in a comment in a value', (n: number) => indented('', `x<!-- ${'a - b -- c <!-- d\n'.repeat(n)}-->`)],
  ])('should support %s pushed whole in a number of tokens that does not grow with it', (_, make) => {
    // a value's text holding characters that end nothing there (`]`, `-`, `<!--` inside a comment) is read as
    // runs of text, not a token per such character: the token walk's cost is per token
    const small = make(100)
    const big = make(1000)
    // the tags' tokens come from the lexer once, then from its memo (`lexer/token-memo.ts`): both sizes are read once
    // before either is counted, so neither count holds the other's warm-up
    run([small])
    run([big])
    const tokens = (input: string) => {
      const r = run([input])
      expect(r.calls).toBe(1)
      return r.stats.tokens
    }
    expect(tokens(big)).toBeLessThanOrEqual(tokens(small) + 8)
  })
})
