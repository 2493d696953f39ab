/**
 * A refusal of `formatToolCalls` names the call at fault by its index and
 * the value by its path in the caller's own call (`calls[2].input.k.j[0]`),
 * whichever call of the list it is and however the pack writes the call;
 * `buildToolPrompt`, whose caller gave no calls, names its `dialect`.
 */
import { describe, expect, it } from 'vitest'
import { buildToolPrompt, dialects, formatToolCalls } from '../../src/index.js'
import { refusal } from '../helpers/refusal.js'

const packs = [undefined, ...Object.keys(dialects)]
const fine = { name: 'get_weather', input: { city: 'Paris' } }
/** A value no writer can write, in any pack's value spelling: it holds itself. */
const cyclic: Record<string, unknown> = {}
cyclic.self = cyclic

describe('formatToolCalls naming the call at fault', () => {
  it('should not support a value that cannot be written in the third call: its path in that call\'s input, in every pack', () => {
    for (const dialect of packs) {
      const error = refusal(() => formatToolCalls([fine, fine, { name: 'lookup', input: { k: cyclic } }], { dialect }))
      expect(error, dialect).toMatchObject({ code: 'invalid-option', field: 'calls[2].input' })
      expect(error.message, dialect).toMatch(/^calls\[2\]\.input\.k/)
    }
  })

  it('should not support a call that is not an object in the second place: invalid-option naming it, in every pack', () => {
    for (const dialect of packs) {
      for (const bad of [null, 'ping', 7]) {
        expect(refusal(() => formatToolCalls([fine, bad as never], { dialect })), dialect).toMatchObject({ code: 'invalid-option', field: 'calls[1]' })
      }
    }
  })
})

describe('buildToolPrompt naming its dialect', () => {
  it('should not support a pack that cannot write the prompt\'s example: refused naming dialect, not a calls[0] the caller never gave', () => {
    // the example's query holds a double quote, which this pack's strings cannot
    const gemma = dialects['gemma4']!
    const pack = { ...gemma, name: 'plain-quote-gemma', values: { ...gemma.values, quote: '"' } }
    const error = refusal(() => buildToolPrompt(['read_file'], { dialect: pack }))
    expect(error).toMatchObject({ code: 'invalid-option', field: 'dialect' })
    expect(error.message).not.toContain('calls[0]')
    expect(error.message).toContain('plain-quote-gemma')
  })
})
