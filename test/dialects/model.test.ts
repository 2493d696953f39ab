/**
 * `dialectForModel`: the model ids requests send, with or without their
 * org, in providers' spellings and with their suffixes, map to the pack the
 * model writes and to whether its template opens the reasoning.
 */
import { describe, expect, it } from 'vitest'
import { dialectForModel } from '../../src/index.js'
import { fixtureIds, issueIds, providerIds, unknownIds, type Expected } from './model-ids.js'

function expectModel([id, dialect, startInReasoning]: Expected): void {
  expect(dialectForModel(id), id).toEqual({ dialect, startInReasoning })
}

describe('dialectForModel', () => {
  it.each(issueIds)('should support the ids the issue names: %s', (...row) => expectModel(row))

  it.each(fixtureIds)('should support the model of each rendered fixture family: %s', (...row) => expectModel(row))

  it.each(providerIds)('should support providers\' ids: %s', (...row) => expectModel(row))

  it.each(unknownIds)('should not support a model no pack covers: %s', (id) => {
    expect(dialectForModel(id)).toBeUndefined()
  })

  it('should support Qwen2.5-Coder as Hermes, not as Qwen3-Coder', () => {
    expect(dialectForModel('qwen2.5-coder')).toEqual({ dialect: 'hermes', startInReasoning: false })
    expect(dialectForModel('Qwen/Qwen2.5-Coder-32B-Instruct')).toEqual({ dialect: 'hermes', startInReasoning: false })
  })

  it('should support any case, blanks around the id, and trailing slashes', () => {
    const want = { dialect: 'qwen3-coder', startInReasoning: false }
    for (const id of ['QWEN/QWEN3-CODER-480B-A35B-INSTRUCT', 'qWeN3-CoDeR-pLuS', '  qwen3-coder-plus\n', 'Qwen/Qwen3-Coder-480B-A35B-Instruct/']) {
      expect(dialectForModel(id), JSON.stringify(id)).toEqual(want)
    }
  })

  it('should support quantisation, format and date suffixes', () => {
    for (const suffix of ['-FP8', '-AWQ', '-GPTQ-Int4', '-GGUF', '-MLX-4bit', '-bnb-4bit', ':latest', ':free', ':Q4_K_M', '-2507', '-20250925']) {
      expect(dialectForModel(`zai-org/GLM-4.6${suffix}`), suffix).toEqual({ dialect: 'glm', startInReasoning: false })
    }
  })

  it('should support any org or path before the name', () => {
    const want = { dialect: 'kimi-k2', startInReasoning: false }
    for (const id of ['moonshotai/Kimi-K2-Instruct', 'unsloth/Kimi-K2-Instruct-GGUF', 'accounts/fireworks/models/kimi-k2-instruct', '@cf/moonshotai/kimi-k2-instruct', 'hf.co/moonshotai/Kimi-K2-Instruct', 'Kimi-K2-Instruct']) {
      expect(dialectForModel(id), id).toEqual(want)
    }
  })

  it('should support the reasoning start per mode where the id names the mode', () => {
    expect(dialectForModel('deepseek-chat')?.startInReasoning).toBe(false)
    expect(dialectForModel('deepseek-reasoner')?.startInReasoning).toBe(true)
    expect(dialectForModel('Qwen/Qwen3-30B-A3B-Instruct-2507')?.startInReasoning).toBe(false)
    expect(dialectForModel('Qwen/Qwen3-30B-A3B-Thinking-2507')?.startInReasoning).toBe(true)
    expect(dialectForModel('allenai/Olmo-3-7B-Instruct')?.startInReasoning).toBe(false)
    expect(dialectForModel('allenai/Olmo-3-7B-Think')?.startInReasoning).toBe(true)
  })

  it('should support the most specific family where names nest', () => {
    expect(dialectForModel('Qwen/Qwen3-Coder-480B-A35B-Instruct')?.dialect).toBe('qwen3-coder')
    expect(dialectForModel('Qwen/Qwen3-235B-A22B')?.dialect).toBe('hermes')
    expect(dialectForModel('deepseek-ai/DeepSeek-V3.2')?.dialect).toBe('deepseek')
    expect(dialectForModel('deepseek-ai/DeepSeek-V3')?.dialect).toBe('deepseek-v3')
    expect(dialectForModel('deepseek-ai/DeepSeek-R1-Distill-Qwen-32B')?.dialect).toBe('deepseek-v3')
    expect(dialectForModel('deepseek-ai/DeepSeek-R1-Distill-Llama-70B')?.dialect).toBe('deepseek-v3')
    expect(dialectForModel('NousResearch/Hermes-3-Llama-3.1-8B')?.dialect).toBe('hermes')
    expect(dialectForModel('Salesforce/Llama-xLAM-2-8b-fc-r')?.dialect).toBe('xlam')
    expect(dialectForModel('kimi-k2.5')?.startInReasoning).toBe(true)
    expect(dialectForModel('kimi-k2')?.startInReasoning).toBe(false)
  })

  it('should not support what is not a model id', () => {
    for (const id of ['', '   ', '/', ':latest', 'x'.repeat(257), `qwen3-coder-${'x'.repeat(300)}`]) {
      expect(dialectForModel(id), JSON.stringify(id.slice(0, 20))).toBeUndefined()
    }
    for (const value of [undefined, null, 42, {}, ['qwen3-coder']]) {
      expect(dialectForModel(value as unknown as string)).toBeUndefined()
    }
  })

  it('should not support a family name inside another word', () => {
    for (const id of ['openhermes-2.5-foo', 'superqwen3-coder', 'notgpt-oss', 'deepseek-r1t2-chimera', 'xglm-4.6']) {
      expect(dialectForModel(id), id).toBeUndefined()
    }
  })

  it('should support each call as its own answer (no shared state)', () => {
    const a = dialectForModel('MiniMax-M2')
    if (a !== undefined) a.startInReasoning = false
    expect(dialectForModel('MiniMax-M2')).toEqual({ dialect: 'minimax-m2', startInReasoning: true })
  })
})
