/**
 * Rule 6: the same parameter given twice becomes an array of both values;
 * an invoke body that is a JSON object is the input (a lone `input`,
 * `arguments` or `parameters` object is unwrapped).
 */
import { describe, expect, it } from 'vitest'
import { block, dsml, inputOf, param, shape, stable } from './helpers.js'

describe('rule 6: repeated parameters', () => {
  it('should support a parameter given twice as an array, in order', () => {
    expect(inputOf(block(param('file', 'a') + param('n', '1') + param('file', 'b')))).toEqual({ file: ['a', 'b'], n: 1 })
  })

  it('should support three or more, each decoded on its own', () => {
    expect(inputOf(block(param('x', '1') + param('x', '<![CDATA[ two ]]>') + param('x', 'true')))).toEqual({ x: [1, ' two ', true] })
  })

  it('should not support merging an array value into the repeat', () => {
    expect(inputOf(block(param('x', '[1]') + param('x', '2')))).toEqual({ x: [[1], 2] })
  })
})

describe('rule 6: JSON invoke body', () => {
  it('should support a JSON object body as the input', () => {
    expect(inputOf(block('{"path":"a","n":[1,2]}'))).toEqual({ path: 'a', n: [1, 2] })
  })

  it('should support unwrapping a lone input / arguments / parameters object', () => {
    for (const key of ['input', 'arguments', 'parameters']) expect(inputOf(dsml(`\n{"${key}": {"q": 1}}\n`))).toEqual({ q: 1 })
  })

  it('should support unwrapping OpenAI-style arguments given as JSON text', () => {
    expect(inputOf(block('{"arguments": "{\\"q\\": 2}"}'))).toEqual({ q: 2 })
  })

  it('should not support unwrapping when the wrapper key has company', () => {
    expect(inputOf(block('{"input": {"q": 1}, "x": 2}'))).toEqual({ input: { q: 1 }, x: 2 })
  })

  it('should not support a body that is not a JSON object (malformed-block)', () => {
    for (const body of ['{"a":', '{} x', '{"a":1}{"b":2}']) expect(shape(stable(block(body)))).toEqual(['text', 'diagnostic:malformed-block'])
  })

  it('should not support a body with a key written twice in one object, which JSON parsers read differently (malformed-block)', () => {
    // JSON.parse keeps the last, other parsers the first or refuse the text: the call could be another reader's other call
    for (const body of ['{"path": "a", "path": "/"}', '{"arguments": {"q": 1}, "arguments": {"q": 2}}', '{"arguments": "{\\"q\\": 1, \\"q\\": 2}"}', '{"opts": {"r": false, "r": true}}']) {
      expect(shape(stable(block(body))), body).toEqual(['text', 'diagnostic:malformed-block'])
    }
  })
})
