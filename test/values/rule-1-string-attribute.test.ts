/**
 * Rule 1: `string="true"` (DeepSeek's own attribute; its encoder writes
 * strings raw) keeps exactly the text between the tags; `string="false"`
 * means the text is JSON.
 */
import { describe, expect, it } from 'vitest'
import { block, dsml, dsmlParam, inputOf, param, shape, stable, valueOf } from './helpers.js'

const str = ' string="true"'
const json = ' string="false"'

describe('rule 1: string="true"', () => {
  it('should support the exact text, untrimmed', () => {
    expect(valueOf('s', '\n  two  lines\n  ', str)).toBe('\n  two  lines\n  ')
  })

  it('should support code that contains entities, kept as written', () => {
    expect(valueOf('code', 'if (a &amp;&amp; b) x = "&lt;";', str)).toBe('if (a &amp;&amp; b) x = "&lt;";')
  })

  it('should support a JSON-looking value as a string', () => {
    for (const v of ['42', 'true', 'null', '[1,2]', '{"k":1}', '"q"']) expect(valueOf('s', v, str)).toBe(v)
  })

  it('should support one CDATA section, unwrapped', () => {
    expect(valueOf('s', '<![CDATA[ a <b> ]]>', str)).toBe(' a <b> ')
    expect(valueOf('s', '\n<![CDATA[x]]>\n', str)).toBe('x')
  })

  it('should support CDATA sections back to back (a string containing `]]>`), joined', () => {
    expect(valueOf('s', '<![CDATA[a]]]]><![CDATA[>b]]>', str)).toBe('a]]>b')
  })

  it('should support the attribute in DSML, any case and quoting', () => {
    const input = dsml(dsmlParam('s', ' 7 ', ' string="TRUE"') + dsmlParam('t', ' 8 ', " string='true'"))
    expect(inputOf(input)).toEqual({ s: ' 7 ', t: ' 8 ' })
  })

  it('should support comments as part of the text', () => {
    expect(valueOf('s', 'a<!-- b -->c', str)).toBe('a<!-- b -->c')
  })

  it('should not support unwrapping CDATA with text beside it', () => {
    expect(valueOf('s', 'x <![CDATA[y]]>', str)).toBe('x <![CDATA[y]]>')
    expect(valueOf('s', '<![CDATA[a]]> <![CDATA[b]]>', str)).toBe('<![CDATA[a]]> <![CDATA[b]]>')
  })
})

describe('rule 1: string="false"', () => {
  it('should support JSON values of every kind', () => {
    const cases: [string, unknown][] = [['42', 42], ['-0.5', -0.5], ['true', true], ['null', null], ['"x"', 'x'], ['[1,"a"]', [1, 'a']], ['{"k":{"j":[]}}', { k: { j: [] } }]]
    for (const [text, value] of cases) expect(valueOf('v', text, json)).toEqual(value)
  })

  it('should support whitespace around the JSON, and JSON in CDATA', () => {
    expect(valueOf('v', '\n  [1, 2]\n', json)).toEqual([1, 2])
    expect(valueOf('v', '<![CDATA[{"a":"</parameter>"}]]>', json)).toEqual({ a: '</parameter>' })
  })

  it('should support JSON strings without entity decoding', () => {
    expect(valueOf('v', '"a &amp; b"', json)).toBe('a &amp; b')
  })

  it('should not support a value that is not JSON: raw string kept, bad-json-value attached', () => {
    const input = block(param('v', ' [1, 2 ', json))
    const events = stable(input)
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:bad-json-value'])
    expect(events[0]!.input).toEqual({ v: '[1, 2' })
    expect(events[1]).toMatchObject({ code: 'bad-json-value', path: '/v', span: events[0]!.span })
    expect(events[0]!.diagnostics).toEqual([events[1]])
  })

  it('should not support a non-finite number (1e400): kept as text, bad-json-value', () => {
    const events = stable(block(param('v', '1e400', json)))
    expect(events[0]!.input).toEqual({ v: '1e400' })
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:bad-json-value'])
  })

  it('should not support other values of the attribute as a mode', () => {
    expect(valueOf('v', ' 42 ', ' string="maybe"')).toBe(42)
  })
})
