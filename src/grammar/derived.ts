/**
 * What is built from a grammar, kept on the grammar itself: no module-level
 * map. Every grammar `validateGrammar` makes (so `loadGrammar`'s,
 * `extendGrammar`'s and `defaultGrammar`) gets one hidden slot before it is
 * deep-frozen: what is derived from it stays true, is shared by every sieve
 * of the grammar (a sieve per turn is common, and compiling a lexer takes
 * some 100 ms), and goes when the grammar goes. Any other object, a config as
 * parsed (even one frozen by hand: its parts may not be), has no slot: it is
 * validated for every sieve, into a grammar of its own.
 */
import type { CompiledLexer } from '../lexer/lexer.js'
import type { ValueOptions } from '../values/decode.js'
import type { Grammar } from './types.js'

/** Each field is filled on first use and never replaced. */
export interface GrammarDerived {
  /** Its lexer (`compileLexer`). */
  lexer?: CompiledLexer
  /** Its fingerprint (`grammarFingerprint`): a hash of its canonical text, a millisecond or two. */
  fingerprint?: string
  /** The same grammar with no Markdown guard, which reads the `quoted` texts (`createSieve`). */
  unguarded?: Grammar
  /** What value decoding reads from it (`createSieve`): its Set alone took a microsecond, a fifth of a sieve's creation. */
  values?: ValueOptions
}

const slot = Symbol('toolsieve.grammar.derived')

/**
 * Gives a grammar about to be frozen its slot. Not enumerable: JSON, spreads,
 * `Object.entries` (the fingerprint's canonical text) and deep equality never
 * see it, and a spread copy has none.
 */
export function withDerived<T extends object>(grammar: T): T {
  const derived: GrammarDerived = {}
  Object.defineProperty(grammar, slot, { value: derived })
  return grammar
}

/** The slot of a grammar `validateGrammar` made; undefined for any other object. */
export function derivedOf(grammar: object): GrammarDerived | undefined {
  return (grammar as { [slot]?: GrammarDerived })[slot]
}

/** What `build` makes from `grammar`: kept in its slot on first use, or made every time when it has none. */
export function derived<K extends keyof GrammarDerived>(grammar: Grammar, key: K, build: () => NonNullable<GrammarDerived[K]>): NonNullable<GrammarDerived[K]> {
  const kept = derivedOf(grammar)
  if (kept === undefined) return build()
  return (kept[key] ??= build()) as NonNullable<GrammarDerived[K]>
}
