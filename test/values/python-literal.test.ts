import { describe, expect, it } from 'vitest'
import { pythonLiteral } from '../../src/values/python-literal.js'

describe('Python literals', () => {
  it('should support what str() writes of dicts, lists and tuples', () => {
    expect(pythonLiteral(`{'k': 'v', "n": 79, 'nested': {'ok': True, 'list': [1, 2.5, -3e-07]}, 't': (1,), 'z': None}`)).toEqual({ ok: true, value: { k: 'v', n: 79, nested: { ok: true, list: [1, 2.5, -3e-7] }, t: [1], z: null } })
    expect(pythonLiteral('[]')).toEqual({ ok: true, value: [] })
    expect(pythonLiteral(' [1, 2, ] ')).toEqual({ ok: true, value: [1, 2] })
  })

  it('should support string escapes as Python reads them', () => {
    expect(pythonLiteral(String.raw`['a\'b', "c\"d", 'e\nf', '\x41\u00e9\U0001F600', 'C:\\Users', 'a\qb']`)).toEqual({ ok: true, value: ["a'b", 'c"d', 'e\nf', 'Aé😀', 'C:\\Users', 'a\\qb'] })
    // `\U` starts an eight-digit escape: `'C:\Users'` is no Python literal
    expect(pythonLiteral(String.raw`'C:\Users'`)).toEqual({ ok: false })
  })

  it('should support a key named __proto__ as an own key', () => {
    const r = pythonLiteral(`{'__proto__': 1}`)
    expect(r.ok && Object.hasOwn(r.value as object, '__proto__')).toBe(true)
  })

  it('should not support expressions, names, calls, non-string keys or broken text', () => {
    for (const t of ['1 + 2', 'x', 'f(1)', '{1: 2}', "{'a': 1", "'unterminated", '[1 2]', 'true', 'nan', '{**a}', "{'a': 1} x", '']) expect(pythonLiteral(t), t).toEqual({ ok: false })
  })

  it('should not support nesting deeper than its limit', () => {
    expect(pythonLiteral('['.repeat(5000) + ']'.repeat(5000))).toEqual({ ok: false })
  })
})
