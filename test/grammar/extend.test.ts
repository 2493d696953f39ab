import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { extendGrammar, validateGrammar } from '../../src/grammar/load.js'
import type { Frame, GrammarPatch } from '../../src/grammar/types.js'
import { caught } from '../helpers/grammar-error.js'

/** A frame opened by a space: one character at a time it lost the call that one chunk found. */
const spaced: Frame = {
  name: 'spaced',
  open: [[{ lit: [' '] }, { name: true }]],
  close: [[{ lit: [' '] }, { lit: ['/'] }, { name: true }]],
  end: [[{ lit: ['>'] }]],
}

/** Parts after an opening name: `[tool_calls]` was lost one character at a time (the optional `:` kept it undecided). */
const colon: Frame = {
  name: 'colon',
  open: [[{ lit: ['['] }, { name: true }, { lit: [':'], min: 0 }]],
  close: [[{ lit: ['[/'] }, { name: true }]],
  end: [[{ lit: [']'] }]],
}

const angle: Frame = {
  name: 'angle',
  open: [[{ lit: ['<<'] }, { name: true }]],
  close: [[{ lit: ['<</'] }, { name: true }]],
  end: [[{ lit: ['>>'] }]],
}


describe('extendGrammar', () => {
  it('should support adding wrapper names (the documented example)', () => {
    const g = extendGrammar(defaultGrammar, { wrapper: ['function_calls', 'tool_use'] })
    expect(g.roles.wrapper).toEqual([...defaultGrammar.roles.wrapper, 'tool_use'])
    expect(g.roles.invoke).toEqual(defaultGrammar.roles.invoke)
    expect(Object.isFrozen(g.roles.wrapper)).toBe(true)
    expect(defaultGrammar.roles.wrapper).toHaveLength(3)
  })

  it('should support names that differ only in case as repeats, by default', () => {
    const g = extendGrammar(defaultGrammar, { wrapper: ['TOOL_CALLS', 'Tool_Use', 'tool_use'], invoke: ['Invoke'] })
    expect(g.roles.wrapper).toEqual([...defaultGrammar.roles.wrapper, 'Tool_Use'])
    expect(g.roles.invoke).toEqual(['invoke'])
  })

  it('should not support treating case variants as repeats when the result is case-sensitive', () => {
    const g = extendGrammar(defaultGrammar, { caseInsensitive: false, wrapper: ['TOOL_CALLS'] })
    expect(g.caseInsensitive).toBe(false)
    expect(g.roles.wrapper).toContain('TOOL_CALLS')
  })

  it('should support adding frames to a repeated name by uniting its frame lists', () => {
    const g = extendGrammar(defaultGrammar, { wrapper: [{ name: 'calls', frames: ['xml', 'dsml'] }] })
    expect(g.roles.wrapper[2]).toEqual({ name: 'calls', frames: ['dsml', 'fullwidth', 'xml'] })
    const all = extendGrammar(defaultGrammar, { wrapper: ['calls'] })
    expect(all.roles.wrapper[2]).toEqual({ name: 'calls' })
  })

  it('should support appending a frame and names limited to it', () => {
    const g = extendGrammar(defaultGrammar, { frames: [angle], parameter: [{ name: 'arg', frames: ['angle'] }] })
    expect(g.frames.map((f) => f.name)).toEqual(['dsml', 'fullwidth', 'xml', 'angle'])
    expect(g.frames[3]?.open[0]?.[0]).toEqual({ lit: ['<<'], min: 1, max: 1 })
    expect(g.roles.parameter).toEqual(['parameter', { name: 'arg', frames: ['angle'] }])
  })

  it('should support replacing a frame by name, in place', () => {
    const g = extendGrammar(defaultGrammar, { frames: [{ ...angle, name: 'xml' }] })
    expect(g.frames.map((f) => f.name)).toEqual(['dsml', 'fullwidth', 'xml'])
    expect(g.frames[2]?.end).toEqual([[{ lit: ['>>'], min: 1, max: 1 }]])
  })

  it('should support replacing name and flags, merging sections and appending raw parameters', () => {
    const g = extendGrammar(defaultGrammar, {
      name: 'mine',
      attributes: { string: 'raw' },
      limits: { captureLimit: 1024 },
      markdown: { codeSpans: false },
      repairs: { missingOpeningWrapper: false },
      rawTextParameters: ['content', 'sql'],
    })
    expect(g.name).toBe('mine')
    expect(g.attributes).toEqual({ name: 'name', string: 'raw' })
    expect(g.limits).toEqual({ captureLimit: 1024 })
    expect(g.markdown).toEqual({ fences: true, codeSpans: false })
    expect(g.repairs).toEqual({ missingOpeningWrapper: false, unclosedWrapper: true, unclosedCdata: true })
    expect(g.rawTextParameters).toEqual([...(defaultGrammar.rawTextParameters ?? []), 'sql'])
  })

  it('should support turning one end-of-stream repair off, keeping the others', () => {
    const g = extendGrammar(defaultGrammar, { repairs: { unclosedCdata: false } })
    expect(g.repairs).toEqual({ missingOpeningWrapper: true, unclosedWrapper: true, unclosedCdata: false })
    expect(extendGrammar(g, { repairs: { unclosedWrapper: false } }).repairs).toEqual({ missingOpeningWrapper: true, unclosedWrapper: false, unclosedCdata: false })
  })

  it('should support an empty patch and a base that is not yet normalized', () => {
    expect(extendGrammar(defaultGrammar, {})).toEqual(defaultGrammar)
    const raw = { name: 'raw', roles: { wrapper: ['w'], invoke: ['i'], parameter: ['p'] }, frames: [angle] }
    expect(extendGrammar(raw, { wrapper: ['w2'] })).toEqual(validateGrammar({ ...raw, roles: { ...raw.roles, wrapper: ['w', 'w2'] } }))
  })

  it('should not support patch keys that GrammarPatch does not have', () => {
    const error = caught(() => extendGrammar(defaultGrammar, { wrappers: ['x'] } as GrammarPatch))
    expect(error.code).toBe('invalid-grammar')
    expect(error.field).toBe('patch.wrappers')
    expect(error.message).toMatch(/not a known key/)
    expect(caught(() => extendGrammar(defaultGrammar, { roles: {} } as GrammarPatch)).field).toBe('patch.roles')
    expect(caught(() => extendGrammar(defaultGrammar, { limits: { capture: 1 } } as GrammarPatch)).field).toBe('patch.limits.capture')
  })

  it('should not support a patch that is not an object', () => {
    expect(caught(() => extendGrammar(defaultGrammar, null as unknown as GrammarPatch)).field).toBe('patch')
  })

  const cases: [string, GrammarPatch, string, RegExp?][] = [
    ['a malformed name', { wrapper: ['tool use'] }, 'patch.wrapper[0]', /not a local name/],
    ['names that are not a list', { invoke: 'call' as unknown as string[] }, 'patch.invoke', /must be an array/],
    ['a reference to a missing frame', { wrapper: [{ name: 'x', frames: ['angle'] }] }, 'patch.wrapper[0].frames[0]', /names no frame/],
    ['an invalid frame', { frames: [{ ...angle, open: [] }] }, 'patch.frames[0].open', /must not be empty/],
    ['a frame given twice', { frames: [angle, angle] }, 'patch.frames[1].name', /duplicates frame/],
    ['a frame opened by a space', { frames: [spaced] }, 'patch.frames[0].open[0][0].lit[0]', /space or tab/],
    ['a frame whose opener goes on after the name', { frames: [colon] }, 'patch.frames[0].open[0][2]', /follows the name slot/],
    ['a name already used by another role', { invoke: ['tool_calls'] }, 'roles.invoke[1]', /already used at roles\.wrapper\[0\]/],
    ['an invalid merged attribute', { attributes: { name: '' } }, 'attributes.name', /must not be empty/],
    ['a capture limit that is too small', { limits: { captureLimit: 8 } }, 'limits.captureLimit'],
    ['a non-boolean merged repair', { repairs: { unclosedWrapper: 'no' as unknown as boolean } }, 'repairs.unclosedWrapper', /true or false/],
    ['an unknown repair', { repairs: { unclosedFence: true } as GrammarPatch['repairs'] }, 'patch.repairs.unclosedFence', /not a known key/],
    ['an empty name', { name: '' }, 'name'],
    ['a non-string raw parameter', { rawTextParameters: [1 as unknown as string] }, 'patch.rawTextParameters[0]'],
  ]
  for (const [what, patch, field, message] of cases) {
    it(`should not support ${what}`, () => {
      const error = caught(() => extendGrammar(defaultGrammar, patch))
      expect(error.code).toBe('invalid-grammar')
      expect(error.field).toBe(field)
      if (message) expect(error.message).toMatch(message)
    })
  }

  it('should not support an invalid base grammar', () => {
    const base = { ...defaultGrammar, name: '' }
    expect(caught(() => extendGrammar(base, { wrapper: ['x'] })).field).toBe('name')
  })
})
