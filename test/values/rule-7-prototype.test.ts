/**
 * Rule 7: argument objects have no prototype pitfalls: `__proto__`,
 * `constructor` and `hasOwnProperty` are ordinary own keys.
 */
import { describe, expect, it } from 'vitest'
import { block, inputOf, param, stable } from './helpers.js'

describe('rule 7: prototype-safe keys', () => {
  it('should support `__proto__` as an own key that changes no prototype', () => {
    const input = inputOf(block(param('__proto__', '{"polluted":true}')))
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
    expect(Object.keys(input)).toEqual(['__proto__'])
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toEqual({ polluted: true })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(JSON.parse(JSON.stringify(input))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'))
  })

  it('should support `constructor` and `hasOwnProperty` as plain keys', () => {
    const input = inputOf(block(param('constructor', 'x') + param('hasOwnProperty', '1')))
    expect(Object.keys(input)).toEqual(['constructor', 'hasOwnProperty'])
    expect(input.constructor).toBe('x')
    expect(Object.prototype.hasOwnProperty.call(input, 'hasOwnProperty')).toBe(true)
  })

  it('should support a repeated `__proto__` parameter as an array', () => {
    const input = inputOf(block(param('__proto__', 'a') + param('__proto__', 'b')))
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toEqual(['a', 'b'])
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
  })

  it('should support `__proto__` in nested elements and JSON bodies', () => {
    const nested = inputOf(block(param('v', '<__proto__>1</__proto__><a>2</a>'))).v as object
    expect(Object.keys(nested)).toEqual(['__proto__', 'a'])
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype)
    const body = inputOf(block('{"__proto__": {"x": 1}}'))
    expect(Object.keys(body)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
  })

  it('should not support any key reaching Object.prototype', () => {
    inputOf(block(param('__proto__', '<polluted>yes</polluted>') + param('constructor', '{"prototype":{"polluted":1}}')))
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('should support `toJSON`, `__proto__` and integer-like names in `arguments`, in document order', () => {
    const args = (input: string): unknown => stable(input)[0]!.arguments
    expect(args(block(param('toJSON', 'x') + param('b', 'true', ' string="false"')))).toBe('{"toJSON":"x","b":true}')
    expect(args(block(param('__proto__', 'p') + param('n', '1.50', ' string="false"')))).toBe('{"__proto__":"p","n":1.50}')
    // JavaScript puts `1` first in the object; the arguments keep it where it was written
    expect(args(block(param('b', 'x') + param('1', 'y') + param('n', 'null', ' string="false"')))).toBe('{"b":"x","1":"y","n":null}')
    expect(args(block(param('a', 'x') + param('a', 'y')))).toBe('{"a":["x","y"]}')
  })
})
