/**
 * Rule 1: a `string` attribute is DeepSeek's own marking, and its official
 * encoder writes the value raw: `string="true"` keeps exactly the text
 * between the tags (nothing unwrapped, decoded or trimmed); `string="false"`
 * means that exact text is JSON.
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
    for (const v of ['42', 'true', 'null', '[1,2]', '{"k":1}', '"q"', '9007199254740993']) expect(valueOf('s', v, str)).toBe(v)
  })

  it('should support a CDATA section as literal text, as DeepSeek\'s own decoder reads it', () => {
    expect(valueOf('s', '<![CDATA[raw]]>', str)).toBe('<![CDATA[raw]]>')
    expect(valueOf('s', '\n<![CDATA[ a <b> ]]>\n', str)).toBe('\n<![CDATA[ a <b> ]]>\n')
  })

  it('should support CDATA sections back to back as literal text', () => {
    expect(valueOf('s', '<![CDATA[a]]]]><![CDATA[>b]]>', str)).toBe('<![CDATA[a]]]]><![CDATA[>b]]>')
    expect(valueOf('s', 'x <![CDATA[y]]>', str)).toBe('x <![CDATA[y]]>')
  })

  it('should support the attribute in DSML, any case and quoting', () => {
    const input = dsml(dsmlParam('s', ' 7 ', ' string="TRUE"') + dsmlParam('t', ' 8 ', " string='true'"))
    expect(inputOf(input)).toEqual({ s: ' 7 ', t: ' 8 ' })
  })

  it('should support comments as part of the text', () => {
    expect(valueOf('s', 'a<!-- b -->c', str)).toBe('a<!-- b -->c')
  })

  it('should support an empty value as the empty string', () => {
    expect(inputOf(dsml(dsmlParam('s', '', str)))).toEqual({ s: '' })
  })
})

describe('rule 1: string="false"', () => {
  it('should support JSON values of every kind', () => {
    const cases: [string, unknown][] = [['42', 42], ['-0.5', -0.5], ['true', true], ['null', null], ['"x"', 'x'], ['[1,"a"]', [1, 'a']], ['{"k":{"j":[]}}', { k: { j: [] } }]]
    for (const [text, value] of cases) expect(valueOf('v', text, json)).toEqual(value)
  })

  it('should support JSON whitespace around the JSON', () => {
    expect(valueOf('v', '\n  [1, 2]\n', json)).toEqual([1, 2])
    expect(valueOf('v', '\t{"a": 1}\r\n', json)).toEqual({ a: 1 })
  })

  it('should support JSON strings without entity decoding', () => {
    expect(valueOf('v', '"a &amp; b"', json)).toBe('a &amp; b')
  })

  it('should support markup-like text inside JSON strings as text', () => {
    expect(inputOf(dsml(dsmlParam('v', '{"html": "<b>x</b> &lt;"}', json)))).toEqual({ v: { html: '<b>x</b> &lt;' } })
  })

  it('should not support CDATA around the JSON: the exact text is not JSON (kept as a string, bad-json-value)', () => {
    const events = stable(block(param('v', '<![CDATA[{"a":1}]]>', json)))
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:bad-json-value'])
    expect(events[0]!.input).toEqual({ v: '<![CDATA[{"a":1}]]>' })
  })

  it('should not support a value that is not JSON: raw string kept, bad-json-value attached', () => {
    const input = block(param('v', ' [1, 2 ', json))
    const events = stable(input)
    expect(shape(events)).toEqual(['tool-call', 'diagnostic:bad-json-value'])
    expect(events[0]!.input).toEqual({ v: '[1, 2' })
    expect(events[1]).toMatchObject({ code: 'bad-json-value', path: '/v', span: events[0]!.span })
    expect(events[0]!.diagnostics).toEqual([events[1]])
  })

  it('should not support whitespace JSON does not allow (U+00A0, U+3000) around the JSON', () => {
    for (const ws of ['\u00a0', '\u3000']) {
      const events = stable(block(param('v', `${ws}42`, json)))
      expect(shape(events)).toEqual(['tool-call', 'diagnostic:bad-json-value'])
    }
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
