/**
 * The stream properties for every pack the sieve reads, on documents made of
 * the pack's own pieces: real blocks its writer makes, those blocks cut and
 * spliced, its openers and closers alone, fences, code spans, reasoning tags
 * and prose. Conservation, no internal error, chunk invariance, lexer
 * windows, and checkpoints anywhere. Seeds are fixed so CI is deterministic.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatToolCalls } from '../../src/index.js'
import type { DialectPack } from '../../src/dialects/types.js'
import { readLayouts, readPacks } from '../helpers/dialects.js'
import { checkConservation, run, runResumed } from './check.js'
import { chunkBy, chunkSizes } from './generator.js'

const calls = [
  [{ name: 'read_file', input: { path: 'src/a.ts', limit: 40 } }],
  [{ name: 'write', input: { content: 'a "quoted" `tick` {brace} [x] <b>\n</b>', n: 1.5, ok: true, none: null } }, { name: 'ls', input: {} }],
]

/** The pieces a document of `pack` is made of. */
function pieces(pack: DialectPack): string[] {
  const blocks = readLayouts(pack).flatMap((i) => calls.map((c) => formatToolCalls(c, { dialect: pack, variant: pack.blocks[i]!.name })))
  const cuts = blocks.flatMap((b) => [b.slice(0, b.length >> 1), b.slice(b.length >> 1), b.slice(0, 3), b.slice(-4)])
  const reasoning = (pack.regions ?? []).filter((r) => r.kind === 'reasoning').flatMap((r) => [r.open, r.close]).flatMap((d) => (d.kind === 'literal' ? d.text : []))
  return [...blocks, ...blocks, ...cuts, ...reasoning, '<think>', '</think>', '\n```\n', '`', '~~~\n', '    ', '\n\n', 'Sure, ', ' and then ', '{"a": [1, 2]}', '[x]', '<', '>', '"', '\\', '中文 ']
}

describe.each(readPacks.map((p) => [p.name, p] as const))('stream properties of the %s pack', (_name, pack) => {
  const doc = fc.array(fc.constantFrom(...pieces(pack)), { maxLength: 12 }).map((parts) => parts.join(''))
  const opts = { dialect: pack }

  it('should support conservation with no internal error, and any chunking giving the events of one chunk', () => {
    fc.assert(
      fc.property(doc, chunkSizes, (input, sizes) => {
        const reference = run([input], opts)
        checkConservation(input, reference)
        expect(run(chunkBy(input, sizes), opts)).toEqual(reference)
      }),
      { seed: 2701, numRuns: 40 },
    )
  })

  it('should support lexer windows of any size and a capture limit', () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: 1, max: 30 }), (input, windowSize) => {
        for (const captureLimit of [undefined, 120]) {
          const o = captureLimit === undefined ? opts : { ...opts, captureLimit }
          expect(run([input], o, { windowSize })).toEqual(run([input], o))
        }
      }),
      { seed: 2702, numRuns: 25 },
    )
  })

  it('should support resuming from checkpoints after any chunks', () => {
    fc.assert(
      fc.property(doc, chunkSizes, fc.array(fc.nat(), { maxLength: 4 }), (input, sizes, stops) => {
        const chunks = chunkBy(input, sizes)
        expect(runResumed(chunks, new Set(stops.map((s) => s % (chunks.length + 1))), opts)).toEqual(run([input], opts))
      }),
      { seed: 2703, numRuns: 25 },
    )
  })
})
