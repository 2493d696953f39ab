/**
 * Numbers keep their digits. `arguments` carries every number exactly as the
 * model wrote it (a Python or Go client reads `9007199254740993` as that
 * integer); `input` holds the nearest double, always `JSON.parse(arguments)`.
 * The same for `string="false"`, a JSON body, and a plain JSON literal.
 */
import { describe, expect, it } from 'vitest'
import { parseToolCalls } from '../../src/index.js'
import type { ParsedToolCall, SieveOptions } from '../../src/types.js'
import { block, dsml, dsmlParam, param, stable } from './helpers.js'

const json = ' string="false"'

/** The one call of `input`, checked under the chunking matrix. */
function call(input: string, opts: SieveOptions = {}): ParsedToolCall {
  const events = stable(input, opts)
  expect(events.map((e) => e.type)).toEqual(['tool-call'])
  return events[0] as unknown as ParsedToolCall
}

function tool(properties: Record<string, unknown>) {
  return { tools: [{ name: 'f', inputSchema: { type: 'object', properties } }] }
}

describe('numbers: string="false"', () => {
  it('should support an integer past 2^53 with its digits in arguments and the nearest double in input', () => {
    const c = call(dsml(dsmlParam('k', '9007199254740993', json)))
    expect(c.arguments).toBe('{"k":9007199254740993}')
    expect(c.input).toEqual({ k: 9007199254740992 })
  })

  it('should support every number written as the model wrote it', () => {
    for (const n of ['1.0', '1e5', '2.50E-3', '-0', '0.1000000000000000055511151231257827', '123456789012345678901234567890', '-1.5e+300']) {
      const c = call(block(param('k', n, json)))
      expect(c.arguments).toBe(`{"k":${n}}`)
      expect(c.input.k).toBe(Number(n))
    }
  })

  it('should support numbers nested in arrays and objects', () => {
    const c = call(block(param('v', '{"id": 12345678901234567890, "xs": [1.0, 2, {"y": 3.00}]}', json)))
    expect(c.arguments).toBe('{"v":{"id":12345678901234567890,"xs":[1.0,2,{"y":3.00}]}}')
    expect(c.input).toEqual({ v: { id: 12345678901234567890, xs: [1, 2, { y: 3 }] } })
  })

  it('should support arguments equal to JSON.stringify(input) when every number is written the JavaScript way', () => {
    const c = call(block(param('v', '{"a": [1, -2.5, 1e+21, "x"], "b": null}', json)))
    expect(c.arguments).toBe(JSON.stringify(c.input))
  })
})

describe('numbers: JSON bodies and plain values', () => {
  it('should support an invoke JSON body with its digits', () => {
    const c = call(block('{"n": 9007199254740993, "f": 1.50}'))
    expect(c.arguments).toBe('{"n":9007199254740993,"f":1.50}')
    expect(c.input).toEqual({ n: 9007199254740992, f: 1.5 })
  })

  it('should support a plain integer past 2^53 as a number, the same as string="false" (rule 4)', () => {
    const plain = call(block(param('k', '9007199254740993')))
    const marked = call(block(param('k', '9007199254740993', json)))
    expect(plain.arguments).toBe('{"k":9007199254740993}')
    expect(plain.input).toEqual(marked.input)
  })

  it('should support a plain JSON literal with its digits (`1.0` stays `1.0` in arguments)', () => {
    expect(call(block(param('k', '1.0'))).arguments).toBe('{"k":1.0}')
    expect(call(block(param('k', '[1e2, 12345678901234567890]'))).arguments).toBe('{"k":[1e2,12345678901234567890]}')
  })

  it('should not support a raw-text parameter as a number, however it looks', () => {
    expect(call(block(param('path', '9007199254740993'))).arguments).toBe('{"path":"9007199254740993"}')
  })
})

describe('numbers: schemas', () => {
  it('should support a string schema getting the digits as written, from every source', () => {
    const opts = tool({ id: { type: 'string' } })
    expect(call(block(param('id', '9007199254740993', json)), opts).input).toEqual({ id: '9007199254740993' })
    expect(call(block(param('id', '9007199254740993')), opts).input).toEqual({ id: '9007199254740993' })
    expect(call(block('{"id": 9007199254740993}'), opts).input).toEqual({ id: '9007199254740993' })
    expect(call(block(param('id', '1.0', json)), opts).input).toEqual({ id: '1.0' })
  })

  it('should support a string schema for a number nested in JSON', () => {
    const opts = tool({ v: { type: 'object', properties: { id: { type: 'string' } } } })
    expect(call(block(param('v', '{"id": 12345678901234567890}', json)), opts).input).toEqual({ v: { id: '12345678901234567890' } })
  })

  it('should support a string schema over structured JSON, its text keeping the digits', () => {
    const opts = tool({ v: { type: 'string' } })
    expect(call(block('{"v": [9007199254740993, 1.0]}'), opts).input).toEqual({ v: '[9007199254740993,1.0]' })
  })

  it('should support an integer schema reading a big integer from text, digits in arguments', () => {
    const c = call(block(param('n', ' 9007199254740993 ')), tool({ n: { type: 'integer' } }))
    expect(c.arguments).toBe('{"n":9007199254740993}')
    expect(c.input).toEqual({ n: 9007199254740992 })
  })

  it('should support enum members matched by value whatever the digits', () => {
    const c = call(block(param('n', '2.0', json)), tool({ n: { enum: [1, 2, 3] } }))
    expect(c.input).toEqual({ n: 2 })
    expect(c.arguments).toBe('{"n":2}')
  })

  it('should not support a fraction as an integer (kept, invalid-arguments)', () => {
    const events = stable(block(param('n', '1.5')), tool({ n: { type: 'integer' } }))
    expect(events.map((e) => e.code ?? e.type)).toEqual(['tool-call', 'invalid-arguments'])
  })
})

describe('numbers: through parseToolCalls', () => {
  it('should support the same digits as the sieve', () => {
    const r = parseToolCalls(dsml(dsmlParam('k', '[9007199254740993]', json)))
    expect(r.calls[0]!.arguments).toBe('{"k":[9007199254740993]}')
  })
})
