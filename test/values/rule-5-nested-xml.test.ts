/**
 * Rule 5: nested XML elements become an object; repeated child names an
 * array; a body of only `<item>` children an array (even of one); a single
 * child named like the parameter is unwrapped. Mixed content stays a string.
 */
import { describe, expect, it } from 'vitest'
import { valueOf } from './helpers.js'

describe('rule 5: nested XML', () => {
  it('should support child elements as an object, leaves decoded by rules 2–4', () => {
    expect(valueOf('person', '<name>Ada</name><age>36</age>')).toEqual({ name: 'Ada', age: 36 })
  })

  it('should support whitespace, comments and nesting between elements', () => {
    const value = '\n  <user>\n    <name> Ada &amp; co </name>\n    <!-- note -->\n    <tags><item>a</item></tags>\n  </user>\n  <ok>true</ok>\n'
    expect(valueOf('v', value)).toEqual({ user: { name: 'Ada & co', tags: ['a'] }, ok: true })
  })

  it('should support repeated child names as an array', () => {
    expect(valueOf('v', '<tag>a</tag><tag>b</tag><n>1</n>')).toEqual({ tag: ['a', 'b'], n: 1 })
  })

  it('should support a body of only <item> children as an array, even one', () => {
    expect(valueOf('files', '<item>a.ts</item><item>b.ts</item>')).toEqual(['a.ts', 'b.ts'])
    expect(valueOf('files', '<item>a.ts</item>')).toEqual(['a.ts'])
    expect(valueOf('rows', '<item><id>1</id></item><item><id>2</id></item>')).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('should support a single child named like the parameter, unwrapped', () => {
    expect(valueOf('files', '<files><item>a</item><item>b</item></files>')).toEqual(['a', 'b'])
    expect(valueOf('limit', '<limit>5</limit>')).toBe(5)
  })

  it('should support CDATA and empty elements inside children', () => {
    expect(valueOf('v', '<code><![CDATA[a < b]]></code><empty></empty><self/>')).toEqual({ code: 'a < b', empty: '', self: '' })
  })

  it('should support raw-text child names as strings', () => {
    expect(valueOf('edit', '<path>42</path><content>{"a":1}</content>')).toEqual({ path: '42', content: '{"a":1}' })
  })

  it('should not support mixed content: it stays the string', () => {
    expect(valueOf('note', 'Run <code>npm test</code> now')).toBe('Run <code>npm test</code> now')
    expect(valueOf('note', '<b>bold</b> text')).toBe('<b>bold</b> text')
  })

  it('should not support mixed content inside a child as structure', () => {
    expect(valueOf('v', '<msg>Run <code>x</code></msg>')).toEqual({ msg: 'Run <code>x</code>' })
  })

  it('should not support elements with attributes, unclosed or mismatched tags', () => {
    for (const v of ['<a href="x">y</a>', '<a>y', '<a>y</b>', '<a><b>y</a></b>', 'a < b', '<1a>x</1a>']) expect(valueOf('v', v)).toBe(v)
  })

  it('should not support nested XML under a raw-text parameter name', () => {
    expect(valueOf('content', '<div>hi</div>')).toBe('<div>hi</div>')
  })
})
