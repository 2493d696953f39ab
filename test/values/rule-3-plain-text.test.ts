/**
 * Rule 3: plain text with no `string` attribute is trimmed and
 * entity-decoded once: the five XML entities and numeric references.
 */
import { describe, expect, it } from 'vitest'
import { valueOf } from './helpers.js'

describe('rule 3: plain text', () => {
  it('should support trimming spaces, tabs and line breaks', () => {
    expect(valueOf('note', '\r\n\t  hello world \n')).toBe('hello world')
  })

  it('should support the five XML entities', () => {
    expect(valueOf('note', '&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;')).toBe(`<a> & "b" 'c'`)
  })

  it('should support decimal and hex references', () => {
    expect(valueOf('note', '&#65;&#x42;&#X43; &#x1F600; &#20320;')).toBe('ABC 😀 你')
  })

  it('should support decoding once: `&amp;lt;` gives `&lt;`', () => {
    expect(valueOf('note', '&amp;lt;')).toBe('&lt;')
  })

  it('should support a reference that keeps an edge space (trimmed before decoding)', () => {
    expect(valueOf('note', '&#32;x&#32;')).toBe(' x ')
  })

  it('should support comments dropped from the text', () => {
    expect(valueOf('note', 'a<!-- hidden -->b')).toBe('ab')
  })

  it('should support an empty or blank value as an empty string', () => {
    expect(valueOf('note', '')).toBe('')
    expect(valueOf('note', '  \n ')).toBe('')
  })

  it('should not support trimming non-XML spaces (U+3000, U+00A0) that the model meant', () => {
    expect(valueOf('note', ' 你好\u3000')).toBe('你好\u3000')
    expect(valueOf('note', '\u00a0x')).toBe('\u00a0x')
  })

  it('should not support unknown entities or forbidden references', () => {
    expect(valueOf('note', '&nbsp; &#0; &#xD800; &#x110000; & x;')).toBe('&nbsp; &#0; &#xD800; &#x110000; & x;')
  })
})
