/**
 * The stream ends inside an open block. Its complete invokes are calls
 * (`unclosed-wrapper`); the rest is released verbatim with one
 * `unterminated-block` whose span is the released region. A bare invoke tag
 * with nothing after it, or a held tag prefix, at the end is text, silently.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar, extendGrammar } from '../../src/index.js'
import { calls, codes, diagnostics, expectChunkInvariant, normalise, outline, textOf } from '../helpers/chunking.js'
import { SPELLINGS } from '../helpers/blocks.js'

/** `open` is an unfinished block after `before`: text plus one unterminated-block spanning it. */
function expectUnterminated(before: string, open: string): void {
  const input = before + open
  const events = expectChunkInvariant(input)
  expect(calls(events)).toEqual([])
  expect(textOf(events)).toBe(input)
  expect(codes(events)).toEqual(['unterminated-block'])
  const span = diagnostics(events)[0]!.span
  expect(span).toEqual({ start: before.length, end: input.length })
  expect(input.slice(span.start, span.end)).toBe(open)
}

describe('unterminated blocks', () => {
  it.each([
    ['inside a parameter value', '<tool_calls><invoke name="a"><parameter name="p">x'],
    ['inside an invoke', '<tool_calls>\n<invoke name="a">\n<parameter name="p">x</parameter>'],
    ['inside an attribute', '<tool_calls><invoke name="rea'],
    ['inside the first invoke\'s closing tag', '<tool_calls><invoke name="a"></inv'],
    ['inside CDATA', '<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x</tool_calls>'],
    ['right after the opener', '<tool_calls>'],
    ['in a DSML block', '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="a">\n<｜DSML｜parameter name="p" string="true">x'],
    ['in a fullwidth block', '＜ＤＳＭＬ＜tool_calls＞＜ＤＳＭＬ＜invoke name="a"＞＜ＤＳＭＬ＜parameter name="p"＞x'],
  ])('should support releasing a block cut off %s (text + unterminated-block)', (_label, open) => {
    expectUnterminated('Calling now: ', open)
  })

  it('should support the complete invokes of a block the stream cuts after them (calls, unclosed-wrapper)', () => {
    const done = '<tool_calls>\n<invoke name="a"></invoke>\n<invoke name="b"><parameter name="p">1</parameter></invoke>'
    const events = expectChunkInvariant('Calling: ' + done + '\n')
    expect(outline(events)).toEqual(['Calling: ', { call: 'a', input: {} }, { call: 'b', input: { p: 1 } }, { diagnostic: 'unclosed-wrapper' }, '\n'])
    expect(diagnostics(events)[0]!.span).toEqual({ start: 'Calling: '.length + done.length, end: 'Calling: '.length + done.length })
  })

  it('should support the complete invokes of a block the stream cuts later (calls, unclosed-wrapper; the rest text, unterminated-block)', () => {
    const done = '<tool_calls><invoke name="a"></invoke>'
    for (const rest of ['</tool_ca', '\n<invoke name="b"><parameter name="p">x']) {
      const events = expectChunkInvariant(done + rest)
      expect(outline(events)).toEqual([{ call: 'a', input: {} }, { diagnostic: 'unclosed-wrapper' }, rest, { diagnostic: 'unterminated-block' }])
      expect(diagnostics(events)[1]!.span).toEqual({ start: done.length, end: done.length + rest.length })
    }
  })

  it('should not support keeping complete invokes of a cut block when the grammar turns the repair off', () => {
    const grammar = extendGrammar(defaultGrammar, { repairs: { unclosedWrapper: false } })
    const input = 'x <tool_calls><invoke name="a"></invoke>'
    expect(outline(expectChunkInvariant(input, { grammar }))).toEqual([input, { diagnostic: 'unterminated-block' }])
  })

  it('should support a bare invoke with a parameter cut off (text + unterminated-block)', () => {
    expectUnterminated('Done: ', '<invoke name="a"><parameter name="p">x')
  })

  it('should support a complete bare invoke at end of stream (a call, unclosed-wrapper)', () => {
    const events = expectChunkInvariant('Done: <invoke name="a"></invoke>\n')
    expect(outline(events)).toEqual(['Done: ', { call: 'a', input: {} }, { diagnostic: 'unclosed-wrapper' }, '\n'])
  })

  it('should support an unterminated block in every spelling family', () => {
    for (const s of SPELLINGS) {
      expectUnterminated('x ', s.open(s.wrapper) + s.open('invoke', ' name="a"') + s.open('parameter', ' name="p"') + 'v')
    }
  })

  it('should support a complete call before an unterminated block', () => {
    const done = '<tool_calls><invoke name="a"></invoke></tool_calls>'
    const open = '<tool_calls><invoke name="b"><parameter name="p">x'
    const events = expectChunkInvariant(done + '\n' + open)
    expect(calls(events)).toEqual([{ name: 'a', input: {} }])
    expect(textOf(events)).toBe('\n' + open)
    expect(diagnostics(events).map((d) => [d.code, d.span])).toEqual([
      ['unterminated-block', { start: done.length + 1, end: done.length + 1 + open.length }],
    ])
  })

  it('should support the diagnostic coming out of `end()`, not of `push()`', () => {
    const sieve = createSieve()
    const pushed = normalise(sieve.push('Hi <tool_calls><invoke name="a">'))
    expect(outline(pushed)).toEqual(['Hi '])
    expect(codes(normalise(sieve.end()))).toEqual(['unterminated-block'])
  })

  it('should support an unmatched backtick before a block that is then cut off (live at end of stream)', () => {
    expectUnterminated('Use ` then ', '<tool_calls><invoke name="a">')
  })

  it.each([
    ['a bare DSML invoke tag', '<｜DSML｜invoke name="a">'],
    ['a partial DSML prefix', '<|DSML|tool_ca'],
    ['a partial fullwidth prefix', '＜ＤＳＭＬ＜tool'],
    ['a lone <', '<'],
    ['an unclosed fence holding a block start', '\n```\n<tool_calls><invoke name="a">'],
    ['an open code span holding a block start', 'Use `<tool_calls><invoke name="a">` x'],
  ])('should not support a diagnostic for %s at end of stream', (_label, tail) => {
    const input = 'Done: ' + tail
    expect(expectChunkInvariant(input)).toEqual([{ type: 'text', text: input }])
  })

  it('should support a block whose closing wrapper ends the stream with a tag end that could have grown (`</|DSML|tool_calls|`)', () => {
    // `|` may become `||` while more input can come; at the end of the stream it is a complete closer, not an unfinished one
    const input = '<|DSML|tool_calls|\n<|DSML|invoke name="read_file"|\n<|DSML|parameter name="path"|src/a.ts</|DSML|parameter|\n</|DSML|invoke|\n</|DSML|tool_calls|'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'read_file', input: { path: 'src/a.ts' } }])
    expect(codes(events)).toEqual([])
  })
})
