/**
 * The per-dialect benchmark (`bench/dialects.ts`) times what it claims: the
 * same turns, the same calls, in every pack, and each readable pack's turns
 * read back exactly in every chunking. No timing here.
 */
import { describe, expect, it } from 'vitest'
import { CHUNKINGS } from '../../bench/chunks.js'
import { blockCalls, dialectVariants, labelOf, rewriteTurns } from '../../bench/dialect-turns.js'
import { generateTurns } from '../../bench/transcripts.js'
import { stream } from '../helpers/stream.js'

const turns = generateTurns({ seed: 7, size: 48 * 1024, big: 0 })
const variants = dialectVariants()
const dsml = rewriteTurns(turns, 'deepseek')

describe('bench dialect turns', () => {
  it('should write the same calls in every layout of every shipped pack', () => {
    expect(dsml.callCount).toBeGreaterThan(20)
    for (const v of variants) {
      const w = rewriteTurns(turns, v.dialect, v.variant)
      expect(w.calls, labelOf(v)).toEqual(dsml.calls)
      expect(w.escapedBlocks, labelOf(v)).toBe(dsml.escapedBlocks)
    }
  })

  it('should keep prose, code spans and fences as generated', () => {
    const w = rewriteTurns(turns, 'qwen3-coder')
    turns.forEach((turn, i) => {
      for (const s of turn.segments) if (s.kind === 'text') expect(w.texts[i]).toContain(s.text)
    })
    // the fenced DSML examples stay as generated, so they are still there in a non-DSML dialect
    expect(w.texts.some((t) => t.includes('<｜DSML｜invoke'))).toBe(true)
  })

  it('should escape </ only in blocks a shipped pack refuses, and then in every value', () => {
    expect(dsml.escapedBlocks).toBeGreaterThan(0)
    for (const turn of turns) {
      for (const s of turn.segments) {
        if (s.kind !== 'block') continue
        const b = blockCalls(s.block)
        const values = b.calls.flatMap((c) => Object.values(c.input))
        if (b.escaped) expect(values.some((v) => v.includes('</'))).toBe(false)
        else expect(b.calls).toEqual(s.block.calls.map((c) => ({ name: c.name, input: Object.fromEntries(c.params.map((p) => [p.key, p.value])) })))
      }
    }
  })

  const readable = variants.filter((v) => v.primary && v.unreadable === null)

  it('should find the deepseek pack among the readable ones', () => {
    expect(readable.map((v) => v.dialect)).toContain('deepseek')
  })

  for (const v of readable) {
    it(`should read back every call written in ${labelOf(v)}, in every chunking, losing nothing`, () => {
      const w = rewriteTurns(turns, v.dialect, v.variant)
      for (const [chunking, split] of CHUNKINGS) {
        w.texts.forEach((text, i) => {
          const out = stream(split(text, i), { dialect: v.dialect })
          expect(out.calls, `${chunking} turn ${i}`).toEqual(w.calls[i])
          expect(out.codes, `${chunking} turn ${i}`).toEqual([])
          expect(out.rebuilt, `${chunking} turn ${i}`).toBe(text)
        })
      }
    })
  }
})
