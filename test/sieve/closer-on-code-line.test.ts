/**
 * A block's closer on a line of indented code (CommonMark 4.4: four columns
 * in, after a blank line or a heading). A block that opened in prose and
 * closes there (a mention, or a block that broke) goes out as text; what
 * follows its closer on that line is code, as prose reads that line, so a
 * block written after it there is text too. Found by a hostile fuzz with a
 * CommonMark oracle (micromark). Every case runs whole, one character at a
 * time, at every split point and in random chunks.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant } from '../helpers/chunking.js'
import { live } from '../helpers/guard.js'

const hermesCall = '<tool_call>{"name": "a", "arguments": {"path": "src/a.ts"}}</tool_call>'
const kimiCall = '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"path": "src/a.ts"}<|tool_call_end|><|tool_calls_section_end|>'

describe('a block closer on a line of indented code', () => {
  it.each([
    ['a wrapper mentioned in prose', 'Use <tool_calls>\n\n    </tool_calls> ' + live, {}],
    ['a wrapper mentioned in a heading', '# a <tool_calls>\n    </tool_calls> ' + live, {}],
    ['a bare invoke in prose', 'Use <invoke name="a">\n\n    </invoke> ' + live, {}],
    ['a Hermes block that broke', 'Use <tool_call>\n\n    x </tool_call> ' + hermesCall, { dialect: 'hermes' }],
    ['a Kimi K2 section mentioned in prose', 'Use <|tool_calls_section_begin|>\n\n    <|tool_calls_section_end|> ' + kimiCall, { dialect: 'kimi-k2' }],
  ])('should not support (run) a block after the closer of %s, on the same code line', (_label, input, opts) => {
    expect(calls(expectChunkInvariant(input, opts))).toEqual([])
  })

  it.each([
    ['on the next line, at column 0', 'Use <tool_calls>\n\n    </tool_calls>\n' + live],
    ['on a closer line that is no code (no blank line before it)', 'Use <tool_calls>\n    </tool_calls> ' + live],
  ])('should support a block after such a closer %s', (_label, input) => {
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
  })
})
