/**
 * A missing opening wrapper. `<invoke …>…</invoke>` followed only by
 * whitespace or more invokes and then a closing wrapper is a block; so is one
 * the stream ends after (the `unclosedWrapper` repair). A complete bare invoke
 * that prose or other markup follows is text, with `malformed-block`.
 */
import { describe, expect, it } from 'vitest'
import { callEvents, calls, codes, expectChunkInvariant, outline, textOf } from '../helpers/chunking.js'
import { DRIFT, SPELLINGS, invoke } from '../helpers/blocks.js'
import { defaultGrammar, extendGrammar } from '../../src/index.js'

const read = { name: 'read_file', params: { path: 'src/a.ts' } }
const list = { name: 'list_dir', params: { path: 'src' } }

describe('missing opening wrapper', () => {
  describe.each([...SPELLINGS, ...DRIFT])('$label', (s) => {
    it('should support a bare invoke closed by a wrapper closer', () => {
      const markup = invoke(s, read) + '\n' + s.close(s.wrapper)
      const events = expectChunkInvariant('Sure.\n' + markup + '\nDone.')
      expect(outline(events)).toEqual(['Sure.\n', { call: 'read_file', input: { path: 'src/a.ts' } }, '\nDone.'])
      expect(callEvents(events)[0]?.raw).toBe(markup)
    })

    it('should not support a bare invoke that prose follows (text, malformed-block)', () => {
      const input = 'Sure.\n' + invoke(s, read) + '\nDone.'
      const events = expectChunkInvariant(input)
      expect(calls(events)).toEqual([])
      expect(textOf(events)).toBe(input)
      expect(codes(events)).toEqual(['malformed-block'])
    })

    it('should support a bare invoke the stream ends after (a call, unclosed-wrapper)', () => {
      const events = expectChunkInvariant('Sure.\n' + invoke(s, read) + '\n')
      expect(outline(events)).toEqual(['Sure.\n', { call: 'read_file', input: { path: 'src/a.ts' } }, { diagnostic: 'unclosed-wrapper' }, '\n'])
    })
  })

  it('should support several bare invokes and then a closer, with the raw partition', () => {
    const first = invoke(SPELLINGS[0]!, read)
    const second = '\n\n' + invoke(SPELLINGS[0]!, list) + '\n</｜DSML｜tool_calls>'
    const events = expectChunkInvariant(first + second + ' tail')
    expect(calls(events)).toEqual([
      { name: 'read_file', input: { path: 'src/a.ts' } },
      { name: 'list_dir', input: { path: 'src' } },
    ])
    expect(callEvents(events).map((c) => c.raw)).toEqual([first, second])
    expect(textOf(events)).toBe(' tail')
  })

  it('should support a bare plain invoke closed by a DSML closer (mixed spellings)', () => {
    const input = '<invoke name="a"><parameter name="path">x/y</parameter></invoke>\n</|DSML|tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { path: 'x/y' } }])
  })

  it('should support the repair at the very start and at the very end of the stream', () => {
    const input = '<invoke name="a"></invoke></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual([{ call: 'a', input: {} }])
    expect(callEvents(events)[0]?.span).toEqual({ start: 0, end: input.length })
  })

  it('should support a complete bare invoke at end of stream (a call, unclosed-wrapper)', () => {
    expect(outline(expectChunkInvariant('<invoke name="a"></invoke>'))).toEqual([{ call: 'a', input: {} }, { diagnostic: 'unclosed-wrapper' }])
    expect(outline(expectChunkInvariant('x <invoke name="a"></invoke>\n  \n'))).toEqual(['x ', { call: 'a', input: {} }, { diagnostic: 'unclosed-wrapper' }, '\n  \n'])
    expect(outline(expectChunkInvariant('<invoke name="a"><parameter name="p">v</parameter></invoke>'))).toEqual([{ call: 'a', input: { p: 'v' } }, { diagnostic: 'unclosed-wrapper' }])
  })

  it('should not support a complete bare invoke at end of stream when the grammar turns the repair off (text, unterminated-block)', () => {
    const grammar = extendGrammar(defaultGrammar, { repairs: { unclosedWrapper: false } })
    const input = '<invoke name="a"></invoke>'
    expect(outline(expectChunkInvariant(input, { grammar }))).toEqual([input, { diagnostic: 'unterminated-block' }])
  })

  it('should not support a bare invoke followed by prose and then a closer (text, malformed-block)', () => {
    const input = '<invoke name="a"></invoke> see </tool_calls>'
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should not support a bare invoke followed by a closer of the wrong role (text, malformed-block)', () => {
    const input = '<invoke name="a"></invoke></invoke></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should not support a complete DSML invoke and a stray closer at the end of the stream (text, malformed-block)', () => {
    const input = 'ok <｜DSML｜invoke name="a"><｜DSML｜parameter name="p" string="true">v</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜invoke>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should support a real block right after a bare invoke that was text', () => {
    const input = '<invoke name="a"></invoke><tool_calls><invoke name="b"></invoke></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['<invoke name="a"></invoke>', { diagnostic: 'malformed-block' }, { call: 'b', input: {} }])
  })

  it('should support a bare invoke that follows text which ended a mention', () => {
    const input = 'Use <tool_calls> then\n<invoke name="a"></invoke>\n</tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: {} }])
    expect(textOf(events)).toBe('Use <tool_calls> then\n')
    expect(codes(events)).toEqual([])
  })
})
