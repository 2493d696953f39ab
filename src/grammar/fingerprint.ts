/**
 * A short identity for a grammar, stored in checkpoints so that a checkpoint
 * is never resumed under a grammar that would lex its pending tail differently.
 */
import { derived, keepsDerived } from './derived.js'
import { validateGrammar } from './load.js'
import type { Grammar } from './types.js'

/** Each grammar's fingerprint, once worked out: a hash of its canonical text, a millisecond or two. */
const fingerprints = new WeakMap<Grammar, string>()

const offset = 0xcbf29ce484222325n
const prime = 0x100000001b3n
const mask = 0xffffffffffffffffn

/**
 * FNV-1a 64-bit hash (16 hex digits) of the normalized grammar as JSON with
 * sorted keys. Key order, omitted defaults and `description` texts do not
 * change it; any name, frame, part, limit or flag does. Kept on a grammar
 * `validateGrammar` made, which is frozen (`derived.ts`).
 *
 * @throws {GrammarError} when `g` is not a valid grammar.
 */
export function grammarFingerprint(g: Grammar): string {
  return derived(g, fingerprints, () => fnv1a64(canonical(validateGrammar(g))))
}

/**
 * How many grammars {@link sharedGrammar} remembers. Each one keeps its
 * compiled lexer and parser (some 2.4 MB, 50 to 100 ms to build), so the
 * bound caps what a process that makes sieves of ever new grammars holds
 * (some 80 MB at most); 32 is more grammars than a process switches
 * between turn by turn (the dialects, a few extensions of them), so each
 * grammar given afresh per turn still compiles once.
 */
export const sharedGrammarLimit = 32

/** The recent grammars by canonical text, least recently used first (a Map keeps insertion order). */
const recent = new Map<string, Grammar>()

/**
 * The grammar equal to `g` (same canonical text, so the same fingerprint)
 * that was given most recently, or `g` itself, which is then remembered.
 * A sieve per turn often gets its grammar afresh (a config parsed per
 * request, `extendGrammar` per turn); handing back the grammar seen before
 * lets everything kept for it (`derived.ts`: its lexer above all) serve
 * the new one. Keyed by the canonical text, not its hash: a collision must
 * never hand out another grammar. Only for a grammar `validateGrammar`
 * made (normalized and frozen); any other object is returned as it is.
 */
export function sharedGrammar(g: Grammar): Grammar {
  if (!keepsDerived(g)) return g
  const key = canonical(g)
  const seen = recent.get(key)
  if (seen !== undefined) {
    recent.delete(key)
    recent.set(key, seen)
    return seen
  }
  recent.set(key, g)
  if (recent.size > sharedGrammarLimit) recent.delete(recent.keys().next().value!)
  return g
}

/** How many grammars {@link sharedGrammar} holds now (for the bound's tests). */
export function sharedGrammarCount(): number {
  return recent.size
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      // Descriptions are documentation; editing one must not orphan checkpoints.
      .filter(([key, child]) => key !== 'description' && child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonical(child)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

function fnv1a64(text: string): string {
  let hash = offset
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * prime) & mask
  }
  return hash.toString(16).padStart(16, '0')
}
