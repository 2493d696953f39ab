/**
 * `readBlock` is the inverse of `formatToolCalls(calls, { dialect })`: what
 * the writer writes for a delimited block spec, the reader gives back, name,
 * id and input, for tricky values (quotes, newlines, `<`, Unicode, numbers
 * a double spells differently, nesting, empty arguments) and for generated
 * calls. A raw-string pack with no type attribute writes `"42"` and `42`
 * alike, so its calls are read with a schema typing each argument, as the
 * tools' schemas do.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ToolsieveError, formatToolCalls } from '../../src/index.js'
import { dialects } from '../../src/dialects/registry.js'
import { blockDelimiters, readBlock } from '../../src/read/read-block.js'
import type { DialectPack } from '../../src/dialects/types.js'
import { blockFamilies, blocksIn, inputOf, type Call } from '../helpers/read-block.js'

/** Every delimited block spec of the families the reader is for. */
const specs = blockFamilies.flatMap((dialect) => {
  const pack = dialects[dialect]!
  return blockDelimiters(pack).flatMap((d) => (d === null ? [] : [{ dialect, pack, variant: pack.blocks[d.block]!.name }]))
})

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v)

/** A schema typing each argument as its value's type: what tells a raw "42" from 42. */
function schemaOf(input: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, { type: jsonType(v) }])) }
}

/** Values are typed by the markup itself, except raw strings with no type attribute. */
const needsSchema = (pack: DialectPack) => pack.values.strings === 'raw' && pack.values.typeAttribute === undefined

/** The calls read back from `text` (every block in it), or the reasons a block was refused. */
function readBack(pack: DialectPack, text: string, schemas: ReadonlyArray<Record<string, unknown> | null>): { calls: Array<Call & { id?: string }>; refused: string[] } {
  const calls: Array<Call & { id?: string }> = []
  const refused: string[] = []
  for (const block of blocksIn(pack, text)) {
    const r = readBlock(pack, block)
    if (!r.ok) {
      refused.push(r.reason)
      continue
    }
    let from = 0
    for (const c of r.calls) {
      // each call's markup lies before its end, the ends rise, and the last takes the block's closer
      expect(c.end).toBeGreaterThan(from)
      from = c.end
      calls.push({ name: c.name, input: inputOf(c, schemas[calls.length] ?? null), ...(c.id === undefined ? {} : { id: c.id }) })
    }
    expect(from).toBe(block.length)
  }
  return { calls, refused }
}

function roundTrip(dialect: string, variant: string, calls: Call[]): { text: string; back: ReturnType<typeof readBack> } | null {
  const pack = dialects[dialect]!
  let text: string
  try {
    text = formatToolCalls(calls, { dialect, variant })
  } catch (e) {
    // what the writer refuses (a raw value holding its closer, a key a literal cannot spell) is no case
    if (e instanceof ToolsieveError && e.code === 'invalid-option') return null
    throw e
  }
  const schemas = calls.map((c) => (needsSchema(pack) ? schemaOf(c.input) : null))
  return { text, back: readBack(pack, text, schemas) }
}

const tricky: Record<string, unknown> = {
  quote: 'He said "hi" and it\'s fine',
  newline: 'line1\nline2\n',
  angle: '<div>a < b && c > d</div>',
  unicode: 'naïve 日本語 🎉 ｜',
  padded: '  edge  ',
  float: 1.5,
  big: 12345678901234567890,
  tiny: 1e-7,
  huge: 1e21,
  negative: -3,
  looksNumeric: '1.0',
  looksBig: '12345678901234567890',
  looksTrue: 'true',
  empty: '',
  yes: true,
  no: false,
  nothing: null,
  list: ['a', 2, false, null, [1, { b: 'c' }]],
  nested: { k: 'v', n: 46, deep: { ok: true, list: [1, 2] }, s: 'x"y' },
  emptyObject: {},
  emptyList: [],
}

describe('readBlock: the round trip through formatToolCalls', () => {
  it('should support a delimited spec in every family it reads', () => {
    expect(new Set(specs.map((s) => s.dialect))).toEqual(new Set(blockFamilies))
  })

  for (const { dialect, pack, variant } of specs) {
    it(`should support ${dialect} (${variant}): tricky values, several calls and empty arguments`, () => {
      // a value the pack cannot write is left out, key by key (the writer says which)
      const input: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(tricky)) {
        if (roundTrip(dialect, variant, [{ name: 'probe', input: { [k]: v } }]) !== null) input[k] = v
      }
      expect(Object.keys(input).length).toBeGreaterThan(10)
      const calls = [
        { name: 'get_weather', input },
        { name: 'ping', input: {} },
        { name: 'search.web', input: { q: 'cats' } },
      ]
      const r = roundTrip(dialect, variant, calls)!
      expect(r.back.refused).toEqual([])
      expect(r.back.calls.map(({ name, input }) => ({ name, input }))).toEqual(calls)
      if (pack.blocks.find((b) => b.name === variant)!.call.id !== undefined) {
        expect(r.back.calls.map((c) => c.id)).toEqual(dialect === 'kimi-k3' ? ['1', '2', '3'] : calls.map((c, i) => `functions.${c.name}:${i}`))
      }
    })

    it(`should support ${dialect} (${variant}): generated calls`, () => {
      const key = fc.oneof(fc.constantFrom('a', 'path', 'city_name', 'x1'), fc.string({ minLength: 1, maxLength: 8 }))
      const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom('<', '/', '>', '"', "'", '\\', '\n', ' ', '{', '}', ',', ':', 'a', '｜', '|', '=') , maxLength: 12 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)), fc.boolean(), fc.constant(null))
      const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('k', 'n', 'list'), scalar, { maxKeys: 3 }))
      const name = fc.oneof(fc.constantFrom('get_weather', 'calc.add', 'todo-write'), fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/))
      const call = fc.record({ name, input: fc.dictionary(key, value, { maxKeys: 4 }) })
      fc.assert(
        fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), (calls) => {
          const r = roundTrip(dialect, variant, calls)
          if (r === null) return
          expect(r.back.refused, r.text).toEqual([])
          expect(r.back.calls.map(({ name, input }) => ({ name, input })), r.text).toEqual(calls)
        }),
        { numRuns: 150 },
      )
    })
  }
})
