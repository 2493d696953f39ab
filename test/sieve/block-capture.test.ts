/**
 * Block capture: a block is captured from its wrapper opener to the
 * matching closer and emitted as one `tool-call` per invoke, in order, between
 * the text before and after it.
 *
 * Raw partition: call 1's raw runs from the wrapper opener through invoke 1's
 * closer; each later call's from just after the previous invoke's closer
 * through its own; the last one's also through the wrapper closer.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { callEvents, calls, codes, expectChunkInvariant, normalise, outline, textOf } from '../helpers/chunking.js'
import { DRIFT, SPELLINGS, block, buildBlock, type CallSpec, type Spelling } from '../helpers/blocks.js'

const xml = SPELLINGS[4]!
const ascii = SPELLINGS[1]!
const three: CallSpec[] = [
  { name: 'read_file', params: { path: 'src/a.ts' } },
  { name: 'list_dir', params: { path: 'src', depth: 'deep' } },
  { name: 'ping' },
]

function specsFor(s: Spelling): void {
  it('should support one call between text before and after', () => {
    const built = buildBlock(s, [{ name: 'read_file', params: { path: 'src/a.ts' } }])
    const input = 'Let me read it.\n' + built.markup + '\nDone.'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['Let me read it.\n', { call: 'read_file', input: { path: 'src/a.ts' } }, '\nDone.'])
    expect(callEvents(events).map((c) => c.raw)).toEqual(built.raws)
    expect(callEvents(events)[0]?.span).toEqual({ start: 16, end: 16 + built.markup.length })
  })

  it('should support several invokes, one event each, in order, with the raw partition', () => {
    for (const sep of ['\n', '', '\n\n  ']) {
      const built = buildBlock(s, three, sep)
      const input = 'Three calls:' + built.markup + 'ok'
      const events = expectChunkInvariant(input)
      expect(calls(events)).toEqual(built.calls)
      expect(callEvents(events).map((c) => c.raw)).toEqual(built.raws)
      expect(textOf(events)).toBe('Three calls:ok')
      expect(codes(events)).toEqual([])
    }
  })
}

describe('block capture', () => {
  describe.each(SPELLINGS)('spelling: $label', specsFor)
  describe.each(DRIFT)('drift: $label', specsFor)

  it('should support `<<|DSML|tool_calls>` with every `<` in the raw', () => {
    const input = 'x <<|DSML|tool_calls><<|DSML|invoke name="a"></|DSML|invoke></|DSML|tool_calls> y'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['x ', { call: 'a', input: {} }, ' y'])
    expect(callEvents(events)[0]?.raw.startsWith('<<|DSML|tool_calls>')).toBe(true)
  })

  it('should support a trailing `|` that ends a tag without `>`, followed by text', () => {
    const input = '<|DSML|tool_calls|\n<|DSML|invoke name="a"|\n<|DSML|parameter name="path"|src/a.ts</|DSML|parameter|\n</|DSML|invoke|\n</|DSML|tool_calls| and then text'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual([{ call: 'a', input: { path: 'src/a.ts' } }, ' and then text'])
  })

  it('should support a trailing `|` before `>` (`<|DSML|tool_calls|>`)', () => {
    const input = '<|DSML|tool_calls|><|DSML|invoke name="a"|></|DSML|invoke|></|DSML|tool_calls|>|'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual([{ call: 'a', input: {} }, '|'])
  })

  it('should support mixed spellings in one block', () => {
    const input =
      '<｜DSML｜tool_calls>\n<invoke name="a">\n<parameter name="path">src/a.ts</parameter>\n</invoke>\n' +
      '＜ＤＳＭＬ＜invoke name="b"＞<|DSML|parameter name="path">src/b.ts</｜DSML｜parameter>＜／ＤＳＭＬ＜／invoke＞\n</tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([
      { name: 'a', input: { path: 'src/a.ts' } },
      { name: 'b', input: { path: 'src/b.ts' } },
    ])
    expect(textOf(events)).toBe('')
  })

  it('should support a DSML opener closed by a plain closer', () => {
    const input = '<|DSML|tool_calls><|DSML|invoke name="a"></invoke></tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: {} }])
  })

  // a real invoke inside an unknown wrapper is a bare one that the unknown closer breaks: malformed-block
  it.each([
    ['<tool_calls_extra>', '<tool_calls_extra><invoke name="a"></invoke></tool_calls_extra>', ['malformed-block']],
    ['<tool_call>', '<tool_call><invoke name="a"></invoke></tool_call>', ['malformed-block']],
    ['<invoker>', '<tool_calls><invoker name="a"></invoker></tool_calls>', []],
    ['<calls> outside DSML', '<calls><invoke name="a"></invoke></calls>', ['malformed-block']],
    ['<|DSML|tool_calls_v2>', '<|DSML|tool_calls_v2><|DSML|invoke name="a"></|DSML|invoke></|DSML|tool_calls_v2>', ['malformed-block']],
    ['<DSMLtool_calls> (no separator in fullwidth)', '＜ＤＳＭＬtool_calls＞＜ＤＳＭＬinvoke name="a"＞＜／ＤＳＭＬinvoke＞＜／ＤＳＭＬtool_calls＞', []],
  ])('should not support names that are not exact (%s)', (_label, input, expected) => {
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(expected)
  })

  it('should support text before and after the block in the same chunk, in order', () => {
    const input = 'before ' + block(ascii, [{ name: 'a' }, { name: 'b' }]) + ' after'
    const sieve = createSieve()
    const pushed = normalise(sieve.push(input))
    expect(outline(pushed)).toEqual(['before ', { call: 'a', input: {} }, { call: 'b', input: {} }, ' after'])
    expect(normalise(sieve.end())).toEqual([])
    expect(outline(expectChunkInvariant(input))).toEqual(outline(pushed))
  })

  it('should support an empty invoke as an empty input', () => {
    const events = expectChunkInvariant('<tool_calls><invoke name="noop"></invoke></tool_calls>')
    expect(callEvents(events).map((c) => [c.name, c.input, c.arguments])).toEqual([['noop', {}, '{}']])
  })

  it('should support trimmed parameter values and several parameters', () => {
    const input =
      '<tool_calls>\n<invoke name="edit">\n<parameter name="path">\n  src/a.ts  \n</parameter>\n' +
      '<parameter name="note">  两个 words  </parameter>\n</invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'edit', input: { path: 'src/a.ts', note: '两个 words' } }])
  })

  it('should support `<`, `>` and `|` inside a value', () => {
    const input = '<tool_calls><invoke name="sh"><parameter name="note">x > y and a < b | c</parameter></invoke></tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'sh', input: { note: 'x > y and a < b | c' } }])
  })

  it('should support a `string="true"` attribute on DSML parameters', () => {
    const input =
      '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n' +
      '<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'read_file', input: { path: 'src/a.ts' } }])
  })

  it('should support two blocks in one stream, with unique ids', () => {
    const input = block(xml, [{ name: 'a' }]) + '\nbetween\n' + block(SPELLINGS[0]!, [{ name: 'b' }])
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual([{ call: 'a', input: {} }, '\nbetween\n', { call: 'b', input: {} }])
    const sieve = createSieve()
    const ids = [...sieve.push(input), ...sieve.end()].flatMap((e) => (e.type === 'tool-call' ? [e.id] : []))
    expect(new Set(ids).size).toBe(2)
  })

  it('should support a caller-supplied `generateId`', () => {
    let n = 0
    const sieve = createSieve({ generateId: () => `id-${++n}` })
    const events = [...sieve.push(block(xml, [{ name: 'a' }, { name: 'b' }])), ...sieve.end()]
    expect(events.flatMap((e) => (e.type === 'tool-call' ? [e.id] : []))).toEqual(['id-1', 'id-2'])
  })

  it('should support spans as UTF-16 offsets into the whole stream', () => {
    const before = '😀 中文 '
    const markup = block(SPELLINGS[2]!, [{ name: 'a' }])
    const events = expectChunkInvariant(before + markup)
    expect(callEvents(events)[0]?.span).toEqual({ start: before.length, end: before.length + markup.length })
  })
})
