/**
 * Malformed blocks: a complete block that does not parse is released
 * verbatim as text with one `malformed-block` diagnostic whose span is the
 * block; scanning continues after it, so a later valid block still works.
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, diagnostics, expectChunkInvariant, outline, textOf } from '../helpers/chunking.js'
import { SPELLINGS } from '../helpers/blocks.js'

const valid = '<tool_calls><invoke name="ok"><parameter name="path">src/ok.ts</parameter></invoke></tool_calls>'

/** Checks `bad` (inside prose) is text with one malformed-block spanning it. */
function expectMalformed(bad: string): void {
  const before = 'Before. '
  const input = before + bad + ' After.'
  const events = expectChunkInvariant(input)
  expect(calls(events)).toEqual([])
  expect(textOf(events)).toBe(input)
  expect(codes(events)).toEqual(['malformed-block'])
  const span = diagnostics(events)[0]!.span
  expect(span).toEqual({ start: before.length, end: before.length + bad.length })
  expect(input.slice(span.start, span.end)).toBe(bad)
}

describe('malformed blocks', () => {
  it.each([
    ['an invoke without a name', '<tool_calls><invoke></invoke></tool_calls>'],
    ['an invoke with another attribute only', '<tool_calls><invoke tool="a"></invoke></tool_calls>'],
    ['a parameter without a name', '<tool_calls><invoke name="a"><parameter>x</parameter></invoke></tool_calls>'],
    ['an invoke body that is broken JSON', '<tool_calls><invoke name="a">{"path": "src/a.ts"</invoke></tool_calls>'],
    ['a DSML invoke without a name', '<｜DSML｜tool_calls>\n<｜DSML｜invoke>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'],
    ['a fullwidth parameter without a name', '＜ＤＳＭＬ＜tool_calls＞＜ＤＳＭＬ＜invoke name="a"＞＜ＤＳＭＬ＜parameter＞x＜／ＤＳＭＬ＜／parameter＞＜／ＤＳＭＬ＜／invoke＞＜／ＤＳＭＬ＜／tool_calls＞'],
    ['one good and one nameless invoke', '<tool_calls><invoke name="a"></invoke><invoke></invoke></tool_calls>'],
  ])('should not support %s (text + malformed-block)', (_label, bad) => {
    expectMalformed(bad)
  })

  it.each([
    ['an invoke body of prose', '<tool_calls><invoke name="a">', 'just some words</invoke></tool_calls>'],
    ['an invoke body that is a JSON array', '<tool_calls><invoke name="a">', '["src/a.ts"]</invoke></tool_calls>'],
  ])('should not support %s: the capture ends where the prose starts (text + malformed-block up to there)', (_label, head, tail) => {
    const input = 'Before. ' + head + tail + ' After.'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
    expect(diagnostics(events)[0]!.span).toEqual({ start: 'Before. '.length, end: 'Before. '.length + head.length })
  })

  it.each([
    ['an invoke tag', '<tool_calls><invoke a.b></invoke></tool_calls>'],
    ['a parameter tag', '<tool_calls><invoke name="a"><parameter p.q>x</parameter></invoke></tool_calls>'],
    ['a DSML invoke tag', '<｜DSML｜tool_calls><｜DSML｜invoke Hello there.></｜DSML｜invoke></｜DSML｜tool_calls>'],
  ])('should not support junk inside %s (text + one malformed-block, the same under every chunking)', (_label, bad) => {
    const input = bad + ' after'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
    expect(diagnostics(events)[0]?.span.start).toBe(0)
  })

  it('should support a later valid block after a malformed one', () => {
    const bad = '<tool_calls><invoke></invoke></tool_calls>'
    const input = bad + '\nRetrying.\n' + valid
    const events = expectChunkInvariant(input)
    expect(outline(events).filter((x) => typeof x !== 'string')).toEqual([
      { diagnostic: 'malformed-block' },
      { call: 'ok', input: { path: 'src/ok.ts' } },
    ])
    expect(calls(events)).toEqual([{ name: 'ok', input: { path: 'src/ok.ts' } }])
    expect(textOf(events)).toBe(bad + '\nRetrying.\n')
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should support a valid block directly after a malformed one (scanning resumes after the block)', () => {
    const bad = '<tool_calls><invoke name="a"><parameter>x</parameter></invoke></tool_calls>'
    const events = expectChunkInvariant(bad + valid)
    expect(calls(events)).toEqual([{ name: 'ok', input: { path: 'src/ok.ts' } }])
    expect(textOf(events)).toBe(bad)
    expect(diagnostics(events).map((d) => d.span)).toEqual([{ start: 0, end: bad.length }])
  })

  it('should support one diagnostic per malformed block', () => {
    const bad = '<tool_calls><invoke></invoke></tool_calls>'
    const events = expectChunkInvariant([bad, bad, valid, bad].join(' '))
    expect(codes(events)).toEqual(['malformed-block', 'malformed-block', 'malformed-block'])
    expect(calls(events).map((c) => c.name)).toEqual(['ok'])
  })

  it('should support an invoke body that is a JSON object (not malformed)', () => {
    const input = '<tool_calls><invoke name="read_file">{"path": "src/a.ts"}</invoke></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'read_file', input: { path: 'src/a.ts' } }])
    expect(codes(events)).toEqual([])
  })

  it('should support whitespace-only invoke bodies (not malformed)', () => {
    const events = expectChunkInvariant('<tool_calls>\n<invoke name="a">\n \t\n</invoke>\n</tool_calls>')
    expect(calls(events)).toEqual([{ name: 'a', input: {} }])
    expect(codes(events)).toEqual([])
  })

  it.each([
    ['plain', '<tool_calls></tool_calls>'],
    ['with whitespace', '<tool_calls>\n \n</tool_calls>'],
    ['DSML', '<｜DSML｜tool_calls>\n</｜DSML｜tool_calls>'],
    ['fullwidth', '＜ＤＳＭＬ＜tool_calls＞＜／ＤＳＭＬ＜／tool_calls＞'],
  ])('should not support an empty wrapper as a call or a diagnostic (%s)', (_label, empty) => {
    const input = 'x ' + empty + ' y'
    expect(expectChunkInvariant(input)).toEqual([{ type: 'text', text: input }])
  })

  it('should support malformed blocks in every spelling family', () => {
    for (const s of SPELLINGS) {
      expectMalformed(s.open(s.wrapper) + s.open('invoke') + s.close('invoke') + s.close(s.wrapper))
    }
  })
})
