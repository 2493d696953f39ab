/**
 * What is compiled from a grammar is kept on the grammar (`src/grammar/derived.ts`),
 * not in a module-level map (issue 15): a grammar `validateGrammar` made compiles
 * once however many sieves use it, and nothing else is ever taken for one.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { derivedOf } from '../../src/grammar/derived.js'
import { grammarFingerprint } from '../../src/grammar/fingerprint.js'
import { extendGrammar, loadGrammar, validateGrammar } from '../../src/grammar/load.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { createSieve } from '../../src/sieve/create.js'

const extended = extendGrammar(defaultGrammar, { wrapper: ['tool_use'] })

describe('what is compiled from a grammar', () => {
  it('should support every grammar validateGrammar makes keeping its lexer and fingerprint', () => {
    for (const g of [defaultGrammar, extended, loadGrammar(JSON.parse(JSON.stringify(extended))), validateGrammar(extended)]) {
      const lexer = compileLexer(g)
      expect(compileLexer(g)).toBe(lexer)
      expect(derivedOf(g)?.lexer).toBe(lexer)
      const fingerprint = grammarFingerprint(g)
      expect(derivedOf(g)?.fingerprint).toBe(fingerprint)
    }
  })

  it('should support sieves of one grammar sharing its lexer and the tables built from it', () => {
    const block = '<tool_use><invoke name="a"><parameter name="p">1</parameter></invoke></tool_use>'
    for (let i = 0; i < 3; i++) {
      const sieve = createSieve({ grammar: extended, quoted: ['x'] })
      expect(sieve.push(block).some((e) => e.type === 'tool-call')).toBe(true)
    }
    const derived = derivedOf(extended)!
    expect(derived.lexer?.derived.shortcuts).toBeDefined()
    expect(derived.lexer?.derived.parser).toBeDefined()
    // the `quoted` texts are read with the same spellings and no Markdown guard: one such grammar, compiled once
    expect(derived.unguarded?.markdown).toEqual({ fences: false, codeSpans: false })
    expect(derivedOf(derived.unguarded!)?.lexer).toBeDefined()
  })

  it('should not support anything validateGrammar did not make holding a compiled form', () => {
    const copies = [{ ...extended }, JSON.parse(JSON.stringify(extended)), Object.freeze(JSON.parse(JSON.stringify(extended)))]
    for (const copy of copies) {
      expect(derivedOf(copy)).toBeUndefined()
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
