/**
 * Rule 2: a value that is exactly one CDATA section (whitespace around it
 * ignored) keeps its content verbatim; text beside CDATA, or several
 * sections, join in order and nothing is mangled.
 */
import { describe, expect, it } from 'vitest'
import { valueOf } from './helpers.js'

describe('rule 2: CDATA', () => {
  it('should support one section verbatim: spaces, newlines, entities, markup', () => {
    expect(valueOf('note', '<![CDATA[  a &amp; <b>\n]]>')).toBe('  a &amp; <b>\n')
  })

  it('should support whitespace and comments around the one section', () => {
    expect(valueOf('note', '\n\t <![CDATA[x ]]>  \n')).toBe('x ')
    expect(valueOf('note', '<!-- c --> <![CDATA[y]]>')).toBe('y')
  })

  it('should support text before and after a section, joined', () => {
    expect(valueOf('note', 'a <![CDATA[<b>]]> c')).toBe('a <b> c')
  })

  it('should support several sections, joined with the text between', () => {
    expect(valueOf('note', '<![CDATA[a]]>-<![CDATA[b]]>')).toBe('a-b')
  })

  it('should support trimming only the outer text, never CDATA content', () => {
    expect(valueOf('note', '  <![CDATA[  a]]> b  ')).toBe('  a b')
    expect(valueOf('note', ' x <![CDATA[b  ]]>  ')).toBe('x b  ')
  })

  it('should support entities in the text beside CDATA, but not inside it', () => {
    expect(valueOf('note', '&lt;<![CDATA[&lt;]]>')).toBe('<&lt;')
  })

  it('should support an empty section as an empty string', () => {
    expect(valueOf('note', '<![CDATA[]]>')).toBe('')
  })

  it('should not support reading mixed text and CDATA as a JSON literal', () => {
    expect(valueOf('n', '<![CDATA[4]]>2')).toBe('42')
  })

  it('should not support unwrapping CDATA when the value has other text', () => {
    expect(valueOf('note', 'x<![CDATA[]]>')).toBe('x')
  })
})
