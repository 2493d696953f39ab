/**
 * The stream properties on random documents (prose in English and Chinese,
 * fences, code spans, mentions, valid and broken blocks in every spelling)
 * and on arbitrary strings. Seeds are fixed so CI is deterministic;
 * `npm run fuzz` explores further from any seed.
 *
 * Capture limits here are the default only, but for the held paragraphs;
 * `fuzz.test.ts` runs every property with capture limits of 64 and 200 as
 * well, as `npm run fuzz` does unless told `--default-limit-only`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { sieveWith } from '../../src/sieve/create.js'
import { arbitraryStream, checkConservation, checkStream, documentStream, merge, paragraphStream, run, runResumed, type StreamCase } from './check.js'
import { chunkBy, chunkSizes, document, validBlock } from './generator.js'
import { CLOSED_SPELLINGS } from '../helpers/blocks.js'

const settings = (seed: number, numRuns = 150) => ({ seed, numRuns })

describe('stream properties', () => {
  it('should support conservation: text + raw of calls = input, spans where their text is', () => {
    fc.assert(fc.property(document(), (input) => checkConservation(input, run([input]))), settings(101, 300))
  })

  it('should support chunk invariance: any chunking gives the events of one chunk (text merged)', () => {
    fc.assert(
      fc.property(document(), chunkSizes, fc.nat(), (input, sizes, at) => {
        const reference = run([input])
        expect(run(chunkBy(input, sizes))).toEqual(reference)
        const k = at % (input.length + 1)
        expect(run([input.slice(0, k), input.slice(k)])).toEqual(reference)
      }),
      settings(102),
    )
  })

  it('should support lexer windows of any size: a window boundary is a chunk boundary to every construct', () => {
    // the driver lexes a long text (a whole turn pushed at once, a restart's rescan) in windows; tiny windows put
    // their boundaries inside every construct, a held tail, a carried run, a capture the limit releases
    fc.assert(
      fc.property(fc.oneof(document(), document(16)), fc.integer({ min: 1, max: 40 }), fc.constantFrom(undefined, 64, 200), (input, windowSize, captureLimit) => {
        const opts = captureLimit === undefined ? {} : { captureLimit }
        expect(run([input], opts, { windowSize })).toEqual(run([input], opts))
      }),
      settings(107, 800),
    )
  })

  it('should not support a lexer window that is not a positive integer (internal option)', () => {
    for (const windowSize of [0, -1, 1.5, Number.NaN]) {
      expect(() => sieveWith({}, { windowSize }), String(windowSize)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'windowSize' }))
    }
  })

  it('should support chunk invariance one UTF-16 unit at a time on short documents', () => {
    fc.assert(
      fc.property(document(4), (input) => {
        expect(run(Array.from({ length: input.length }, (_, i) => input.charAt(i)))).toEqual(run([input]))
      }),
      settings(103, 100),
    )
  })

  it('should support exactly the built calls in documents of prose and valid blocks', () => {
    const plain = fc.constantFrom('Hello. ', '好的。', 'a|b ', '1 > 0 ', '\n', '\n\n', 'DSML ', ' ', 'emoji 😀 ')
    const piece = fc.oneof(
      plain.map((text) => ({ text, markup: text, calls: [] as { name: string; input: Record<string, string> }[] })),
      validBlock(CLOSED_SPELLINGS, true).map((b) => ({ text: '', markup: b.markup, calls: b.calls })),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), chunkSizes, (pieces, sizes) => {
        const input = pieces.map((p) => p.markup).join('')
        const events = run(chunkBy(input, sizes))
        expect(events.flatMap((e) => (e.type === 'tool-call' ? [{ name: e.name, input: e.input }] : []))).toEqual(pieces.flatMap((p) => p.calls))
        expect(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe(pieces.map((p) => p.text).join(''))
        expect(events.filter((e) => e.type === 'diagnostic')).toEqual([])
      }),
      settings(104),
    )
  })

  it('should support every stream property on paragraphs that hold and halt again and again, with small capture limits too', () => {
    fc.assert(fc.property(paragraphStream(), (c: StreamCase) => checkStream(c)), settings(108, 300))
  })

  it('should support checkpoint and resume: stopping anywhere, through JSON, gives the events of never stopping', () => {
    fc.assert(
      fc.property(documentStream(false), (c: StreamCase) => {
        const chunks = chunkBy(c.input, c.sizes)
        const stops = new Set(c.stops.map((s) => s % (chunks.length + 1)))
        expect(runResumed(chunks, stops)).toEqual(run([c.input]))
      }),
      settings(105),
    )
  })

  it('should support a checkpoint after every chunk', () => {
    fc.assert(
      fc.property(document(6), chunkSizes, (input, sizes) => {
        const chunks = chunkBy(input, sizes)
        expect(runResumed(chunks, new Set(chunks.keys()))).toEqual(run([input]))
      }),
      settings(106, 60),
    )
  })

  it('should not support throwing, or an internal error, on arbitrary strings (lone surrogates, NUL, astral)', () => {
    fc.assert(
      fc.property(arbitraryStream(false), (c: StreamCase) => {
        const sieve = createSieve()
        const events = []
        for (const chunk of chunkBy(c.input, c.sizes)) events.push(...sieve.push(chunk))
        events.push(...sieve.end())
        const merged = merge(events)
        checkConservation(c.input, merged)
        expect(merged).toEqual(run([c.input]))
      }),
      settings(107, 200),
    )
  })
})
