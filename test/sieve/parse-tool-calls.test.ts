/**
 * `parseToolCalls(text, options?)` gives the same result as streaming the text
 * in one chunk: the calls, all text concatenated, the diagnostics, and whether
 * any tool-call syntax (a wrapper or invoke tag outside Markdown code) was seen.
 */
import { describe, expect, it } from 'vitest'
import { parseToolCalls } from '../../src/index.js'
import type { SieveOptions } from '../../src/types.js'
import { ID, ID_PATTERN, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { DRIFT, SPELLINGS, block, readFile } from '../helpers/blocks.js'

const live = '<tool_calls><invoke name="a"><parameter name="path">src/a.ts</parameter></invoke></tool_calls>'

const CASES: [string, string, SieveOptions?][] = [
  ['plain prose', 'Just an answer. 只是回答。'],
  ['one DSML block between text', 'Reading.\n' + readFile('src/a.ts', SPELLINGS[0]!) + '\nDone.'],
  ['several invokes', block(SPELLINGS[2]!, [{ name: 'a', params: { path: 'x' } }, { name: 'b' }, { name: 'c' }])],
  ['drift spellings', DRIFT.map((s) => block(s, [{ name: 'd' }])).join('\n')],
  ['a fenced example', 'Example:\n```\n' + live + '\n```\n'],
  ['an inline example', 'Use `' + live + '` like this.'],
  ['a held decision that turns live', 'Use ` then ' + live + '\n\nok'],
  ['a mention', 'Use <tool_calls> to open and </tool_calls> to close.'],
  ['a malformed block then a valid one', '<tool_calls><invoke></invoke></tool_calls>\n' + live],
  ['an unterminated block', 'x <tool_calls><invoke name="a"><parameter name="p">v'],
  ['the missing-wrapper repair', '<invoke name="a"></invoke>\n</tool_calls>'],
  ['CDATA', '<tool_calls><invoke name="w"><parameter name="c"><![CDATA[</parameter>]]></parameter></invoke></tool_calls>'],
  ['a capture over the limit', '<tool_calls><invoke name="a"><parameter name="c">' + 'x'.repeat(300) + '</parameter></invoke></tool_calls>', { captureLimit: 200 }],
]

describe('parseToolCalls', () => {
  it.each(CASES)('should support the same result as streaming in one chunk (%s)', (_label, input, opts = {}) => {
    const events = expectChunkInvariant(input, opts)
    const result = parseToolCalls(input, opts)
    for (const call of result.calls) expect(call.id).toMatch(ID_PATTERN)
    expect(result.calls.map((c) => ({ type: 'tool-call', ...c, id: ID }))).toEqual(events.filter((e) => e.type === 'tool-call'))
    expect(result.text).toBe(textOf(events))
    expect(result.diagnostics.map((d) => ({ type: d.type, code: d.code, span: d.span }))).toEqual(
      events.filter((e) => e.type === 'diagnostic'),
    )
    for (const d of result.diagnostics) expect(d.message.length).toBeGreaterThan(0)
  })

  it.each([
    ['a block', live],
    ['a DSML block', readFile('src/a.ts', SPELLINGS[0]!)],
    ['a mention of the wrapper', 'Use <tool_calls> to open.'],
    ['a closing wrapper mention', 'Close with </tool_calls>.'],
    ['a bare invoke', 'The <invoke name="a"></invoke> element.'],
    ['a malformed block', '<tool_calls><invoke></invoke></tool_calls>'],
    ['an unterminated block', '<tool_calls><invoke name="a">'],
    ['a block after an unmatched backtick, live at the end', 'Use ` then ' + live],
  ])('should support sawToolCallSyntax for %s', (_label, input) => {
    expect(parseToolCalls(input).sawToolCallSyntax).toBe(true)
  })

  it.each([
    ['plain prose', 'No tools here, 1 < 2 and 3 > 2.'],
    ['a fenced example', 'Example:\n```\n' + live + '\n```\n'],
    ['an inline example', 'Use `' + live + '` like this.'],
    ['a parameter tag only', 'Each <parameter name="p"> holds a value.'],
    ['names that are not exact', '<tool_call> <invoker> <tool_calls_extra>'],
    ['a partial prefix at the end', 'And then <|DSML|tool_ca'],
  ])('should not support sawToolCallSyntax for %s', (_label, input) => {
    expect(parseToolCalls(input).sawToolCallSyntax).toBe(false)
  })

  it('should support options: `generateId` and `captureLimit`', () => {
    let n = 0
    const result = parseToolCalls(block(SPELLINGS[4]!, [{ name: 'a' }, { name: 'b' }]), { generateId: () => `id${++n}` })
    expect(result.calls.map((c) => c.id)).toEqual(['id1', 'id2'])
    const big = '<tool_calls><invoke name="a"><parameter name="c">' + 'x'.repeat(300) + '</parameter></invoke></tool_calls>'
    expect(parseToolCalls(big).calls.map((c) => c.name)).toEqual(['a'])
    expect(parseToolCalls(big, { captureLimit: 200 }).calls).toEqual([])
  })

  it('should support an empty string', () => {
    expect(parseToolCalls('')).toEqual({ calls: [], text: '', reasoning: '', diagnostics: [], errors: [], sawToolCallSyntax: false })
  })

  it('should not support throwing on arbitrary input', () => {
    for (const input of ['\u0000<\uD800', '<'.repeat(1000), '</tool_calls>'.repeat(20), '＜'.repeat(50) + '｜']) {
      const result = parseToolCalls(input)
      expect(result.text + result.calls.map((c) => c.raw).join('')).toHaveLength(input.length)
    }
  })
})
