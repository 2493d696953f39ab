/**
 * The block parser is one shared instance, but grammars compiled after it
 * bring new token types. Chevrotain fixes each category's members into the
 * parser's lookahead when it is built, so the parser must be rebuilt for them.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar, extendGrammar, parseToolCalls } from '../../src/index.js'
import { block, param } from './helpers.js'

const input = block(param('a', '1') + param('b', '2'))

describe('parser and later grammars', () => {
  it('should support adjacent parameters under grammars compiled one after another', () => {
    expect(parseToolCalls(input).calls[0]!.input).toEqual({ a: 1, b: 2 })
    for (let i = 0; i < 3; i++) {
      const grammar = extendGrammar(defaultGrammar, { wrapper: [`calls_${i}`] })
      expect(parseToolCalls(input, { grammar }).calls[0]!.input).toEqual({ a: 1, b: 2 })
      expect(parseToolCalls(input.replaceAll('tool_calls', `calls_${i}`), { grammar }).calls[0]!.input).toEqual({ a: 1, b: 2 })
    }
    expect(parseToolCalls(input).calls[0]!.input).toEqual({ a: 1, b: 2 })
  })

  it('should not support the new wrapper name under the default grammar', () => {
    expect(parseToolCalls(input.replaceAll('tool_calls', 'calls_0')).calls).toEqual([])
  })
})
