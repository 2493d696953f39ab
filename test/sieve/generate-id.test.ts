/**
 * `generateId` at run time. It is the caller's code: when it throws or gives
 * something that is not a non-empty string, the call is still good, so it
 * goes out with a default id and an `invalid-call-id` diagnostic (which
 * `onInvalid` leaves alone). `push()` never throws for it, and no text is lost.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, parseToolCalls } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'
import { ID_PATTERN } from '../helpers/chunking.js'

const block = '<tool_calls><invoke name="f"><parameter name="a">1</parameter></invoke><invoke name="g"></invoke></tool_calls>'
const input = 'before ' + block + ' after'

function run(opts: SieveOptions): SieveEvent[] {
  const sieve = createSieve(opts)
  return [...sieve.push(input), ...sieve.end()]
}

const shape = (events: SieveEvent[]) => events.map((e) => (e.type === 'diagnostic' || e.type === 'error' ? `${e.type}:${e.code}` : e.type))

describe('generateId', () => {
  it('should support a generator giving ids', () => {
    let n = 0
    const events = run({ generateId: () => `id-${++n}` })
    expect(events.flatMap((e) => (e.type === 'tool-call' ? [e.id] : []))).toEqual(['id-1', 'id-2'])
  })

  it('should not support a generator that throws: default ids, a diagnostic per call, nothing lost', () => {
    const events = run({ generateId: () => { throw new Error('counter broken') } })
    expect(shape(events)).toEqual(['text', 'tool-call', 'diagnostic:invalid-call-id', 'tool-call', 'diagnostic:invalid-call-id', 'text'])
    const calls = events.filter((e) => e.type === 'tool-call')
    for (const c of calls) {
      expect(c.id).toMatch(ID_PATTERN)
      expect(c.diagnostics?.map((d) => d.code)).toEqual(['invalid-call-id'])
    }
    expect(calls.map((c) => c.name)).toEqual(['f', 'g'])
    expect((events[2] as { message: string }).message).toContain('counter broken')
    const rebuilt = events.map((e) => (e.type === 'text' ? e.text : e.type === 'tool-call' ? e.raw : '')).join('')
    expect(rebuilt).toBe(input)
  })

  it('should not support a generator returning anything but a non-empty string', () => {
    for (const value of [42, '', null, undefined, { id: 'x' }]) {
      const events = run({ generateId: () => value as unknown as string })
      expect(shape(events)).toEqual(['text', 'tool-call', 'diagnostic:invalid-call-id', 'tool-call', 'diagnostic:invalid-call-id', 'text'])
      expect(events.filter((e) => e.type === 'tool-call').every((c) => ID_PATTERN.test(c.id))).toBe(true)
    }
  })

  it("should support onInvalid 'reject' leaving such calls alone: the generator's fault, not the call's", () => {
    const events = run({ onInvalid: 'reject', generateId: () => { throw new Error('x') } })
    expect(shape(events)).toEqual(['text', 'tool-call', 'diagnostic:invalid-call-id', 'tool-call', 'diagnostic:invalid-call-id', 'text'])
  })

  it("should support onInvalid 'reject' calling no generator for a rejected block", () => {
    let n = 0
    const sieve = createSieve({ tools: ['g'], onInvalid: 'reject', generateId: () => `id-${++n}` })
    const events = [...sieve.push(block + '<tool_calls><invoke name="g"></invoke></tool_calls>'), ...sieve.end()]
    expect(events.flatMap((e) => (e.type === 'tool-call' ? [e.id] : []))).toEqual(['id-1'])
  })

  it('should support strict mode making the diagnostic an error', () => {
    const r = parseToolCalls(block, { strict: true, generateId: () => '' })
    expect(r.calls).toHaveLength(2)
    expect(r.errors.map((e) => e.code)).toEqual(['invalid-call-id', 'invalid-call-id'])
  })
})
