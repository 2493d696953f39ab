/**
 * A short identity for a grammar, stored in checkpoints so that a checkpoint
 * is never resumed under a grammar that would lex its pending tail differently.
 */
import { derived } from './derived.js'
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
