/**
 * Rule 4: a plain or CDATA value that is a JSON literal decodes to it;
 * anything else stays a string. Raw-text parameter names (the grammar's
 * `rawTextParameters`: `content`, `code`, `path`, …) are never JSON-decoded.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar, extendGrammar } from '../../src/index.js'
import { block, inputOf, param, valueOf } from './helpers.js'

/** [written, decoded]: the edge cases, one row each. */
const literals: Array<[string, unknown]> = [
  ['42', 42],
  ['0', 0],
  ['-0.5', -0.5],
  ['1e5', 100000],
  ['2.5E-3', 0.0025],
  ['9007199254740991', 9007199254740991],
  // past 2^53 a number too: the digits go out in `arguments` (numbers.test.ts), the nearest double in input
  ['12345678901234567890', 12345678901234567890],
  ['true', true],
  ['false', false],
  ['null', null],
  ['"quoted"', 'quoted'],
  ['"a\\nb \\u00e9"', 'a\nb é'],
  ['[1,"a"]', [1, 'a']],
  ['[]', []],
  ['{}', {}],
  ['{"k":1}', { k: 1 }],
  [' [1, {"a": [true, null]}] ', [1, { a: [true, null] }]],
  ['&quot;x&quot;', 'x'],
]

const strings: string[] = [
  '02134',
  '1.2.3',
  'True',
  'FALSE',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '+1',
  '.5',
  '5.',
  '1e400',
  '[1e400]',
  '-',
  '"unterminated',
  "'single'",
  '{k:1}',
  '[1,]',
  'nullish',
  'true false',
  '1 2',
  '２',
]

describe('rule 4: JSON literals', () => {
  it.each(literals)('should support %j as a JSON literal', (text, value) => {
    expect(valueOf('v', text)).toEqual(value)
  })

  it.each(strings)('should not support %j as a JSON literal (stays a string)', (text) => {
    expect(valueOf('v', text)).toBe(text)
  })

  it('should support a CDATA value that is exactly a literal', () => {
    expect(valueOf('v', '<![CDATA[[1,"<a>"]]]>')).toEqual([1, '<a>'])
  })

  it('should not support CDATA with whitespace around the literal', () => {
    expect(valueOf('v', '<![CDATA[ 42 ]]>')).toBe(' 42 ')
  })

  it('should support the raw-text names from the grammar as strings, plain or CDATA', () => {
    const names = ['content', 'text', 'code', 'command', 'script', 'prompt', 'query', 'old_string', 'new_string', 'pattern', 'path', 'file_path']
    for (const name of names) {
      expect(defaultGrammar.rawTextParameters).toContain(name)
      expect(valueOf(name, '<![CDATA[{"k":1}]]>')).toBe('{"k":1}')
      expect(valueOf(name, '42')).toBe('42')
    }
  })

  it('should support raw-text names case-insensitively', () => {
    expect(valueOf('Content', 'true')).toBe('true')
  })

  it('should support a grammar that adds raw-text names', () => {
    const grammar = extendGrammar(defaultGrammar, { rawTextParameters: ['zip'] })
    expect(inputOf(block(param('zip', '02134') + param('n', '7')), { grammar })).toEqual({ zip: '02134', n: 7 })
    expect(inputOf(block(param('zip', '123')), { grammar })).toEqual({ zip: '123' })
  })

  it('should not support decoding a name that only contains a raw-text name', () => {
    expect(valueOf('content_length', '12')).toBe(12)
  })
})
