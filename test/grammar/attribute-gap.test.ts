/**
 * A frame's `beforeAttributes`: drift a tag may have before an attribute
 * (`<|DSML|invoke| name="x">`), as data. Validated like a tag end, and never
 * made of what an attribute is made of; a grammar of its own may add one.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { createSieve, extendGrammar } from '../../src/index.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { validateGrammar } from '../../src/grammar/load.js'
import { calls, expectChunkInvariant } from '../helpers/chunking.js'
import { caught } from '../helpers/grammar-error.js'

// plain JSON the tests poke holes into
type Json = any

const rawDefault: Json = JSON.parse(readFileSync(new URL('../../grammar/default.json', import.meta.url), 'utf8'))
const schema: Json = JSON.parse(readFileSync(new URL('../../grammar/schema.json', import.meta.url), 'utf8'))

function withGap(gap: Json): Json {
  const g = structuredClone(rawDefault)
  g.frames[0].beforeAttributes = gap
  return g
}

describe('attribute gaps in the grammar', () => {
  it('should support the default grammar giving its DSML frames one, valid against the schema', () => {
    expect(defaultGrammar.frames.filter((f) => f.beforeAttributes !== undefined).map((f) => f.name)).toEqual(['dsml', 'fullwidth'])
    const validate = new Ajv2020({ strict: false }).compile(schema)
    expect(validate(rawDefault), JSON.stringify(validate.errors)).toBe(true)
  })

  it.each([
    ['a name slot', [[{ name: true }]], 'frames[0].beforeAttributes[0][0]'],
    ['a sequence that can match nothing', [[{ lit: ['|'], min: 0, max: 2 }]], 'frames[0].beforeAttributes[0]'],
    ['a name character', [[{ lit: ['|a'] }]], 'frames[0].beforeAttributes[0][0].lit[0]'],
    ['a blank', [[{ lit: ['| '] }]], 'frames[0].beforeAttributes[0][0].lit[0]'],
    ['an equals sign', [[{ lit: ['='] }]], 'frames[0].beforeAttributes[0][0].lit[0]'],
    ['a quote', [[{ lit: ['"'] }]], 'frames[0].beforeAttributes[0][0].lit[0]'],
    ['no sequence', [], 'frames[0].beforeAttributes'],
  ])('should not support a gap holding %s, naming the field', (_what, gap, field) => {
    const error = caught(() => validateGrammar(withGap(gap)))
    expect(error.code).toBe('invalid-grammar')
    expect(error.field).toBe(field)
  })

  it('should support a frame of its own with a gap, and no gap where no frame has one', () => {
    const noGaps = validateGrammar({ ...structuredClone(rawDefault), frames: structuredClone(rawDefault.frames).map(({ beforeAttributes: _, ...f }: Json) => f) })
    const markup = '<|DSML|tool_calls><|DSML|invoke| name="a"></|DSML|invoke></|DSML|tool_calls>'
    expect(calls(expectChunkInvariant(markup))).toEqual([{ name: 'a', input: {} }])
    const sieve = createSieve({ grammar: noGaps })
    expect([...sieve.push(markup), ...sieve.end()].some((e) => e.type === 'tool-call')).toBe(false)
    // a star before the attributes of plain tags, as a grammar may add
    const starred = extendGrammar(defaultGrammar, {
      frames: [{ name: 'star', open: [[{ lit: ['<'] }, { lit: ['*'] }, { name: true }]], close: [[{ lit: ['<'] }, { lit: ['/*'] }, { name: true }]], end: [[{ lit: ['>'] }]], beforeAttributes: [[{ lit: ['*'] }]] }],
    })
    const star = '<*tool_calls><*invoke* name="b"><*parameter* name="p">1</*parameter></*invoke></*tool_calls>'
    expect(calls(expectChunkInvariant(star, { grammar: starred }))).toEqual([{ name: 'b', input: { p: 1 } }])
  })
})
