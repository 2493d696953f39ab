/**
 * Strict mode: every diagnostic becomes an `error` event with the same code,
 * and a call whose body had content never passes as a silent `{}`.
 */
import { describe, expect, it } from 'vitest'
import { parseToolCalls } from '../../src/index.js'
import type { SieveOptions } from '../../src/types.js'
import { block, param, shape, stable } from './helpers.js'

const tools = [{ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }]

const cases: Array<[string, string, SieveOptions]> = [
  ['malformed-block', block('', '') + ' x', {}],
  ['unterminated-block', 'x ' + '<tool_calls><invoke name="f">', {}],
  ['capture-limit', block(param('c', 'y'.repeat(120))), { captureLimit: 64 }],
  ['invalid-arguments', block(param('n', 'many')), { tools }],
  ['unknown-tool', block('', 'g'), { tools }],
  ['bad-json-value', block(param('n', '[', ' string="false"')), {}],
]

describe('strict mode', () => {
  it.each(cases)('should support %s as an error event with the same code', (code, input, opts) => {
    const lenient = stable(input, opts)
    const strict = stable(input, { ...opts, strict: true })
    expect(shape(lenient)).toContain(`diagnostic:${code}`)
    expect(shape(strict)).toEqual(shape(lenient).map((s) => s.replace(/^diagnostic:/, 'error:')))
    const d = lenient.find((e) => e.type === 'diagnostic')!
    const e = strict.find((x) => x.type === 'error')!
    expect({ ...e, type: 'diagnostic' }).toEqual(d)
  })

  it('should support errors in parseToolCalls', () => {
    const result = parseToolCalls(block('', 'g'), { tools, strict: true })
    expect(result.diagnostics).toEqual([])
    expect(result.errors.map((e) => e.code)).toEqual(['unknown-tool'])
    expect(result.calls[0]!.diagnostics?.map((d) => d.code)).toEqual(['unknown-tool'])
  })

  it('should support strict with reject: the block as text and the error', () => {
    expect(shape(stable(block(param('n', 'x')), { tools, strict: true, onInvalid: 'reject' }))).toEqual(['text', 'error:invalid-arguments'])
  })

  it('should not support a silent {} for a body with content (a comment only)', () => {
    const input = block('<!-- path: a.ts -->')
    expect(shape(stable(input))).toEqual(['tool-call'])
    const events = stable(input, { strict: true })
    expect(shape(events)).toEqual(['text', 'error:malformed-block'])
    expect(events[0]!.text).toBe(input)
  })

  it('should support an empty body, or an explicit {} body, as {} in strict mode', () => {
    for (const body of ['', '\n  ', '{}', '{"input": {}}']) {
      const events = stable(block(body), { strict: true })
      expect(shape(events)).toEqual(['tool-call'])
      expect(events[0]!.input).toEqual({})
    }
  })

  it('should not support diagnostics events at all in strict mode', () => {
    const input = block('', '') + block(param('n', 'x'), 'g') + '<tool_calls><invoke name="f">'
    const events = stable(input, { tools, strict: true })
    expect(events.some((e) => e.type === 'diagnostic')).toBe(false)
    expect(shape(events).filter((s) => s.startsWith('error:'))).toEqual(['error:malformed-block', 'error:unknown-tool', 'error:unterminated-block'])
  })
})
