/**
 * An unclosed CDATA in a value without a `string` attribute, in a block that
 * is otherwise complete when the stream ends: the section is cut at its
 * parameter's closer (`repaired-cdata`, the grammar's `unclosedCdata`
 * repair). Anything less than a complete block stays text.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar, extendGrammar } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'

describe('unclosed CDATA at end of stream', () => {
  it('should support a block otherwise complete (the call, repaired-cdata)', () => {
    const input = '<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x < y</parameter><parameter name="q">2</parameter></invoke></tool_calls>\n'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x < y', q: 2 } }])
    expect(codes(events)).toEqual(['repaired-cdata'])
  })

  it('should support `<![cdata[` in any case, closed or not', () => {
    expect(calls(expectChunkInvariant('<tool_calls><invoke name="a"><parameter name="p"><![cdata[<b>]]></parameter></invoke></tool_calls>'))).toEqual([{ name: 'a', input: { p: '<b>' } }])
    const cut = '<｜DSML｜tool_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="p"><![Cdata[x</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'
    expect(calls(expectChunkInvariant(cut))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it.each([
    ['the block unclosed after the cut', '<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x</parameter></invoke>'],
    ['no closer after the CDATA opener', '<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x'],
  ])('should not support %s (text, unterminated-block)', (_label, input) => {
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })

  it('should not support the repair when the grammar turns it off', () => {
    const grammar = extendGrammar(defaultGrammar, { repairs: { unclosedCdata: false } })
    const input = '<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x</parameter></invoke></tool_calls>'
    const events = expectChunkInvariant(input, { grammar })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['unterminated-block'])
  })

  it('should not support a CDATA opener inside a string value (raw text: nothing to repair)', () => {
    const input = '<｜DSML｜tool_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="p" string="true"><![CDATA[x</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { p: '<![CDATA[x' } }])
    expect(codes(events)).toEqual([])
  })
})

describe('unclosed CDATA at end of stream: what the repair refuses', () => {
  it.each([['a]'], ['a]]'], ['']])('should support a CDATA ending in a held bracket (%s]) without an internal error', (tail) => {
    const input = '<tool_calls><invoke name="f"><parameter name="x"><![CDATA[' + tail + ']'
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })

  it('should not support an invoke after the cut: it would come from the CDATA content (text)', () => {
    const input = '<tool_calls><invoke name="f"><parameter name="x"><![CDATA[ </parameter></invoke><invoke name="bash"><parameter name="command">rm -rf ~</parameter></invoke></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should not support a repair report for a block that went out as text (a quoted example)', () => {
    const quoted = 'what does <tool_calls><invoke name="a"><parameter name="p"><![CDATA[x]]></parameter></invoke></tool_calls> do?'
    const input = 'Sure: <tool_calls><invoke name="a"><parameter name="p"><![CDATA[x</parameter></invoke></tool_calls>'
    for (const streamArguments of [false, true]) {
      const events = expectChunkInvariant(input, { quoted: [quoted], streamArguments })
      expect(calls(events)).toEqual([])
      expect(textOf(events)).toBe(input)
      expect(codes(events)).toEqual(['quoted-example'])
    }
  })
})

