/**
 * The harness's own comparison (`test/helpers/lossless-json.ts`): the
 * fixture tests trust it to tell `100.0` from `100`, so it is checked here.
 */
import { describe, expect, it } from 'vitest'
import { argumentsProblem, parseLossless } from '../helpers/lossless-json.js'

describe('lossless JSON comparison', () => {
  it.each([
    ['Python spacing against compact JSON', '{"a":[1,2.5,"x"]}', '{"a": [1, 2.5, "x"]}'],
    ['another key order', '{"b":true,"a":null}', '{"a": null, "b": true}'],
    ['escapes of the same string', '{"s":"\\u00e9\\n<"}', '{"s": "é\\n\\u003c"}'],
    ['an integer past 2^53, digit for digit', '{"n":9007199254740993}', '{"n": 9007199254740993}'],
    ['a float as Python writes it', '{"n":100.0,"e":1e-07}', '{"n": 100.0, "e": 1e-07}'],
  ])('should support %s as equal', (_label, actual, expected) => {
    expect(argumentsProblem(actual, expected)).toBeNull()
  })

  it.each([
    ['100 for 100.0', '{"n":100}', '{"n": 100.0}', '/n'],
    ['a rounded integer', '{"n":9007199254740992}', '{"n": 9007199254740993}', '/n'],
    ['1e-7 for 1e-07', '{"x":[1e-7]}', '{"x": [1e-07]}', '/x/0'],
    ['a string for a number', '{"n":"1"}', '{"n": 1}', '/n'],
    ['a missing key', '{}', '{"a": 1}', 'missing'],
    ['an extra item', '[1,2]', '[1]', '/'],
  ])('should not support %s as equal', (_label, actual, expected, where) => {
    expect(argumentsProblem(actual, expected)).toContain(where)
  })

  it('should not support text that is not JSON', () => {
    expect(argumentsProblem('{"a":1,}', '{"a": 1}')).toMatch(/not JSON/)
    expect(() => parseLossless('[1] x')).toThrow(SyntaxError)
    expect(() => parseLossless('01')).toThrow(SyntaxError)
    expect(() => parseLossless('NaN')).toThrow(SyntaxError)
  })
})
