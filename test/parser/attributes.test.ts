/**
 * Attribute lists. A whole ` name="value"` is one `Attr` token when its
 * closing quote is in the lexed text; any other shape, or an attribute a
 * chunk end cuts, comes as pieces (spaces, name, `=`, quotes, text). The
 * parser reads the whole token as the pieces it stands for, so every
 * chunking gives the same arguments, odd attribute lists included.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant } from '../helpers/chunking.js'

const block = (invokeAttrs: string, paramAttrs = ' name="p"') =>
  `<tool_calls>\n<invoke${invokeAttrs}>\n<parameter${paramAttrs}>v</parameter>\n</invoke>\n</tool_calls>`

describe('attribute lists', () => {
  it.each([
    ['double quotes', ' name="read"', 'read'],
    ['single quotes, spaces around `=`, an upper-case name', "  NAME = 'read' ", 'read'],
    ['a line break between attributes', ' id="1"\n  name="read"', 'read'],
    ['a bare word before the attribute', ' flag name="read"', 'read'],
    ['a quote inside the other quotes', ` name="it's" x='say "hi"'`, "it's"],
    // `name=` waits for a value and the next word is it (`x`); the quoted value after `x=` belongs to nothing
    ['a bare word taken as the value an `=` waits for', ' name= x="y"', 'x'],
  ])('should support %s, in every chunking', (_, attrs, name) => {
    expect(calls(expectChunkInvariant(block(attrs)))).toEqual([{ name, input: { p: 'v' } }])
  })

  it('should support parameter attributes as a whole token and as pieces alike (`string="true"` keeps the text)', () => {
    const input = block(' name="f"', ` name="p"  string='true'`).replace('>v<', '> 42 <')
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'f', input: { p: ' 42 ' } }])
  })

  it.each([
    ['before an invoke\'s end', '<tool_calls><invoke name="x"| ></invoke></tool_calls>'],
    ['at the wrapper\'s end', '<tool_calls| ><invoke name="x"></invoke></tool_calls>'],
    ['in the fullwidth spelling', '<｜DSML｜tool_calls><｜DSML｜invoke name="x"｜ ＞</｜DSML｜invoke></｜DSML｜tool_calls>'],
  ])('should support a tag end of a bar, spaces and `>` %s, cut anywhere (found in review: a chunk ending after `| ` took the bar alone)', (_, input) => {
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'x', input: {} }])
  })

  it.each([
    ['right after the name', ' name"read"'],
    ['after a blank', ' name "read"'],
    ['on a parameter', ' name="read"', ' name"p"'],
  ])('should not support a quoted value with no `=` before it (%s): the tag names nothing and the block is text, in every chunking', (_, invokeAttrs, paramAttrs?: string) => {
    // neither XML nor HTML gives the name that value: a block is never repaired into a plausible call (found by a hostile fuzz)
    expect(calls(expectChunkInvariant(block(invokeAttrs, paramAttrs)))).toEqual([])
  })

  it.each([
    ['an invoke naming two tools', ' name="read" name="write"', ' name="p"'],
    ['an invoke whose first name is empty', ' name="" name="write"', ' name="p"'],
    ['in another case', ' name="read" NAME="write"', ' name="p"'],
    ['a parameter with two names', ' name="read"', ' name="p" name="q"'],
    ['a parameter with two `string` flags', ' name="read"', ' name="p" string="true" string="false"'],
  ])('should not support a name or `string` flag written twice in one tag (%s): readers differ on which counts, so the block is text with malformed-block, in every chunking', (_, invokeAttrs, paramAttrs) => {
    const events = expectChunkInvariant(block(invokeAttrs, paramAttrs))
    expect(calls(events)).toEqual([])
    expect(events.filter((e) => e.type === 'diagnostic').map((e) => (e as { code: string }).code)).toEqual(['malformed-block'])
  })

  it('should support an attribute the reader does not use written twice', () => {
    expect(calls(expectChunkInvariant(block(' id="1" name="read" id="2"')))).toEqual([{ name: 'read', input: { p: 'v' } }])
  })

  it('should not support an attribute without a closing quote: the tag runs on into the value and the block is text', () => {
    const input = block(' name="read')
    expect(calls(expectChunkInvariant(input))).toEqual([])
  })
})
