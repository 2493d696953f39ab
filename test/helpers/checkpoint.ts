/**
 * A sieve's checkpoint sent through JSON, as a caller stores it, and a run
 * resumed from one: what every checkpoint suite does between two sieves.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { Sieve, SieveCheckpoint, SieveEvent, SieveOptions } from '../../src/index.js'

/** `sieve`'s checkpoint through JSON, checked to be plain JSON of version 1 naming its grammar. */
export function throughJson(sieve: Sieve): SieveCheckpoint {
  const checkpoint = sieve.checkpoint()
  const json = JSON.stringify(checkpoint)
  expect(JSON.parse(json), 'checkpoint is plain JSON').toEqual(checkpoint)
  expect(checkpoint.version).toBe(1)
  expect(typeof checkpoint.grammar).toBe('string')
  return JSON.parse(json) as SieveCheckpoint
}

/**
 * `chunks` (ids numbered), a checkpoint taken after chunk `at` (none for -1)
 * going through JSON into a new sieve that goes on.
 */
export function resumedAfter(chunks: readonly string[], at: number, opts: SieveOptions = {}): SieveEvent[] {
  let n = 0
  const generateId = () => `id${n++}`
  let sieve = createSieve({ ...opts, generateId })
  const events: SieveEvent[] = []
  chunks.forEach((c, i) => {
    events.push(...sieve.push(c))
    if (i === at) sieve = createSieve({ ...opts, generateId, resume: throughJson(sieve) })
  })
  return [...events, ...sieve.end()]
}
