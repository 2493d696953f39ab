/**
 * The oracle's block decision (as in `oracle.test.ts`) on documents of the
 * lines that decide whether a line four columns in is indented code
 * (`block-shapes.ts`): a block is live exactly when micromark puts it
 * outside fenced, indented and inline code and outside the raw HTML the
 * guard reads. `scripts`-style long runs: `ORACLE_RUNS=20000 npx vitest run
 * test/commonmark/oracle-blocks.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mixed, shapeWithBlock } from './block-shapes.js'
import { disagreements } from './decisions.js'

const runs = Number(process.env.ORACLE_RUNS ?? 300)
/** Agreement measured on the 300 documents with lists (seed 13). */
const FLOOR_WITH_LISTS = 295

describe('CommonMark oracle: what ends a paragraph before indented code', () => {
  it.each([
    ['line feeds', ['\n'], 11, runs],
    ['CRLF line endings', ['\r\n'], 12, runs],
    ['CR line endings', ['\r'], 14, runs],
    ['mixed line endings', [mixed], 15, runs],
  ] as const)('should find a block exactly when micromark puts it outside code (%s)', (_label, endings, seed, n) => {
    const cases = fc.sample(shapeWithBlock(endings), { numRuns: n, seed })
    const wrong = disagreements(cases)
    if (wrong.length > 0) console.warn([`block decisions: ${cases.length - wrong.length}/${cases.length} agree with micromark`, ...wrong].join('\n'))
    expect(wrong).toEqual([])
  })

  // the list rule errs towards live (`lines.ts`: inside a list it does not tell an item's paragraph from indented code,
  // and only a line at column 0 after a blank line closes the list): every miss here is a block CommonMark puts in
  // indented code after a list it has closed. A floor, as in `oracle.test.ts`: raise it when a fix lifts it
  it('should find a block as micromark does with list markers outside code too, at least as often as measured', () => {
    const cases = fc.sample(shapeWithBlock(['\n', '\r\n'], true), { numRuns: 300, seed: 13 })
    const all = disagreements(cases)
    if (all.length > 0) console.warn([`block decisions with lists: ${cases.length - all.length}/${cases.length} agree with micromark`, ...all].join('\n'))
    expect(disagreements(cases, false).filter((w) => w.includes('live per CommonMark'))).toEqual([])
    expect(cases.length - all.length).toBeGreaterThanOrEqual(FLOOR_WITH_LISTS)
  })
})
