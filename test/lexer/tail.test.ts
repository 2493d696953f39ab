/**
 * Held tails whose opening tag completed once and could still become a
 * longer one (`<function_call` beside `<function_calls`, `<tool` beside
 * `<tool_calls`): what the chunk end leaves is decided as one chunk decides it.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar, extendGrammar } from '../../src/index.js'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'

describe('tails of names that prefix other names', () => {
  it.each([['function_call'], ['tool']])('should support a wrapper named %s beside the default names, in any chunking', (name) => {
    const grammar = extendGrammar(defaultGrammar, { wrapper: [name] })
    const mention = `hi <${name}> ok`
    expect(textOf(expectChunkInvariant(mention, { grammar }))).toBe(mention)
    const input = `<${name}><invoke name="a"></invoke></${name}> and <tool_calls><invoke name="b"></invoke></tool_calls>`
    expect(calls(expectChunkInvariant(input, { grammar }))).toEqual([{ name: 'a', input: {} }, { name: 'b', input: {} }])
  })
})
