/**
 * `readBlock` gives the inputs the sieve gives today: for the packs the
 * sieve already reads with its tag reader (Qwen3-Coder, Seed-OSS,
 * MiniMax-M2: raw values, padding, Python literals, a parameter given twice),
 * the same block read both ways builds the same input, with no schema and
 * with one, for tricky and generated values. The raw-value rules the new
 * families share (GLM, HY3, Step-3, Kimi K3) are these.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatToolCalls, parseToolCalls, ToolsieveError } from '../../src/index.js'
import { dialects } from '../../src/dialects/registry.js'
import { readBlock } from '../../src/read/read-block.js'
import { blocksIn, inputOf } from '../helpers/read-block.js'

const schema = {
  type: 'object',
  properties: { s: { type: 'string' }, n: { type: 'number' }, b: { type: 'boolean' }, o: { type: 'object' }, l: { type: 'array' }, z: { type: 'null' } },
}

/** Both readers on `text`: the sieve's calls, and readBlock's over the same blocks. */
function both(dialect: string, text: string, withSchema: boolean) {
  const tools = withSchema ? [{ name: 'f', inputSchema: schema }] : undefined
  const sieve = parseToolCalls(text, { dialect, ...(tools === undefined ? {} : { tools }) }).calls.map((c) => ({ name: c.name, input: c.input }))
  const pack = dialects[dialect]!
  const mine = blocksIn(pack, text).flatMap((block) => {
    const r = readBlock(pack, block)
    return r.ok ? r.calls.map((c) => ({ name: c.name, input: inputOf(c, withSchema ? schema : null) })) : []
  })
  return { sieve, mine }
}

describe('readBlock and the sieve read raw values alike', () => {
  for (const dialect of ['qwen3-coder', 'seed-oss', 'minimax-m2']) {
    it(`should support ${dialect}: the same inputs for raw values written by hand`, () => {
      const values = ['42', '1.0', '12345678901234567890', 'true', 'True', 'None', 'null', '{"k": [1, 2]}', "{'k': True}", '[1, "a"]', '  padded  ', '', 'x < y', '\nline\n', '\r\nline\r\n']
      const pack = dialects[dialect]!
      const element = pack.blocks[0]!.call.arguments as { element: { name: string }; key: { from: string } }
      for (const v of values) {
        for (const key of ['s', 'n', 'o']) {
          const param = element.key.from === 'tag-value' ? `<${element.element.name}=${key}>${v}</${element.element.name}>` : `<${element.element.name} name="${key}">${v}</${element.element.name}>`
          const call = formatToolCalls([{ name: 'f', input: {} }], { dialect }).replace(/(<(?:function=f|invoke name="f")>)\n?/, `$1\n${param}\n`)
          for (const withSchema of [false, true]) {
            const { sieve, mine } = both(dialect, call, withSchema)
            expect(sieve.length, call).toBe(1)
            expect(mine, `${call} ${withSchema}`).toEqual(sieve)
            expect(Object.keys(mine[0]!.input)).toEqual([key])
          }
        }
      }
    })

    it(`should support ${dialect}: the same inputs for generated calls`, () => {
      const scalar = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('42', '1.0', 'True', 'None', '[1]', "{'a': 1}", ' x '), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)), fc.boolean(), fc.constant(null))
      const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('k', 'n'), scalar, { maxKeys: 2 }))
      const input = fc.record({ s: value, n: value, b: value, o: value, l: value, z: value }, { requiredKeys: [] })
      fc.assert(
        fc.property(fc.array(input, { minLength: 1, maxLength: 2 }), fc.boolean(), (inputs, withSchema) => {
          let text: string
          try {
            text = formatToolCalls(inputs.map((i) => ({ name: 'f', input: i })), { dialect })
          } catch (e) {
            if (e instanceof ToolsieveError) return
            throw e
          }
          const { sieve, mine } = both(dialect, text, withSchema)
          expect(mine, text).toEqual(sieve)
        }),
        { numRuns: 200 },
      )
    })
  }
})
