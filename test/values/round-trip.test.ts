/**
 * Round trip: for random argument objects, `formatToolCalls` then
 * `parseToolCalls` (and streaming in random chunks) gives the same calls,
 * for every frame of the default grammar and the ASCII DSML spelling.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar, formatToolCalls, parseToolCalls } from '../../src/index.js'
import type { SieveEvent, TagSpelling } from '../../src/types.js'
import { prng, randomSplit } from '../helpers/chunking.js'

/** Pieces that stress the writer: delimiters of every frame, CDATA, entities, edge whitespace. */
const tricky = fc.constantFrom(
  ']]>', ']]', '<![CDATA[', '<!--', '-->', '</parameter>', '</｜DSML｜parameter>', '＜／ＤＳＭＬ＜／parameter＞', '<｜DSML｜invoke name="x">',
  '</tool_calls>', '&amp;', '&lt;', '&#32;', '"', "'", '\\', ' ', '\n', '\r\n', '\t', '\u3000', '`', '```', '42', 'true', 'null', '{"a":1}', '<item>x</item>',
)
const text = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), tricky), { maxLength: 5 }).map((parts) => parts.join(''))
const key = text.filter((k) => k !== '')

/** An object built with own keys, so `__proto__` is data here as in the sieve. */
function own(entries: Array<[string, unknown]>): Record<string, unknown> {
  const obj: Record<string, unknown> = {}
  for (const [k, v] of entries) Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true })
  return obj
}

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(fc.oneof(key, fc.constant('__proto__')), tie('value')), { maxLength: 3 }).map(own),
  ),
}))

const args = fc.array(fc.tuple(fc.oneof(key, fc.constantFrom('__proto__', 'constructor', 'content', 'path')), value), { maxLength: 5 }).map(own)
const calls = fc.array(fc.record({ name: key, input: args }), { minLength: 1, maxLength: 3 })

const spellings: Array<[string, string | TagSpelling]> = [
  ...defaultGrammar.frames.map((f): [string, string] => [f.name, f.name]),
  ['ASCII DSML', { open: '<|DSML|', close: '</|DSML|', end: '>' }],
]

/** What a JSON consumer sees: `-0` is `0`, `undefined` is gone. */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v))

describe('formatToolCalls → parseToolCalls round trip', () => {
  it.each(spellings)('should support random calls written in %s', (_label, spelling) => {
    fc.assert(
      fc.property(calls, fc.integer(), (cs, seed) => {
        const written = formatToolCalls(cs, { spelling })
        const expected = cs.map((c) => ({ name: c.name, input: asJson(c.input) }))
        const parsed = parseToolCalls(written)
        expect(parsed.text).toBe('')
        expect(parsed.diagnostics).toEqual([])
        expect(parsed.calls.map((c) => ({ name: c.name, input: c.input }))).toEqual(expected)
        const sieve = createSieve()
        const events: SieveEvent[] = []
        for (const chunk of randomSplit(written, prng(seed), 9)) events.push(...sieve.push(chunk))
        events.push(...sieve.end())
        expect(events.flatMap((e) => (e.type === 'tool-call' ? [{ name: e.name, input: e.input }] : []))).toEqual(expected)
      }),
      { numRuns: 150 },
    )
  })
})
