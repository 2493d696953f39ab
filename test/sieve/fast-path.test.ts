/**
 * The driver's fast paths skip the lexer for chunks that cannot change
 * anything. They must give exactly what the lexer gives, for every chunking.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { createSieve } from '../../src/index.js'

const block = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'

describe('fast paths', () => {
  it('should support fence content with inline backticks and tildes (text) and a closer after it', () => {
    const input = '```sh\ncd ~/src && echo `pwd`\n' + block + '\n  ```\nafter\n' + block
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support a fence closer whose indent and run arrive in separate chunks', () => {
    const sieve = createSieve()
    const chunks = ['```\n', block, '\n  ', '```', '\n', block]
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(textOf(events)).toBe('```\n' + block + '\n  ```\n')
  })

  it('should support indentation between block tags streamed on its own', () => {
    const sieve = createSieve()
    const pieces = block.split(/(\s+)/).filter((p) => p.length > 0)
    const events = [...pieces.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(events.filter((e) => e.type === 'tool-call').map((e) => (e.type === 'tool-call' ? e.raw : '')).join('')).toBe(block)
  })

  it('should not support a fence opener hidden by the fast path: a line-start run in fence content still closes it', () => {
    const input = '~~~\n' + block + '\n~~~~\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })
})
