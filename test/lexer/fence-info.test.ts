/**
 * A backtick fence opener whose info string holds a backtick is no fence
 * (CommonMark 4.5): the run is an inline code-span run of its paragraph.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const block = '<tool_calls><invoke name="a"><parameter name="p">x</parameter></invoke></tool_calls>'

describe('fence info strings', () => {
  it('should support a backtick fence whose info string has no backtick (markup inside is text)', () => {
    const input = '``` js {1,3}\n' + block + '\n```\n'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should support a tilde fence whose info string holds backticks (still a fence)', () => {
    const input = '~~~ a`b`\n' + block + '\n~~~\n'
    expect(calls(expectChunkInvariant(input))).toEqual([])
  })

  it('should not support a backtick fence whose info string holds a backtick: the block after it is live', () => {
    const input = '``` a`b\n' + block + '\n'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support the voided opener as a code-span run: a closing run of its length makes the block an example', () => {
    // ``` opens a span (level 3) after the void; the later ``` closes it, so the block sits inside the span
    const input = '``` x`y`\n' + block + ' ```\n'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should not support a voided opener swallowing the next paragraph', () => {
    const input = '``` a`b\n\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })
})
