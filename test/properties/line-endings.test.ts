/**
 * CommonMark reads CR, LF and CRLF alike as line endings (CRLF is one
 * ending), so a document with CR, CRLF or mixed endings gives the calls its
 * LF form gives: the hostile documents (`hostile.ts`: live blocks, examples
 * in every kind of code, echoes of quoted calls), pushed whole, one
 * character at a time and in threes (a CR and its LF in two chunks).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/types.js'
import { hostileCase } from './hostile.js'

const asLf = (t: string) => t.replace(/\r\n?/g, '\n')

function callNames(input: string, quoted: string[], size: number): string[] {
  const sieve = createSieve({ quoted })
  const events: SieveEvent[] = []
  if (size === 0) events.push(...sieve.push(input))
  else for (let i = 0; i < input.length; i += size) events.push(...sieve.push(input.slice(i, i + size)))
  events.push(...sieve.end())
  return events.flatMap((e) => (e.type === 'tool-call' ? [e.name] : []))
}

describe('line endings', () => {
  it('should support CR, CRLF and mixed documents as their LF forms, in every chunking', () => {
    const cases = fc.sample(hostileCase(['cr', 'crlf', 'mixed']), { numRuns: 200, seed: 20261204 }).filter((c) => c.input.includes('\r'))
    expect(cases.length).toBeGreaterThan(100)
    for (const c of cases) {
      const want = callNames(asLf(c.input), c.quoted.map(asLf), 0)
      for (const size of [0, 1, 3]) expect(callNames(c.input, c.quoted, size), JSON.stringify({ size, input: c.input })).toEqual(want)
    }
  })
})
