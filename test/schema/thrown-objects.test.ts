/**
 * A tool's schema that comes from code (an AI SDK lazy schema, a Standard
 * Schema's `~standard.jsonSchema.input()`) and throws something that is not
 * an Error: an object with no prototype, or one whose `toString` and
 * `valueOf` are data (`{"toString": 0}`). The tool is refused with an
 * `invalid-option` naming it, as for any schema function that throws, never
 * a `TypeError` from writing the message.
 */
import { describe, expect, it } from 'vitest'
import { buildToolPrompt, createSieve } from '../../src/index.js'
import { refusal } from '../helpers/refusal.js'

const thrownValues: Array<[string, unknown]> = [
  ['{"toString":0}', { toString: 0 }],
  ['{"toString":0,"valueOf":0}', { toString: 0, valueOf: 0 }],
  ['[{"toString":0}]', [{ toString: 0 }]],
  ['{"valueOf":{},"toString":{}}', { valueOf: {}, toString: {} }],
  ['an object with no prototype', Object.create(null)],
  ['an object whose message is {"toString":0}', { message: { toString: 0 } }],
  ['a function whose toString is not callable', Object.assign(function thrown() {}, { toString: 0 })],
  ['an object whose message is such a function', { message: Object.assign(function said() {}, { toString: 0 }) }],
  ['an object whose message getter throws', { get message(): never { throw new Error('no message') } }],
  ['a revoked Proxy', revokedProxy()],
  ['a revoked Proxy of a function', revokedProxy(() => undefined)],
  ['an object whose message is a revoked Proxy', { message: revokedProxy() }],
]

function revokedProxy(target: object = {}): object {
  const { proxy, revoke } = Proxy.revocable(target, {})
  revoke()
  return proxy
}

describe('a schema function that throws something that cannot become a string', () => {
  for (const [name, thrown] of thrownValues) {
    it(`should not support a lazy schema that throws ${name}: invalid-option naming the tool`, () => {
      const e = refusal(() =>
        createSieve({
          tools: [
            {
              name: 'read_file',
              inputSchema: (() => {
                throw thrown
              }) as never,
            },
          ],
        }),
      )
      expect(e.code).toBe('invalid-option')
      expect(e.field).toBe('tools[0]')
      expect(e.message).toMatch(/^tools\[0\]: the input schema of "read_file" \(inputSchema\): its schema function threw: /)
    })

    it(`should not support a Standard Schema whose jsonSchema.input() throws ${name}: invalid-option naming the tool`, () => {
      const schema = {
        '~standard': {
          version: 1,
          vendor: 'other',
          jsonSchema: {
            input: () => {
              throw thrown
            },
          },
        },
      }
      const e = refusal(() => buildToolPrompt([{ name: 'read_file', inputSchema: schema as never }]))
      expect(e.code).toBe('invalid-option')
      expect(e.field).toBe('tools[0]')
      expect(e.message).toMatch(/its ~standard\.jsonSchema\.input\(\) threw: /)
    })
  }

  it('should support the message of an Error, and any primitive thrown, as before', () => {
    const threw = (thrown: unknown) => refusal(() => createSieve({ tools: [{ name: 'a', inputSchema: (() => { throw thrown }) as never }] })).message
    expect(threw(new Error('boom'))).toMatch(/threw: boom$/)
    expect(threw('nope')).toMatch(/threw: nope$/)
    expect(threw(null)).toMatch(/threw: null$/)
    expect(threw({ code: 1 })).toMatch(/threw: \[object Object\]$/)
  })

  it('should support what is thrown that cannot be read, by its tag or as [object]', () => {
    const threw = (thrown: unknown) => refusal(() => createSieve({ tools: [{ name: 'a', inputSchema: (() => { throw thrown }) as never }] })).message
    expect(threw(Object.assign(function thrown() {}, { toString: 0 }))).toMatch(/threw: \[object Function\]$/)
    expect(threw({ get message(): never { throw new Error('no') } })).toMatch(/threw: \[object Object\]$/)
    expect(threw(revokedProxy())).toMatch(/threw: \[object\]$/)
    expect(threw({ message: revokedProxy() })).toMatch(/threw: \[object\]$/)
  })
})
