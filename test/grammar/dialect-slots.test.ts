/**
 * The grammar's slots a dialect sets: where names come from
 * (`attributes.from`) and how values are read (`values`). A grammar without
 * them normalises as before, so its fingerprint (and its checkpoints) stay.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { extendGrammar, validateGrammar } from '../../src/grammar/load.js'
import { grammarFingerprint } from '../../src/grammar/fingerprint.js'
import { createSieve } from '../../src/index.js'
import { calls } from '../helpers/chunking.js'
import { caught } from '../helpers/grammar-error.js'

const expectGrammarError = (run: () => unknown, field: string): void => {
  expect(caught(run).field).toContain(field)
}

const qwenLike = extendGrammar(defaultGrammar, { wrapper: ['tool_call'], invoke: ['function'], attributes: { from: 'tagValue' }, values: { strings: 'raw', padding: '\n' } })

describe('dialect slots of the grammar', () => {
  it('should support names from the tag value and raw values with padding', () => {
    const s = createSieve({ grammar: qwenLike })
    const out = [...s.push('<tool_call>\n<function=f>\n<parameter=code>\n<b>&amp;</b>\n\n</parameter>\n<parameter=n>\n7\n</parameter>\n</function>\n</tool_call>'), ...s.end()]
    expect(calls(out)).toEqual([{ name: 'f', input: { code: '<b>&amp;</b>\n', n: 7 } }])
  })

  it('should support Python containers in raw values', () => {
    const g = extendGrammar(qwenLike, { values: { containers: 'python', padding: '' } })
    const s = createSieve({ grammar: g })
    const out = [...s.push(`<tool_call><function=f><parameter=o>{'k': 'v', 'ok': True, 'l': [1, None]}</parameter></function></tool_call>`), ...s.end()]
    expect(calls(out)).toEqual([{ name: 'f', input: { o: { k: 'v', ok: true, l: [1, null] } } }])
  })

  it('should not support a tag value as the name without the slot', () => {
    const s = createSieve({ grammar: extendGrammar(defaultGrammar, { wrapper: ['tool_call'], invoke: ['function'] }) })
    const out = [...s.push('<tool_call><function=f><parameter=k>v</parameter></function></tool_call>'), ...s.end()]
    expect(calls(out)).toEqual([])
  })

  it('should support the default grammar normalising as before (its fingerprint is unchanged)', () => {
    expect(grammarFingerprint(defaultGrammar)).toBe('da04a83b6045390b')
    expect('values' in validateGrammar(defaultGrammar)).toBe(false)
  })

  it('should not support bad slot values, naming the field', () => {
    expectGrammarError(() => extendGrammar(defaultGrammar, { attributes: { from: 'head' as never } }), 'attributes.from')
    expectGrammarError(() => extendGrammar(defaultGrammar, { values: { strings: 'json' as never } }), 'values.strings')
    expectGrammarError(() => extendGrammar(defaultGrammar, { values: { containers: 'yaml' as never } }), 'values.containers')
    expectGrammarError(() => extendGrammar(defaultGrammar, { values: { padding: 1 as never } }), 'values.padding')
    expectGrammarError(() => extendGrammar(defaultGrammar, { values: { other: 1 } as never }), 'values.other')
  })
})
