/**
 * Checkpoints taken anywhere: a sieve stopped at every offset of an input
 * (or after every chunk of a chunked one), its checkpoint sent through JSON
 * into a new sieve that goes on, gives the events of never stopping.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/index.js'
import { resumedAfter, throughJson } from './checkpoint.js'
import { normalise } from './chunking.js'
import { comparable } from './streamed.js'

/**
 * Stops at every offset of `input` and resumes, each run compared with the
 * uninterrupted one (ids blanked, text merged, diagnostic messages kept) and
 * held to {@link normalise}'s checks (call ids unique and, without a
 * `generateId`, of the contract's form; `input` is `JSON.parse(arguments)`),
 * so `opts` sets neither `strict` nor `streamArguments`. Returns the
 * uninterrupted run's events, for the case's own assertions.
 */
export function expectResumesAnywhere(input: string, opts: SieveOptions): SieveEvent[] {
  const view = (events: readonly SieveEvent[]): unknown[] => {
    normalise(events, opts.generateId === undefined)
    return comparable(events, { messages: true })
  }
  const straight = createSieve(opts)
  const whole = [...straight.push(input), ...straight.end()]
  const expected = view(whole)
  for (let i = 0; i <= input.length; i++) {
    const first = createSieve(opts)
    const events = first.push(input.slice(0, i))
    const resumed = createSieve({ ...opts, resume: throughJson(first) })
    events.push(...resumed.push(input.slice(i)), ...resumed.end())
    expect(view(events), `checkpoint at ${i}`).toEqual(expected)
  }
  return whole
}

/**
 * `chunks` (ids numbered), a checkpoint after each chunk in turn, each run
 * giving the very events of the uninterrupted one (the same pieces of text,
 * ids and messages); `label` starts each failure's message. Returns the
 * uninterrupted run's events.
 */
export function expectResumesAfterEveryChunk(chunks: readonly string[], opts: SieveOptions, label = ''): SieveEvent[] {
  const whole = resumedAfter(chunks, -1, opts)
  for (let at = 0; at < chunks.length; at++) expect(resumedAfter(chunks, at, opts), `${label}after chunk ${at}`).toEqual(whole)
  return whole
}

/** {@link expectResumesAfterEveryChunk} with `streamArguments`. */
export function expectStreamedResumesAnywhere(chunks: readonly string[], opts: SieveOptions, label = ''): SieveEvent[] {
  return expectResumesAfterEveryChunk(chunks, { ...opts, streamArguments: true }, label)
}
