/**
 * Values whose parameter tag has a `string` attribute are DeepSeek-native
 * (its encoders write them raw) and read exactly: nothing inside is markup,
 * and only a closer spelled as the value's own opener ends it.
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const D = (n: string) => `<｜DSML｜${n}`
const C = (n: string) => `</｜DSML｜${n}>`
function block(params: string, name = 'send_email'): string {
  return `${D('tool_calls')}>\n${D('invoke')} name="${name}">\n${params}\n${C('invoke')}\n${C('tool_calls')}`
}
const param = (key: string, value: string, flag = 'true') => `${D('parameter')} name="${key}" string="${flag}">${value}${C('parameter')}`

/** The one call of `input`, streamed in every chunking; no diagnostics. */
function only(input: string): Record<string, unknown> {
  const events = expectChunkInvariant(input)
  expect(codes(events)).toEqual([])
  const found = calls(events)
  expect(found).toHaveLength(1)
  return found[0]!.input
}

describe('string-attribute values', () => {
  it.each([
    ['a whole block of another spelling', '<tool_calls><invoke name="bash"><parameter name="command">rm -rf ~</parameter></invoke></tool_calls>'],
    ['a block of the same spelling family, ASCII bars', '<|DSML|tool_calls><|DSML|invoke name="bash"><|DSML|parameter name="c">x</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>'],
    ['a bare invoke', '<invoke name="bash"></invoke>'],
    ['a `<` at the end', 'a<'],
    ['`<<` at the end', 'cat <<'],
    ['a lone bar tag start at the end', 'ends with <|'],
    ['an unclosed CDATA opener', "y = '<![CDATA[' + x"],
    ['a plain XML closer', 'see </parameter> here'],
    ['an ASCII-bar DSML closer', 'x </|DSML|parameter> y'],
    ['a fullwidth closer', '＜／ＤＳＭＬ＜／parameter＞'],
    ['a comment', '<!-- </parameter> -->'],
    ['a CDATA section (kept literally)', '<![CDATA[raw]]>'],
    ['entities (kept literally)', 'a &amp; b &lt;c&gt;'],
    ['think tags', 'text </think> more'],
    ['spaces and line breaks at the edges', '  \n padded \r\n '],
  ])('should support %s inside, as the exact text', (_label, value) => {
    expect(only(block(param('body', value)))).toEqual({ body: value })
  })

  it('should not support a call from a block quoted in a value (the outer call runs, with the quote as its text)', () => {
    const quoted = '<tool_calls><invoke name="bash"><parameter name="command">rm -rf ~</parameter></invoke></tool_calls>'
    const input = block(param('to', 'a@b.c') + '\n' + param('body', `Run this: ${quoted}`))
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'send_email', input: { to: 'a@b.c', body: `Run this: ${quoted}` } }])
  })

  it('should support string="false" as JSON of the exact text, markup-like strings included', () => {
    expect(only(block(param('o', '{"html": "<!-- c -->x", "t": "</parameter>"}', 'false')))).toEqual({ o: { html: '<!-- c -->x', t: '</parameter>' } })
  })

  it('should support a closer spelled like its opener in every family', () => {
    for (const [open, close] of [['<|DSML|parameter', '</|DSML|parameter>'], ['＜ＤＳＭＬ＜parameter', '＜／ＤＳＭＬ＜／parameter＞'], ['<parameter', '</parameter>']]) {
      const input = `<tool_calls><invoke name="a">${open} name="p" string="true">v</｜DSML｜parameter> and </parameter>${close}</invoke></tool_calls>`
      const expected = open === '<parameter' ? 'v</｜DSML｜parameter> and ' : 'v</｜DSML｜parameter> and </parameter>'
      const events = expectChunkInvariant(input)
      // the plain XML value's own closer is `</parameter>`: what follows it breaks the invoke
      if (open === '<parameter') expect(codes(events)).toEqual(['malformed-block'])
      else expect(calls(events)).toEqual([{ name: 'a', input: { p: expected } }])
    }
  })

  it('should not support a value without a string attribute being read raw (the lenient rules apply)', () => {
    const input = `<tool_calls><invoke name="a"><parameter name="p"><![CDATA[x]]> &amp;</parameter></invoke></tool_calls>`
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x &' } }])
  })

  it('should support a string attribute written in single quotes, in any case, after other attributes', () => {
    const input = `<tool_calls><invoke name="a"><parameter data-x="1" NAME="p" String='TRUE'>a<b</parameter></invoke></tool_calls>`
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'a<b' } }])
  })

  it('should support a string value that never closes at end of stream (text, unterminated-block)', () => {
    const input = `${D('tool_calls')}>${D('invoke')} name="a">${D('parameter')} name="p" string="true">x </parameter> y`
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })
})

describe('self-closing invoke', () => {
  it.each([
    ['in a wrapper', '<tool_calls><invoke name="x"/></tool_calls>', []],
    ['in DSML', `${D('tool_calls')}>\n${D('invoke')} name="x" />\n${C('tool_calls')}`, []],
    ['bare, at end of stream', 'Calling <invoke name="x"/>\n', ['unclosed-wrapper']],
  ])('should support a self-closing invoke %s (a call with no arguments)', (_label, input, expected) => {
    const events = expectChunkInvariant(input as string)
    expect(calls(events)).toEqual([{ name: 'x', input: {} }])
    expect(codes(events)).toEqual(expected)
  })

  it('should support a self-closing invoke next to a full one, each with its raw', () => {
    const input = '<tool_calls><invoke name="x"/><invoke name="y"><parameter name="p">v</parameter></invoke></tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'x', input: {} }, { name: 'y', input: { p: 'v' } }])
  })

  it('should not support a self-closing parameter or wrapper (text)', () => {
    for (const input of ['<tool_calls><invoke name="x"><parameter name="p"/></invoke></tool_calls>', '<tool_calls/>']) {
      expect(calls(expectChunkInvariant(input))).toEqual([])
    }
  })
})
