/**
 * Equal grammars share one compiled lexer (`sharedGrammar`), and a lexer
 * that goes takes its token types out of Chevrotain's shared categories and
 * frees their indexes for the next lexer's (`token-registry.ts`).
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { grammarFingerprint, sharedGrammar } from '../../src/grammar/fingerprint.js'
import { validateGrammar } from '../../src/grammar/load.js'
import type { Grammar } from '../../src/grammar/types.js'
import { allCategories } from '../../src/lexer/kinds.js'
import { compileLexer, lexerCompiles } from '../../src/lexer/lexer.js'
import { freeIndexCount } from '../../src/lexer/token-registry.js'
import { createSieve } from '../../src/index.js'
import { calls } from '../helpers/chunking.js'
import { collectUntil } from '../helpers/collect.js'

/** A plain grammar object: the default with `names` added as invoke names. */
function plain(...names: string[]): Grammar {
  const g = JSON.parse(JSON.stringify(defaultGrammar)) as Grammar
  g.roles.invoke.push(...names)
  return g
}

/** Indexes of a lexer's token types. */
function indexesOf(g: Grammar): number[] {
  return compileLexer(g).infoByIdx.flatMap((info, i) => (info === undefined ? [] : [i]))
}

const listed = (i: number): boolean => allCategories.some((c) => c.categoryMatchesMap![i] === true || c.categoryMatches!.includes(i))

const block = (invoke: string): string =>
  `<｜DSML｜tool_calls><｜DSML｜${invoke} name="f"><｜DSML｜parameter name="a" string="true">1</｜DSML｜parameter><｜DSML｜parameter name="b" string="true">2</｜DSML｜parameter></｜DSML｜${invoke}></｜DSML｜tool_calls>`

describe('one lexer for equal grammars', () => {
  it('should support two sieves from equal plain objects sharing the compiled lexer', () => {
    const before = lexerCompiles()
    for (let i = 0; i < 2; i++) {
      const sieve = createSieve({ grammar: plain('shared_a') })
      expect(calls([...sieve.push(block('shared_a')), ...sieve.end()])).toEqual([{ name: 'f', input: { a: '1', b: '2' } }])
    }
    expect(lexerCompiles() - before).toBe(1)
    expect(compileLexer(validateGrammar(plain('shared_a')))).toBe(compileLexer(validateGrammar(plain('shared_a'))))
  })

  it('should support a plain object equal to the default getting the default grammar itself', () => {
    compileLexer(defaultGrammar)
    expect(sharedGrammar(validateGrammar(plain()))).toBe(defaultGrammar)
  })

  it('should support grammars differing only in descriptions sharing, and not ones differing in a name', () => {
    const described = plain('shared_b')
    described.frames[0]!.description = 'another text'
    const g = sharedGrammar(validateGrammar(plain('shared_b')))
    expect(sharedGrammar(validateGrammar(described))).toBe(g)
    expect(sharedGrammar(validateGrammar(plain('shared_c')))).not.toBe(g)
    expect(grammarFingerprint(sharedGrammar(validateGrammar(plain('shared_c'))))).not.toBe(grammarFingerprint(g))
  })

  it('should not support an object validateGrammar did not make being shared', () => {
    const g = plain('shared_d')
    expect(sharedGrammar(g)).toBe(g)
    expect(compileLexer(g)).not.toBe(compileLexer(plain('shared_d')))
  })
})

describe('token types of a lexer that goes', () => {
  it('should support them leaving the categories and their indexes serving the next lexer, which reads its calls', async () => {
    // a plain object is never shared, so nothing but this test holds its lexer
    let gone: Grammar | null = plain('gone_a')
    const indexes = indexesOf(gone)
    expect(indexes.length).toBeGreaterThan(100)
    expect(indexes.every(listed)).toBe(true)
    const held = new WeakRef(compileLexer(gone))
    gone = null
    await collectUntil(() => held.deref() === undefined && freeIndexCount() >= indexes.length)
    expect(held.deref()).toBeUndefined()
    expect(freeIndexCount()).toBeGreaterThanOrEqual(indexes.length)
    expect(indexes.some(listed)).toBe(false)

    // every type of the next lexer takes a freed index: Chevrotain's table does not grow
    const next = plain('next_a')
    const free = freeIndexCount()
    const nextIndexes = indexesOf(next)
    expect(free - freeIndexCount()).toBe(nextIndexes.length)
    expect(nextIndexes.every(listed)).toBe(true)
    for (const grammar of [next, plain('next_a')]) {
      const sieve = createSieve({ grammar })
      expect(calls([...sieve.push(block('next_a')), ...sieve.end()])).toEqual([{ name: 'f', input: { a: '1', b: '2' } }])
    }
    const sieve = createSieve()
    expect(calls([...sieve.push(block('invoke')), ...sieve.end()])).toEqual([{ name: 'f', input: { a: '1', b: '2' } }])
  })
})
