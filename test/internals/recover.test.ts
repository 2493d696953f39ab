/**
 * White-box: an internal error (forced here by making the token walk throw)
 * releases everything not yet given out — what was held and the unread rest
 * of the chunk — as text with one `internal-error`, and the sieve goes on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSieve, parseToolCalls } from '../../src/index.js'
import { Driver } from '../../src/sieve/driver.js'
import type { SieveEvent } from '../../src/types.js'

function given(events: SieveEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : e.type === 'tool-call' ? e.raw : '')).join('')
}

/** Makes the `n`th token the walk handles throw. */
function failAtToken(n: number): void {
  const real = Driver.prototype.token
  let seen = 0
  vi.spyOn(Driver.prototype, 'token').mockImplementation(function (this: Driver, ...args: Parameters<Driver['token']>) {
    if (++seen === n) throw new Error('forced')
    return real.apply(this, args)
  })
}

afterEach(() => vi.restoreAllMocks())

describe('recovery from an internal error', () => {
  const block = '<tool_calls><invoke name="a"><parameter name="p">v</parameter></invoke></tool_calls>'
  const input = 'Before. ' + block + ' middle ' + block + ' after.'

  it.each([1, 3, 6, 12])('should support releasing the held text and the unread rest of the chunk (token %i fails)', (n) => {
    failAtToken(n)
    const sieve = createSieve()
    const events = [...sieve.push(input), ...sieve.end()]
    expect(given(events)).toBe(input)
    const errors = events.filter((e) => e.type === 'diagnostic' && e.code === 'internal-error')
    expect(errors).toHaveLength(1)
  })

  it.each(Array.from({ length: 24 }, (_, i) => i + 1))('should support releasing a value the fast path held when the push began (token %i fails)', (n) => {
    // a value's text is a run of the fast path's, made a token by the first token of the next lexer run: a later one fails
    const chunks = ['Say ', '<tool_calls>', '<invoke name="a">', '<parameter name="p">', 'va', 'lu', 'e', '</parameter></invoke>', ' ', '</tool_calls>', ' ok']
    failAtToken(n)
    const sieve = createSieve()
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(given(events)).toBe(chunks.join(''))
  })

  it('should support a real span: where the released text sits in the stream', () => {
    failAtToken(4)
    const sieve = createSieve()
    const first = sieve.push('Hi ')
    const events = [...first, ...sieve.push(block + ' tail'), ...sieve.end()]
    const d = events.find((e) => e.type === 'diagnostic')!
    expect(d.type === 'diagnostic' && d.span.end - d.span.start).toBeGreaterThan(0)
    const whole = 'Hi ' + block + ' tail'
    if (d.type === 'diagnostic') expect(whole.slice(d.span.start)).toBe(given(events).slice(d.span.start))
    expect(given(events)).toBe(whole)
  })

  it('should support going on after a recovery: a later block is a call', () => {
    failAtToken(2)
    const sieve = createSieve()
    const events = [...sieve.push('x ' + block), ...sieve.push(' and ' + block), ...sieve.end()]
    expect(given(events)).toBe('x ' + block + ' and ' + block)
    expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(1)
  })

  it.each([[4000, 1], [4001, 0]])('should support %i fence lines and a block pushed at once (no recursion per line)', (lines, calls) => {
    const text = '```\n'.repeat(lines) + block
    const sieve = createSieve()
    const events = [...sieve.push(text), ...sieve.end()]
    expect(events.filter((e) => e.type === 'diagnostic')).toEqual([])
    expect(events.filter((e) => e.type === 'tool-call')).toHaveLength(calls)
    expect(given(events)).toBe(text)
    expect(parseToolCalls(text).calls).toHaveLength(calls)
  })
})

describe('recovery after resuming from a checkpoint', () => {
  it('should support releasing text held before the checkpoint', () => {
    const first = createSieve()
    const before = first.push('hi <tool_calls><invoke name="a">')
    const cp = JSON.parse(JSON.stringify(first.checkpoint()))
    failAtToken(1)
    const second = createSieve({ resume: cp })
    const after = [...second.push('</invoke></tool_calls> tail'), ...second.end()]
    expect(given([...before, ...after])).toBe('hi <tool_calls><invoke name="a"></invoke></tool_calls> tail')
  })
})
