/**
 * Options that throw when looked at (a revoked Proxy, a getter that throws,
 * a function whose `toString` is not callable) are refused at creation with
 * a ToolsieveError naming the option, never the engine's TypeError.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, parseToolCalls, ToolsieveError } from '../../src/index.js'
import { refusal } from '../helpers/refusal.js'

const revoked = (): object => {
  const p = Proxy.revocable({}, {})
  p.revoke()
  return p.proxy
}
const throwing = (): object => Object.defineProperty({}, 'x', { get: () => { throw new Error('boom') }, enumerable: true })
const unprintable = Object.assign(function () {}, { toString: 0 })

const refused = (options: unknown): ToolsieveError => refusal(() => createSieve(options as never))

describe('options that cannot be read', () => {
  it('should not support a revoked Proxy as the options: invalid-option, no field', () => {
    expect(refused(revoked())).toMatchObject({ code: 'invalid-option', field: '' })
  })

  for (const key of ['grammar', 'dialect', 'captureLimit', 'tools', 'onInvalid', 'strict', 'generateId', 'reasoning', 'startInReasoning', 'reasoningCalls', 'quoted', 'streamArguments']) {
    it(`should not support a revoked Proxy as ${key}: invalid-option naming it`, () => {
      expect(refused({ [key]: revoked() })).toMatchObject({ code: 'invalid-option', field: key })
    })
    it(`should not support a getter for ${key} that throws: invalid-option naming it`, () => {
      expect(refused(Object.defineProperty({}, key, { get: () => { throw revoked() } }))).toMatchObject({ code: 'invalid-option', field: key })
    })
  }

  for (const [name, options, field] of [
    ['a revoked Proxy inside a grammar', { grammar: { name: revoked() } }, 'grammar'],
    ['a revoked Proxy in a dialect list', { dialect: [revoked()] }, 'dialect'],
    ['a revoked Proxy as a tool', { tools: [revoked()] }, 'tools[0]'],
    ['a revoked Proxy as a tool schema', { tools: [{ name: 'x', inputSchema: revoked() }] }, 'tools[0]'],
    ['a tool schema with a getter that throws', { tools: [{ name: 'x', inputSchema: throwing() }] }, 'tools[0]'],
    ['a revoked Proxy as a quoted text', { quoted: [revoked()] }, 'quoted[0]'],
    ['a function that cannot print itself as a quoted text', { quoted: [unprintable] }, 'quoted[0]'],
    ['a function that cannot print itself as the capture limit', { captureLimit: unprintable }, 'captureLimit'],
  ] as const) {
    it(`should not support ${name}: invalid-option naming ${field}`, () => {
      expect(refused(options)).toMatchObject({ code: 'invalid-option', field })
    })
  }

  it('should not support them in parseToolCalls either', () => {
    expect(() => parseToolCalls('x', { tools: revoked() } as never)).toThrow(ToolsieveError)
  })

  it('should support options that are read fine beside an unknown key whose getter throws: it is not read', () => {
    const options = Object.defineProperty({ strict: true }, 'unknownKey', { get: () => { throw new Error('boom') } })
    expect(() => createSieve(options as never)).not.toThrow()
  })
})
