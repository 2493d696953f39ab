/**
 * Options are checked when the sieve is created: a value of the wrong type or
 * range is a ToolsieveError whose `field` names the option, never a raw
 * TypeError mid-stream and never silently ignored. `null` and `undefined`
 * mean "not given". Then the run-time contract of `push`, `end` and
 * `generateId`.
 */
import { describe, expect, it } from 'vitest'
import { GrammarError, ToolsieveError, createSieve, defaultGrammar, extendGrammar, parseToolCalls } from '../../src/index.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import type { SieveOptions } from '../../src/types.js'
import { caught } from '../helpers/grammar-error.js'

const call = '<tool_calls><invoke name="f"><parameter name="a">1</parameter></invoke></tool_calls>'

const thrown = (run: () => unknown): ToolsieveError => caught(run, ToolsieveError)

const bad = (options: unknown) => thrown(() => createSieve(options as SieveOptions))

describe('createSieve options', () => {
  it('should support null and undefined as no options, and as any option not given', () => {
    for (const options of [null, undefined, {}, { grammar: null, captureLimit: null, tools: null, onInvalid: null, strict: null, generateId: null, resume: null }]) {
      const sieve = createSieve(options as SieveOptions)
      expect([...sieve.push(call), ...sieve.end()].map((e) => e.type)).toEqual(['tool-call'])
    }
  })

  it('should not support options that are not an object (invalid-option, field "")', () => {
    for (const options of [5, 'strict', true, [{ strict: true }]]) expect(bad(options)).toMatchObject({ code: 'invalid-option', field: '' })
  })

  it('should not support strict other than a boolean', () => {
    for (const strict of ['yes', 1, {}]) expect(bad({ strict })).toMatchObject({ code: 'invalid-option', field: 'strict' })
  })

  it('should not support generateId other than a function', () => {
    for (const generateId of ['call_1', 5, {}]) expect(bad({ generateId })).toMatchObject({ code: 'invalid-option', field: 'generateId' })
  })

  it('should not support tools other than an array', () => {
    for (const tools of ['read_file', { read_file: {} }, 3]) expect(bad({ tools })).toMatchObject({ code: 'invalid-option', field: 'tools' })
  })

  it('should not support onInvalid other than emit or reject', () => {
    expect(bad({ onInvalid: 'drop' })).toMatchObject({ code: 'invalid-option', field: 'onInvalid' })
  })

  it('should not support resume that is not a checkpoint (invalid-checkpoint, field "resume")', () => {
    for (const resume of [0, '', false, 'checkpoint', 7, []]) expect(bad({ resume })).toMatchObject({ code: 'invalid-checkpoint', field: 'resume' })
  })

  it('should support resume from a real checkpoint', () => {
    const first = createSieve()
    first.push('<tool_calls><invoke name="f">')
    const second = createSieve({ resume: first.checkpoint() })
    expect([...second.push('</invoke></tool_calls>'), ...second.end()].map((e) => e.type)).toEqual(['tool-call'])
  })

  it('should not support a grammar that is not one (invalid-grammar, field under "grammar")', () => {
    for (const grammar of [{}, 5, 'dsml', { ...defaultGrammar, frames: 'x' }]) {
      const e = bad({ grammar })
      expect(e).toBeInstanceOf(GrammarError)
      expect(e.code).toBe('invalid-grammar')
      expect(e.field).toMatch(/^grammar(\.|$)/)
    }
    expect(bad({ grammar: { ...defaultGrammar, frames: 'x' } }).field).toBe('grammar.frames')
  })

  it('should support a grammar object that is not frozen, validated first', () => {
    const plain = JSON.parse(JSON.stringify(defaultGrammar)) as typeof defaultGrammar
    const sieve = createSieve({ grammar: plain })
    expect([...sieve.push(call), ...sieve.end()].map((e) => e.type)).toEqual(['tool-call'])
  })

  it('should not support a capture limit below the grammar\'s longest delimiter', () => {
    const minimum = compileLexer(defaultGrammar).maxDelimiter
    expect(bad({ captureLimit: minimum - 1 })).toMatchObject({ code: 'invalid-option', field: 'captureLimit' })
    expect(bad({ captureLimit: minimum - 1 }).message).toContain(String(minimum))
    expect(() => createSieve({ captureLimit: minimum })).not.toThrow()
  })

  it('should not support a capture limit that is not a positive integer', () => {
    for (const captureLimit of [0, -5, 100.5, '4096', Number.NaN, Infinity]) expect(bad({ captureLimit })).toMatchObject({ code: 'invalid-option', field: 'captureLimit' })
  })

  it('should support the minimum from the grammar in use', () => {
    const grammar = extendGrammar(defaultGrammar, { wrapper: ['a_very_long_wrapper_name_that_makes_the_longest_delimiter'] })
    const minimum = compileLexer(grammar).maxDelimiter
    expect(minimum).toBeGreaterThan(compileLexer(defaultGrammar).maxDelimiter)
    expect(bad({ grammar, captureLimit: minimum - 1 }).field).toBe('captureLimit')
  })
})

describe('push and end', () => {
  it('should support push(null) and push(undefined) as nothing (an OpenAI stream\'s last delta)', () => {
    const sieve = createSieve()
    const events = [...sieve.push('a <tool_calls>'), ...sieve.push(null), ...sieve.push(undefined), ...sieve.push('<invoke name="f"></invoke></tool_calls> b'), ...sieve.end()]
    expect(events.map((e) => e.type)).toEqual(['text', 'tool-call', 'text'])
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe('a  b')
  })

  it('should not support other non-strings (invalid-chunk)', () => {
    const sieve = createSieve()
    for (const chunk of [5, {}, new Uint8Array([60]), ['a'], true]) expect(thrown(() => sieve.push(chunk as unknown as string)).code).toBe('invalid-chunk')
    // the sieve goes on as if nothing had been pushed
    expect([...sieve.push(call), ...sieve.end()].map((e) => e.type)).toEqual(['tool-call'])
  })

  it('should support a second end() as []', () => {
    const sieve = createSieve()
    sieve.push('held <tool_calls')
    expect(sieve.end().length).toBeGreaterThan(0)
    expect(sieve.end()).toEqual([])
  })

  it('should not support push after end (sieve-finished), null included', () => {
    const sieve = createSieve()
    sieve.end()
    expect(thrown(() => sieve.push('x')).code).toBe('sieve-finished')
    expect(thrown(() => sieve.push(null)).code).toBe('sieve-finished')
  })

  it('should support parseToolCalls(null) as empty text', () => {
    expect(parseToolCalls(null)).toMatchObject({ calls: [], text: '', diagnostics: [] })
    expect(parseToolCalls(call, null).calls).toHaveLength(1)
  })
})
