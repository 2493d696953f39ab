/**
 * What is compiled from a grammar is kept for the grammar by the layer that
 * builds it, in a map keyed by the grammar (`src/grammar/derived.ts`): a
 * grammar `validateGrammar` made compiles once however many sieves use it,
 * and nothing else is ever taken for one.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { keepsDerived } from '../../src/grammar/derived.js'
import { fastPathTables } from '../../src/sieve/fast-path-tables.js'
import { grammarFingerprint } from '../../src/grammar/fingerprint.js'
import { extendGrammar, loadGrammar, validateGrammar } from '../../src/grammar/load.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { createSieve } from '../../src/sieve/create.js'

const extended = extendGrammar(defaultGrammar, { wrapper: ['tool_use'] })

describe('what is compiled from a grammar', () => {
  it('should support every grammar validateGrammar makes keeping its lexer and fingerprint', () => {
    for (const g of [defaultGrammar, extended, loadGrammar(JSON.parse(JSON.stringify(extended))), validateGrammar(extended)]) {
      const lexer = compileLexer(g)
      expect(keepsDerived(g)).toBe(true)
      expect(compileLexer(g)).toBe(lexer)
      expect(grammarFingerprint(g)).toBe(grammarFingerprint(g))
    }
  })

  it('should support sieves of one grammar sharing its lexer and the tables built from it', () => {
    const block = '<tool_use><invoke name="a"><parameter name="p">1</parameter></invoke></tool_use>'
    for (let i = 0; i < 3; i++) {
      const sieve = createSieve({ grammar: extended, quoted: ['x'] })
      expect(sieve.push(block).some((e) => e.type === 'tool-call')).toBe(true)
    }
    const lexer = compileLexer(extended)
    expect(fastPathTables(lexer)).toBe(fastPathTables(lexer))
  })

  it('should not support anything validateGrammar did not make holding a compiled form', () => {
    const copies = [{ ...extended }, JSON.parse(JSON.stringify(extended)), Object.freeze(JSON.parse(JSON.stringify(extended)))]
    for (const copy of copies) {
      expect(keepsDerived(copy)).toBe(false)
      expect(compileLexer(copy)).not.toBe(compileLexer(copy))
    }
  })

  it('should not support the slot showing in keys, JSON or equality', () => {
    expect(Object.keys(extended)).toEqual(Object.keys(JSON.parse(JSON.stringify(extended))))
    expect(JSON.stringify(extended)).toBe(JSON.stringify(JSON.parse(JSON.stringify(extended))))
    expect(validateGrammar(extended)).toStrictEqual(extended)
    expect(Object.isFrozen(extended)).toBe(true)
  })
})
