/**
 * `codeRanges`: the guard's code ranges read off the lexer's token stream,
 * the toolsieve side of the CommonMark oracle.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar, extendGrammar } from '../../src/index.js'
import { codeRanges } from './code-ranges.js'

const block = '<tool_calls><invoke name="a"><parameter name="p">x</parameter></invoke></tool_calls>'
const slices = (text: string, spans: { start: number; end: number }[]) => spans.map((s) => text.slice(s.start, s.end))

describe('codeRanges', () => {
  it('should support a fenced range from the opener line start (indent included) to the end of the closing line', () => {
    const text = 'intro\n  ```js\n' + block + '\n  ```  \nafter'
    expect(slices(text, codeRanges(text).fenced)).toEqual(['  ```js\n' + block + '\n  ```  '])
  })

  it('should support an unclosed fence running to the end of input, and tildes', () => {
    expect(slices('a\n~~~\nb\n', codeRanges('a\n~~~\nb\n').fenced)).toEqual(['~~~\nb\n'])
    expect(codeRanges('```').fenced).toEqual([{ start: 0, end: 3 }])
  })

  it('should not support a closer shorter than the opener, of the other character, or with an info string', () => {
    const text = '````\n```\n~~~~\n```` x\nstill code'
    expect(codeRanges(text).fenced).toEqual([{ start: 0, end: text.length }])
  })

  it('should not support a fence indented four spaces, or a backtick opener whose info string has a backtick', () => {
    expect(codeRanges('    ```\nx').fenced).toEqual([])
    expect(codeRanges('``` a`b\nx').fenced).toEqual([])
  })

  it('should support code spans from the opening run to the end of the closing run of the same length', () => {
    const text = 'Use `a` and ``b ` c`` then `' + block + '`.'
    expect(slices(text, codeRanges(text).text)).toEqual(['`a`', '``b ` c``', '`' + block + '`'])
  })

  it('should not support a span whose closer is in the next paragraph, or crosses a fence', () => {
    expect(codeRanges('`a\n\nb`').text).toEqual([])
    expect(codeRanges('`a\n```\nb`\n```\n').text).toEqual([])
  })

  it('should support the first matching closer winning, and spans inside an unmatched run', () => {
    expect(slices('``a`b``c`', codeRanges('``a`b``c`').text)).toEqual(['``a`b``'])
    expect(slices('`` a `b` c', codeRanges('`` a `b` c').text)).toEqual(['`b`'])
  })

  it('should support a held tag: a code span when its level closes, live text when the paragraph ends', () => {
    const inSpan = 'x `' + block + '` y'
    expect(slices(inSpan, codeRanges(inSpan).text)).toEqual(['`' + block + '`'])
    const live = 'x `` ' + block + ' `a` b\n\n`c`'
    expect(slices(live, codeRanges(live).text)).toEqual(['`a`', '`c`'])
  })

  it('should not support code at all when the grammar turns the guard off', () => {
    const off = extendGrammar(defaultGrammar, { markdown: { fences: false, codeSpans: false } })
    expect(codeRanges('`a`\n```\nb\n```\n', off)).toEqual({ fenced: [], text: [] })
  })
})
