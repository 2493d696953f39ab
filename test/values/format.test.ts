/**
 * `formatToolCalls`: calls back into DSML (U+FF5C bars by default), any
 * frame of the grammar on request; strings as `string="true"` CDATA (split
 * at `]]>`), everything else `string="false"` JSON.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, defaultGrammar, extendGrammar, formatToolCalls, parseToolCalls } from '../../src/index.js'
import type { Frame } from '../../src/index.js'

const call = { name: 'read_file', input: { path: 'src/a.ts', limit: 20, opts: { recursive: true } } }

describe('formatToolCalls', () => {
  it("should support DeepSeek's own spelling by default", () => {
    expect(formatToolCalls([call])).toBe(
      [
        '<｜DSML｜tool_calls>',
        '<｜DSML｜invoke name="read_file">',
        '<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>',
        '<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>',
        '<｜DSML｜parameter name="opts" string="false">{"recursive":true}</｜DSML｜parameter>',
        '</｜DSML｜invoke>',
        '</｜DSML｜tool_calls>',
      ].join('\n'),
    )
  })

  it('should support every frame of the default grammar by name', () => {
    const out = Object.fromEntries(defaultGrammar.frames.map((f) => [f.name, formatToolCalls([{ name: 'a', input: { p: 'x' } }], { spelling: f.name })]))
    expect(out.fullwidth).toBe('＜ＤＳＭＬ＜tool_calls＞\n＜ＤＳＭＬ＜invoke name="a"＞\n＜ＤＳＭＬ＜parameter name="p" string="true"＞x＜／ＤＳＭＬ＜／parameter＞\n＜／ＤＳＭＬ＜／invoke＞\n＜／ＤＳＭＬ＜／tool_calls＞')
    expect(out.xml).toBe('<tool_calls>\n<invoke name="a">\n<parameter name="p" string="true">x</parameter>\n</invoke>\n</tool_calls>')
  })

  it('should support explicit tag strings (ASCII bars)', () => {
    const text = formatToolCalls([call], { spelling: { open: '<|DSML|', close: '</|DSML|', end: '>' } })
    expect(text.startsWith('<|DSML|tool_calls>\n<|DSML|invoke name="read_file">')).toBe(true)
    expect(parseToolCalls(text).calls.map((c) => c.input)).toEqual([call.input])
  })

  it('should support strings with markup in them written raw, as DeepSeek writes them (nothing in a string value is markup)', () => {
    const s = 'a]]>b <![CDATA[x]]> &amp; <!-- c --> </tool_calls> <'
    const text = formatToolCalls([{ name: 'w', input: { s } }])
    expect(text).toContain(`string="true">${s}</｜DSML｜parameter>`)
    expect(parseToolCalls(text).calls[0]!.input).toEqual({ s })
  })

  it('should support a string that could spell its own closer, written as JSON with tag starts escaped', () => {
    const s = 'x </｜DSML｜parameter> y </｜dsml｜PARAMETER｜>'
    const text = formatToolCalls([{ name: 'w', input: { s } }])
    expect(text).toContain('string="false">"x \\u003c/｜DSML｜parameter>')
    expect(parseToolCalls(text).calls[0]!.input).toEqual({ s })
  })

  it('should support closers inside JSON strings, escaped', () => {
    const input = { v: ['</｜DSML｜parameter>', '＜／ＤＳＭＬ＜／invoke＞', '</tool_calls>'] }
    const text = formatToolCalls([{ name: 'w', input }])
    expect(text).toContain('"\\u003c/｜DSML｜parameter>"')
    expect(parseToolCalls(text).calls[0]!.input).toEqual(input)
  })

  it('should support names that need escaping in attributes', () => {
    const input = { 'a"b': 1, ' & ': 2, '<k>': 3 }
    const text = formatToolCalls([{ name: ' odd "tool" ', input }])
    expect(text).toContain('name="&#32;odd &quot;tool&quot;&#32;"')
    const [parsed] = parseToolCalls(text).calls
    expect(parsed).toMatchObject({ name: ' odd "tool" ', input })
  })

  it('should support calls as the sieve emits them, and `{ name, arguments }`', () => {
    const emitted = parseToolCalls(formatToolCalls([call])).calls
    expect(formatToolCalls(emitted)).toBe(formatToolCalls([call]))
    expect(formatToolCalls([{ name: 'read_file', arguments: JSON.stringify(call.input) }])).toBe(formatToolCalls([call]))
  })

  it('should support leaving out undefined values and functions, as JSON does', () => {
    expect(parseToolCalls(formatToolCalls([{ name: 'a', input: { x: undefined, f: () => 1, y: 1 } }])).calls[0]!.input).toEqual({ y: 1 })
  })

  it('should support a grammar with its own frame, spelling derived from it', () => {
    const frame: Frame = { name: 'brackets', open: [[{ lit: ['[['] }, { name: true }]], close: [[{ lit: ['[[/'] }, { name: true }]], end: [[{ lit: [']]'] }]] }
    const grammar = extendGrammar(defaultGrammar, { frames: [frame] })
    const input = { s: '[[/parameter]] x', n: [1, { k: '[[/invoke]]' }] }
    const text = formatToolCalls([{ name: 'b', input }], { grammar, spelling: 'brackets' })
    expect(text.split('\n')[0]).toBe('[[tool_calls]]')
    expect(parseToolCalls(text, { grammar }).calls.map((c) => c.input)).toEqual([input])
  })

  it('should support writing no calls as an empty block', () => {
    expect(formatToolCalls([], { spelling: 'xml' })).toBe('<tool_calls>\n</tool_calls>')
  })

  it('should not support what no reader could give back (invalid-option)', () => {
    const bad: Array<[unknown[], object?]> = [
      [[{ name: '', input: {} }]],
      [[{ name: 'a', input: { '': 1 } }]],
      [[{ name: 'a', arguments: '[1]' }]],
      [[{ name: 'a', input: { n: 1n } }]],
      [[call], { spelling: 'nope' }],
    ]
    for (const [calls, opts] of bad) {
      expect(() => formatToolCalls(calls as never, opts)).toThrow(ToolsieveError)
    }
  })
})
