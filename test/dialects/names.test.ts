import { describe, expect, it } from 'vitest'
import { dialects, dialectForModel } from '../../src/index.js'
import { dialectNames, modelRules } from '../../src/dialects/model.js'

describe('dialect names', () => {
  it('should support the same names in dialectForModel and the shipped packs', () => {
    expect([...dialectNames].sort()).toEqual(Object.keys(dialects).sort())
  })

  it('should support a shipped pack for every dialect dialectForModel answers', () => {
    for (const rule of modelRules) if (rule.dialect !== null) expect(Object.hasOwn(dialects, rule.dialect), rule.note).toBe(true)
    expect(dialects[dialectForModel('Qwen/Qwen3-Coder-480B-A35B-Instruct')!.dialect]).toBeDefined()
  })
})
