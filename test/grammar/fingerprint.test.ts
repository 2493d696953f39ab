import { describe, expect, it } from 'vitest'
import { GrammarError } from '../../src/errors.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { grammarFingerprint } from '../../src/grammar/fingerprint.js'
import { extendGrammar } from '../../src/grammar/load.js'
import type { Grammar } from '../../src/grammar/types.js'

/** A deep copy with every object's keys in reverse order. */
function reversed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversed) as T
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) as T
}

describe('grammarFingerprint', () => {
  it('should support a short hex digest that is stable across calls', () => {
    const fp = grammarFingerprint(defaultGrammar)
    expect(fp).toMatch(/^[0-9a-f]{16}$/)
    expect(grammarFingerprint(defaultGrammar)).toBe(fp)
  })

  it('should support key order, omitted defaults and descriptions not mattering', () => {
    const fp = grammarFingerprint(defaultGrammar)
    expect(grammarFingerprint(reversed(defaultGrammar))).toBe(fp)
    const sparse: Grammar = { name: defaultGrammar.name, roles: defaultGrammar.roles, frames: defaultGrammar.frames, rawTextParameters: defaultGrammar.rawTextParameters }
    expect(grammarFingerprint(sparse)).toBe(fp)
    const redescribed = { ...defaultGrammar, frames: defaultGrammar.frames.map((f) => ({ ...f, description: 'other' })) }
    expect(grammarFingerprint(redescribed)).toBe(fp)
  })

  it('should not support different grammars sharing a fingerprint', () => {
    const fp = grammarFingerprint(defaultGrammar)
    const variants: Grammar[] = [
      extendGrammar(defaultGrammar, { wrapper: ['tool_use'] }),
      extendGrammar(defaultGrammar, { name: 'other' }),
      extendGrammar(defaultGrammar, { caseInsensitive: false }),
      extendGrammar(defaultGrammar, { limits: { captureLimit: 1024 } }),
      { ...defaultGrammar, roles: { ...defaultGrammar.roles, wrapper: [...defaultGrammar.roles.wrapper].reverse() } },
    ]
    const fps = variants.map(grammarFingerprint)
    expect(new Set([fp, ...fps]).size).toBe(variants.length + 1)
  })

  it('should not support an invalid grammar', () => {
    expect(() => grammarFingerprint({ ...defaultGrammar, frames: [] })).toThrow(GrammarError)
  })
})
