/**
 * What is built from a grammar, kept on the grammar itself: no module-level
 * map. Every grammar `validateGrammar` makes (so `loadGrammar`'s,
 * `extendGrammar`'s and `defaultGrammar`) gets one hidden slot before it is
 * deep-frozen: what is derived from it stays true, is shared by every sieve
 * of the grammar (a sieve per turn is common, and compiling a lexer takes
 * some 100 ms), and goes when the grammar goes. Any other object, a config as
 * parsed (even one frozen by hand: its parts may not be), has no slot: it is
 * validated for every sieve, into the equal grammar a recent sieve had
 * (`sharedGrammar` in `fingerprint.ts`), so what is built from it is shared too.
 */
import type { Grammar } from './types.js'

const slot = Symbol('toolsieve.grammar.validated')

/**
 * Marks a grammar about to be frozen as one whose derived things may be
 * kept. Not enumerable: JSON, spreads, `Object.entries` (the fingerprint's
 * canonical text) and deep equality never see it, and a spread copy has none.
 */
export function withDerived<T extends object>(grammar: T): T {
  Object.defineProperty(grammar, slot, { value: true })
  return grammar
}

/** Whether `grammar` is one `validateGrammar` made (frozen, so what is built from it stays true). */
export function keepsDerived(grammar: object): boolean {
  return (grammar as { [slot]?: true })[slot] === true
}

/**
 * What `build` makes from `grammar`, kept in `cache` (the calling layer's own
 * map, keyed by the grammar) on first use, or made every time for a grammar
 * `validateGrammar` did not make.
 */
export function derived<T>(grammar: Grammar, cache: WeakMap<Grammar, T>, build: () => T): T {
  if (!keepsDerived(grammar)) return build()
  let kept = cache.get(grammar)
  if (kept === undefined) {
    kept = build()
    cache.set(grammar, kept)
  }
  return kept
}
