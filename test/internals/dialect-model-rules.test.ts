/**
 * The model table's shape: every row is the first match of some id the
 * behaviour test checks (no row is shadowed by an earlier, broader one),
 * every pack is reachable, and every row says why.
 */
import { describe, expect, it } from 'vitest'
import { dialectNames, modelRules, normaliseModelId } from '../../src/dialects/model.js'
import { fixtureIds, issueIds, providerIds, unknownIds } from '../dialects/model-ids.js'

const ids = [...issueIds, ...fixtureIds, ...providerIds].map(([id]) => id).concat(unknownIds)

/** The index of the row that decides `id`: the first whose pattern matches, as `dialectForModel` finds it. */
function decidingRow(id: string): number {
  return modelRules.findIndex((rule) => rule.pattern.test(normaliseModelId(id)))
}

describe('the model table', () => {
  it('should support every row as the deciding row of some tested id', () => {
    const used = new Set(ids.map(decidingRow))
    const unused = modelRules.map((r, i) => ({ i, pattern: String(r.pattern) })).filter(({ i }) => !used.has(i))
    expect(unused).toEqual([])
  })

  it('should support every pack from some row, and only packs', () => {
    const named = new Set(modelRules.flatMap((r) => (r.dialect === null ? [] : [r.dialect])))
    expect([...named].sort()).toEqual([...dialectNames].sort())
  })

  it('should support a reason on every row, naming the template for a reasoning start', () => {
    for (const rule of modelRules) {
      expect(rule.note.length, String(rule.pattern)).toBeGreaterThan(5)
      if (rule.dialect !== null && rule.startInReasoning) expect(rule.note, String(rule.pattern)).toMatch(/template|prompt|encoder/)
    }
  })

  it('should not support a stateful pattern (a global or sticky flag would make answers depend on the last call)', () => {
    for (const rule of modelRules) expect(rule.pattern.flags, String(rule.pattern)).not.toMatch(/[gy]/)
  })
})
