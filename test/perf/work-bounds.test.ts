/**
 * Work bounds any correct streaming reader meets, checked on the sieve's
 * counters (`stats()`), never on times: each input of the corpus, in every
 * chunking of the matrix (`workChunkings`), must come out whole with the
 * calls a correct reader finds, and
 * - characters lexed ≤ reads × length + what the pushes may re-read of the
 *   tail they were handed (at each push, what is held, at most the longest
 *   delimiter): `READS_STREAMED` reads for pushes of a few units, as a model
 *   streams, `READS_ANY_PUSH` for any push (see `measure.ts` for both);
 * - the undecided tail held outside a capture ≤ the longest delimiter (a
 *   longer tail can no longer become one);
 * - tokens ≤ characters lexed + pushes (a token holds at least one
 *   character it was handed, or is the one text token a push's plain
 *   chunk may be read as without the lexer);
 * - blocks parsed ≤ mentions of a block opener's name (a block is parsed
 *   once, when complete; never once per push).
 */
import { describe, expect, it } from 'vitest'
import { ADVERSE, BENCH, DENSE, TURNS } from './corpus.js'
import type { WorkCase } from './corpus.js'
import { LONGEST_DELIMITER, READS_ANY_PUSH, READS_STREAMED, SMALL_PUSH, blockNameMentions, lexedBound, run, workChunkings } from './measure.js'

function expectWorkBounds(c: WorkCase): void {
  const mentions = blockNameMentions(c.input)
  let chunkings = 0
  for (const { name, chunks } of workChunkings(c.input)) {
    chunkings++
    const r = run(chunks, c.opts)
    const at = `chunking "${name}"`
    expect(r.out, `${at}: every character leaves once`).toBe(c.input.length)
    if (c.calls !== undefined) expect(r.calls, `${at}: calls`).toBe(c.calls)
    const small = chunks.every((chunk) => chunk.length <= SMALL_PUSH)
    const reads = small ? READS_STREAMED : READS_ANY_PUSH
    expect(r.stats.charsLexed, `${at}: characters lexed ≤ ${reads} × length + re-read tails`).toBeLessThanOrEqual(lexedBound(c.input, r, reads))
    expect(r.stats.maxHeldTail, `${at}: held tail`).toBeLessThanOrEqual(c.maxHeld ?? LONGEST_DELIMITER)
    expect(r.stats.tokens, `${at}: tokens ≤ characters lexed + pushes`).toBeLessThanOrEqual(r.stats.charsLexed + r.pushes)
    expect(r.stats.blocksParsed, `${at}: blocks parsed ≤ opener names`).toBeLessThanOrEqual(mentions)
  }
  expect(chunkings).toBeGreaterThanOrEqual(8)
}

describe('work bounds (counters, not times)', () => {
  it('should support a longest delimiter read from the grammar as long as the longest closer the sieve takes', () => {
    // every drift at its bound: four `<`, blanks and bars, DSML twice, the longest wrapper name, blanks, bars before the end
    const closer = '<<<<  /||||DSML|DSML||||function_calls    ||  >'
    expect(closer).toHaveLength(LONGEST_DELIMITER)
    const r = run(['<｜DSML｜function_calls><｜DSML｜invoke name="a"></｜DSML｜invoke>' + closer])
    expect(r.calls).toBe(1)
  })

  describe('adversarial inputs', () => {
    it.each(ADVERSE.map((c) => [c.name, c] as const))('should support %s within the bounds in every chunking', (_, c) => expectWorkBounds(c))
  })

  describe('the benchmark\'s adversarial inputs, scaled down', () => {
    it.each(BENCH.map((c) => [c.name, c] as const))('should support %s within the bounds in every chunking', (_, c) => expectWorkBounds(c))
  })

  describe('values and prose dense in special characters', () => {
    it.each(DENSE.map((c) => [c.name, c] as const))('should support %s within the bounds in every chunking', (_, c) => expectWorkBounds(c))
  })

  it('should support ordinary generated turns within the bounds in every chunking', () => {
    expect(TURNS.length).toBeGreaterThan(10)
    for (const c of TURNS) expectWorkBounds(c)
  })
})
