/**
 * Checkpoints taken anywhere: a sieve stopped at every offset of an input
 * (or after every chunk of a streamed one), its checkpoint sent through JSON
 * into a new sieve that goes on, gives the events of never stopping.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/index.js'
import { comparable, streamedResumed } from './streamed.js'

/**
 * Stops at every offset of `input` and resumes, each run compared with the
 * uninterrupted one (ids blanked, text merged, diagnostic messages kept).
 * Returns the uninterrupted run's events, for the case's own assertions.
 */
export function expectResumesAnywhere(input: string, opts: SieveOptions): SieveEvent[] {
  const straight = createSieve(opts)
  const whole = [...straight.push(input), ...straight.end()]
  const expected = comparable(whole, { messages: true })
  for (let i = 0; i <= input.length; i++) {
    const first = createSieve(opts)
    const events = first.push(input.slice(0, i))
    const resumed = createSieve({ ...opts, resume: JSON.parse(JSON.stringify(first.checkpoint())) })
    events.push(...resumed.push(input.slice(i)), ...resumed.end())
    expect(comparable(events, { messages: true }), `checkpoint at ${i}`).toEqual(expected)
  }
  return whole
}

/**
 * `chunks` with `streamArguments`, a checkpoint after each chunk in turn,
 * each run compared with the uninterrupted one; `label` starts each
 * failure's message. Returns the uninterrupted run's events.
 */
export function expectStreamedResumesAnywhere(chunks: readonly string[], opts: SieveOptions, label = ''): SieveEvent[] {
  const whole = streamedResumed(chunks, -1, opts)
  const expected = comparable(whole)
  for (let at = 0; at < chunks.length; at++) expect(comparable(streamedResumed(chunks, at, opts)), `${label}after chunk ${at}`).toEqual(expected)
  return whole
}
