/**
 * The inputs `npm run bench` times are the inputs the sieve handles
 * correctly: generated transcript turns parse exactly as their manifest says,
 * the peer re-encoding keeps the same calls, and each adversarial input has
 * the shape it is built for. No timing here.
 */
import { describe, expect, it } from 'vitest'
import { stream as streamWith } from './helpers/stream.js'
import { ADVERSARIAL, dsmlMentions } from '../bench/adversarial.js'
import type { Adversarial } from '../bench/adversarial.js'
import { fixedChunks, tokenChunks } from '../bench/chunks.js'
import type { ManifestCall } from '../bench/generate.js'
import { PEERS } from '../bench/peers.js'
import { generateTurns, manifestJsonl, parseJsonl, renderTurn, transcriptJsonl } from '../bench/transcripts.js'

const SEED = 11
// Ordinary turns only: the rare big write has its own test below.
const turns = generateTurns({ seed: SEED, size: 150 * 1024, big: 0 })


const stream = (chunks: readonly string[], options?: Adversarial['options']) => streamWith(chunks, options)

describe('bench transcripts', () => {
  it('should be deterministic for a seed', () => {
    expect(transcriptJsonl(generateTurns({ seed: SEED, size: 150 * 1024, big: 0 }))).toBe(transcriptJsonl(turns))
  })

  it('should write one JSONL line per turn, and a manifest line per turn', () => {
    const lines = parseJsonl<{ id: number; text: string }>(transcriptJsonl(turns))
    const manifest = parseJsonl<{ id: number; calls: ManifestCall[] }>(manifestJsonl(turns))
    expect(lines.map((l) => l.id)).toEqual(turns.map((t) => t.id))
    expect(lines.map((l) => l.text)).toEqual(turns.map((t) => t.text))
    expect(manifest.map((m) => m.calls)).toEqual(turns.map((t) => t.calls))
  })

  it('should hold prose, fences with examples, and blocks in every spelling', () => {
    const all = turns.map((t) => t.text).join('\n')
    for (const marker of ['<｜DSML｜tool_calls>', '<|DSML|tool_calls>', '<｜DSML｜function_calls>', '<｜DSML｜ calls>',
      '＜ＤＳＭＬ＜tool_calls＞', '＜｜ＤＳＭＬ｜tool_calls＞', '\n<tool_calls>', '\n<function_calls>', '```xml\n', '~~~\n',
      '<![CDATA[', '我先']) {
      expect(all, marker).toContain(marker)
    }
    expect(turns.some((t) => t.calls.length === 0)).toBe(true)
    expect(turns.some((t) => t.segments.some((s) => s.kind === 'fence' && s.fence.kind === 'example'))).toBe(true)
  })

  it('should support every turn streamed in token-sized chunks, exactly as the manifest says', () => {
    let calls = 0
    for (const turn of turns) {
      const { calls: found, codes, rebuilt } = stream(tokenChunks(turn.text, SEED + turn.id))
      expect(codes, `turn ${turn.id}`).toEqual([])
      expect(found, `turn ${turn.id}`).toEqual(turn.calls)
      expect(rebuilt).toBe(turn.text)
      calls += found.length
    }
    expect(calls).toBeGreaterThan(20)
  })

  it('should support the rare 20–200 KB file write', () => {
    const big = generateTurns({ seed: SEED, size: 300 * 1024, big: 1 })
    const sizes = big.flatMap((t) => t.calls.map((c) => c.input.content?.length ?? 0))
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(20_000)
    for (const turn of big) {
      const { calls, codes } = stream(fixedChunks(turn.text, 16))
      expect(codes, `turn ${turn.id}`).toEqual([])
      expect(calls, `turn ${turn.id}`).toEqual(turn.calls)
    }
  })

  it('should keep the calls when a peer re-encodes the turns', () => {
    for (const peer of PEERS) {
      // Small turns: the peers' time grows with the square of a call's length.
      for (const turn of turns.filter((t) => t.text.length < 8192).slice(0, 40)) {
        const parser = peer.create()
        for (const chunk of fixedChunks(renderTurn(turn.segments, peer.format), 16)) parser.push(chunk)
        parser.end()
        expect(parser.calls, `${peer.id} turn ${turn.id}`).toEqual(turn.calls)
      }
    }
  })
})

function expectShape(a: Adversarial, chunks: readonly string[]): void {
  const { calls, codes, rebuilt } = stream(chunks, a.options)
  expect(rebuilt).toBe(a.text)
  expect([...new Set(codes)].sort()).toEqual([...a.diagnostics].sort())
  if (a.namesOnly === true) {
    expect(calls.map((c) => [c.name, Object.keys(c.input).sort()])).toEqual(a.calls.map((c) => [c.name, Object.keys(c.input).sort()]))
  } else {
    expect(calls).toEqual(a.calls)
  }
}

describe('bench adversarial inputs', () => {
  for (const make of ADVERSARIAL) {
    const a = make(0.1)
    it(`should give ${a.id} its intended shape (${a.calls.length} calls${a.diagnostics.length > 0 ? `, ${a.diagnostics.join(', ')}` : ''})`, () => {
      expectShape(a, tokenChunks(a.text, SEED))
      expectShape(a, [a.text])
    })
  }

  it('should find exactly one call after 100k <|DSML| mentions', () => {
    const a = dsmlMentions()
    expect(a.text.split('DSML').length - 1).toBeGreaterThan(100_000)
    expect(a.calls).toHaveLength(1)
    expectShape(a, fixedChunks(a.text, 4096))
  })
})
