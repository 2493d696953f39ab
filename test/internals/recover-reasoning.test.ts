/**
 * White-box: an internal error while the reasoning holds part of the stream
 * (a closer's prefix, `</thi`, or blanks before a `<think>`) releases that
 * part too, with the rest of what was not given out. Forced here by making
 * the reasoning's split or end throw once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/types.js'

const fail = vi.hoisted(() => ({ split: false, end: false }))

vi.mock('../../src/sieve/reasoning.js', async (original) => {
  const real = await original<typeof import('../../src/sieve/reasoning.js')>()
  return {
    ...real,
    splitReasoning: (...args: Parameters<typeof real.splitReasoning>) => {
      if (fail.split) throw new Error('forced')
      return real.splitReasoning(...args)
    },
    endReasoning: (...args: Parameters<typeof real.endReasoning>) => {
      if (fail.end) throw new Error('forced')
      return real.endReasoning(...args)
    },
  }
})

afterEach(() => {
  fail.split = false
  fail.end = false
})

/** Every character given out: text, reasoning, the think tags' raw, calls' raw. */
function given(events: SieveEvent[]): string {
  return events.map((e) => (e.type === 'text' || e.type === 'reasoning' ? e.text : e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
}

const internal = (events: SieveEvent[]): SieveEvent[] => events.filter((e) => e.type === 'diagnostic' && e.code === 'internal-error')

describe('recovery while the reasoning holds text', () => {
  it('should support releasing a held closer prefix when the next push fails', () => {
    const sieve = createSieve()
    const before = sieve.push('<think>Let me look.</thi')
    fail.split = true
    const after = [...sieve.push('nk>Answer.'), ...sieve.end()]
    const events = [...before, ...after]
    expect(given(events)).toBe('<think>Let me look.</think>Answer.')
    expect(internal(events)).toHaveLength(1)
  })

  it('should support releasing a held closer prefix when end() fails', () => {
    const sieve = createSieve()
    const before = sieve.push('<think>Hmm</th')
    fail.end = true
    const events = [...before, ...sieve.end()]
    expect(given(events)).toBe('<think>Hmm</th')
    expect(internal(events)).toHaveLength(1)
  })

  it('should support releasing blanks held before a possible <think>', () => {
    const sieve = createSieve()
    const before = sieve.push('\n  ')
    fail.split = true
    const events = [...before, ...sieve.push('Hello.'), ...sieve.end()]
    expect(given(events)).toBe('\n  Hello.')
    expect(internal(events)).toHaveLength(1)
  })
})
