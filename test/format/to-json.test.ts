/**
 * A value with a `toJSON` (a `Date`, an object of the caller's own) is
 * written as `JSON.stringify` reads it, by every writer: the DSML one and
 * every pack's. The call that comes back is the call whose `arguments` are
 * `JSON.stringify(input)` (a boxed `String` or `Number` likewise is its
 * primitive). A `toJSON` that throws is refused as the value
 * that cannot be written, as a value `JSON.stringify` refuses is.
 */
import { describe, expect, it } from 'vitest'
import { dialects, formatToolCalls, parseToolCalls } from '../../src/index.js'
import { unreadable } from '../../src/dialects/grammar.js'
import { refusal } from '../helpers/refusal.js'

const packs = Object.keys(dialects)
const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5))

/** Values with a toJSON at every depth, each giving something else: a string, an object, its own key, nothing. */
const input = (): Record<string, unknown> => ({
  when,
  custom: { toJSON: () => ({ city: 'Paris', days: 3 }) },
  nested: { at: [when, { toJSON: () => 7 }], label: 'trip' },
  keyed: { toJSON: (key: string) => `key:${key}` },
  gone: { toJSON: () => undefined },
  // JSON.stringify writes the primitive of a boxed value too
  boxed: [new String('x'), new Number(2), new Boolean(false)],
  plain: 'a',
})

/** What `JSON.stringify` makes of the input: the same call, written with no toJSON left to call. */
const asJson = (): Record<string, unknown> => JSON.parse(JSON.stringify(input())) as Record<string, unknown>

describe('formatToolCalls with values that have toJSON', () => {
  it('should support a Date and objects with their own toJSON written in every pack as JSON.stringify reads them', () => {
    expect(asJson()).toEqual({ when: '2024-01-02T03:04:05.000Z', custom: { city: 'Paris', days: 3 }, nested: { at: ['2024-01-02T03:04:05.000Z', 7], label: 'trip' }, keyed: 'key:keyed', boxed: ['x', 2, false], plain: 'a' })
    for (const dialect of packs) {
      expect(formatToolCalls([{ name: 'plan_trip', input: input() }], { dialect }), dialect).toBe(formatToolCalls([{ name: 'plan_trip', input: asJson() }], { dialect }))
    }
  })

  it('should support a Date and objects with their own toJSON read back, in DSML and every pack the sieve reads, as JSON.stringify wrote them', () => {
    for (const dialect of [undefined, ...packs.filter((p) => unreadable(dialects[p]!) === null)]) {
      const text = formatToolCalls([{ name: 'plan_trip', input: input() }], { dialect })
      const { calls } = parseToolCalls(text, { dialect })
      expect(calls.map((c) => c.input), dialect).toEqual([asJson()])
    }
  })

  it('should not support a function under the key toJSON as a parameter, in DSML and every pack: it is left out, as JSON.stringify leaves a function out', () => {
    const given = { name: 'f', input: { toJSON: () => 'abcdefghijklmnop', b: 2 } }
    for (const dialect of [undefined, ...packs]) {
      expect(formatToolCalls([given], { dialect }), dialect).toBe(formatToolCalls([{ name: 'f', input: { b: 2 } }], { dialect }))
    }
  })

  it('should not support a toJSON that throws: invalid-option naming the value, in DSML and every pack', () => {
    const bad = { name: 'plan_trip', input: { ok: 1, k: { toJSON: () => { throw new Error('no clock') } } } }
    for (const dialect of [undefined, ...packs]) {
      const error = refusal(() => formatToolCalls([{ name: 'f', input: {} }, bad], { dialect }))
      expect(error, dialect).toMatchObject({ code: 'invalid-option', field: 'calls[1].input' })
      expect(error.message, dialect).toMatch(/^calls\[1\]\.input\.k .*no clock/)
    }
  })
})
