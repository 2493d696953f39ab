/**
 * What sieves of many grammars hold stays bounded (counts, not times): equal
 * grammars compile one lexer however each is given, the grammars kept for
 * sharing never outnumber `sharedGrammarLimit`, and lexers of ever new
 * grammars leave Chevrotain's registry as they go: the token type indexes
 * and the shared categories' lists do not grow with the lexers made, only
 * with the lexers alive.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { sharedGrammar, sharedGrammarCount, sharedGrammarLimit } from '../../src/grammar/fingerprint.js'
import { validateGrammar } from '../../src/grammar/load.js'
import type { Grammar } from '../../src/grammar/types.js'
import { allCategories } from '../../src/lexer/kinds.js'
import { compileLexer, lexerCompiles } from '../../src/lexer/lexer.js'
import { createSieve } from '../../src/index.js'
import { collectUntil } from '../helpers/collect.js'

function plain(...names: string[]): Grammar {
  const g = JSON.parse(JSON.stringify(defaultGrammar)) as Grammar
  g.roles.invoke.push(...names)
  return g
}

const listedTotal = (): number => allCategories.reduce((n, c) => n + Object.keys(c.categoryMatchesMap!).length, 0)

/** The highest token type index of a lexer compiled for `g` and let go at once. */
function highestIndexOf(g: Grammar): number {
  return compileLexer(g).infoByIdx.length - 1
}

describe('bounded grammar sharing (counts, not times)', () => {
  it('should support 100 sieves from equal plain grammar objects compiling one lexer', () => {
    const before = lexerCompiles()
    for (let i = 0; i < 100; i++) createSieve({ grammar: plain('bound_equal') }).end()
    expect(lexerCompiles() - before).toBe(1)
  })

  it('should support the grammars kept for sharing never outnumbering their bound, the least recent going first', () => {
    const first = sharedGrammar(validateGrammar(plain('bound_0')))
    for (let i = 1; i <= sharedGrammarLimit + 8; i++) {
      sharedGrammar(validateGrammar(plain(`bound_${i}`)))
      expect(sharedGrammarCount()).toBeLessThanOrEqual(sharedGrammarLimit)
    }
    expect(sharedGrammarCount()).toBe(sharedGrammarLimit)
    expect(sharedGrammar(validateGrammar(plain('bound_0')))).not.toBe(first)
    const recent = sharedGrammar(validateGrammar(plain(`bound_${sharedGrammarLimit + 8}`)))
    expect(sharedGrammar(validateGrammar(plain(`bound_${sharedGrammarLimit + 8}`)))).toBe(recent)
  })

  it('should support 24 lexers of different grammars, each let go, not growing the token indexes or the categories', async () => {
    // plain objects: never shared, so each lexer goes as soon as it is compiled
    let live = 0
    const settle = (): Promise<void> => collectUntil(() => listedTotal() <= live)
    compileLexer(defaultGrammar)
    const first = highestIndexOf(plain('fresh_0'))
    // what earlier tests let go leaves first: a settled count is the lexers alive
    await collectUntil(() => false, 4)
    live = listedTotal()
    const perLexer = compileLexer(defaultGrammar).infoByIdx.filter((x) => x !== undefined).length
    let highest = first
    for (let i = 1; i < 24; i++) {
      highest = Math.max(highest, highestIndexOf(plain(`fresh_${i}`)))
      await settle()
      expect(listedTotal()).toBeLessThanOrEqual(live)
    }
    // without reuse each lexer would take new indexes: 24 lexers' worth
    expect(highest - first).toBeLessThan(4 * perLexer)
  })
})
