/**
 * Reasoning (DeepSeek's thinking mode): `<think>` at the start of the
 * stream, or the stream's start with `startInReasoning`, up to the first
 * `</think>`, comes out as `reasoning` events between `reasoning-start` and
 * `reasoning-end`; it is never lexed, so nothing in it reaches the answer.
 * Conservation: text + reasoning + its tags + the raw of calls = input.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar, extendGrammar, parseToolCalls } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, outline, textOf } from '../helpers/chunking.js'
import { checkConservation, run } from '../properties/check.js'
import { chunkBy, chunkSizes, document } from '../properties/generator.js'

const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const read = { call: 'read_file', input: { path: 'a.ts' } }

describe('reasoning', () => {
  it('should support <think> at the start: reasoning, then the answer', () => {
    const events = expectChunkInvariant('<think>Let me look.</think>Reading it.\n\n' + block)
    expect(outline(events)).toEqual([{ tag: '<think>' }, { reasoning: 'Let me look.' }, { tag: '</think>' }, 'Reading it.\n\n', read])
  })

  it('should support whitespace before <think> (text) and spans in the whole stream', () => {
    const input = '\n  <think>x</think>\n\n' + block
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['\n  ', { tag: '<think>' }, { reasoning: 'x' }, { tag: '</think>' }, '\n\n', read])
    const call = events.find((e) => e.type === 'tool-call')!
    expect(call.type === 'tool-call' && input.slice(call.span.start, call.span.end)).toBe(block)
  })

  it('should support a fence left open in the reasoning: it does not reach the answer', () => {
    const events = expectChunkInvariant('<think>Maybe:\n```python\nprint(1)\n</think>\n\n' + block)
    expect(calls(events)).toEqual([{ name: 'read_file', input: { path: 'a.ts' } }])
  })

  it('should not support a block inside the reasoning as a call (it is reasoning)', () => {
    const events = expectChunkInvariant('<think>I could ' + block + '</think>Done.')
    expect(calls(events)).toEqual([])
    expect(outline(events)).toEqual([{ tag: '<think>' }, { reasoning: 'I could ' + block }, { tag: '</think>' }, 'Done.'])
  })

  it('should support startInReasoning for prompts that end in <think> (DeepSeek thinking mode)', () => {
    const events = expectChunkInvariant('The user wants a.ts.</think>\n\n' + block, { startInReasoning: true })
    expect(outline(events)).toEqual([{ reasoning: 'The user wants a.ts.' }, { tag: '</think>' }, '\n\n', read])
  })

  it('should support the stream ending inside the reasoning (all of it reasoning, no diagnostic)', () => {
    const events = expectChunkInvariant('<think>still thinking </thi')
    expect(outline(events)).toEqual([{ tag: '<think>' }, { reasoning: 'still thinking </thi' }])
    expect(codes(events)).toEqual([])
  })

  it('should not support <think> after other text, or a second one (text)', () => {
    for (const input of ['Hi <think>x</think>', '<think>a</think>b <think>c</think>']) {
      const events = expectChunkInvariant(input)
      expect(textOf(events)).toBe(input.startsWith('Hi') ? input : 'b <think>c</think>')
    }
  })

  it('should not support reasoning when turned off (the tags are text)', () => {
    const input = '<think>x</think>' + block
    const events = expectChunkInvariant(input, { reasoning: false })
    expect(outline(events)).toEqual(['<think>x</think>', read])
  })

  it('should support parseToolCalls giving the reasoning apart from the text', () => {
    const result = parseToolCalls('<think>why</think>ok ' + block)
    expect([result.reasoning, result.text, result.calls.length]).toEqual(['why', 'ok ', 1])
  })

  it('should support a checkpoint taken inside the reasoning', () => {
    const first = createSieve({ startInReasoning: true })
    const before = first.push('thinking </th')
    const second = createSieve({ resume: JSON.parse(JSON.stringify(first.checkpoint())) })
    const after = [...second.push('ink>answer'), ...second.end()]
    expect([...before, ...after].map((e) => (e.type === 'text' || e.type === 'reasoning' ? `${e.type}:${e.text}` : e.type))).toEqual(['reasoning:thinking ', 'reasoning-end', 'text:answer'])
  })

  it('should not support a reasoning option that is not a boolean', () => {
    expect(() => createSieve({ reasoning: 'yes' as unknown as boolean })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'reasoning' }))
    expect(() => createSieve({ startInReasoning: 1 as unknown as boolean })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'startInReasoning' }))
  })

  it('should support conservation and chunk invariance with random reasoning before random documents', () => {
    fc.assert(
      fc.property(fc.constantFrom('', ' ', '\n'), document(), document(), fc.boolean(), chunkSizes, (lead, thought, answer, open, sizes) => {
        const input = lead + (open ? '<think>' : '') + thought.replaceAll('</think>', '') + '</think>' + answer
        const opts = { startInReasoning: !open }
        const whole = run([input], opts)
        checkConservation(input, whole)
        expect(run(chunkBy(input, sizes), opts)).toEqual(whole)
      }),
      { seed: 151, numRuns: 200 },
    )
  })
})

describe('reasoning tags in the grammar', () => {
  it('should support other tags from the grammar config', () => {
    const grammar = extendGrammar(defaultGrammar, { reasoning: { open: ['<thinking>'], close: ['</thinking>'] } })
    const events = expectChunkInvariant('<thinking>hmm</thinking>ok', { grammar })
    expect(outline(events)).toEqual([{ tag: '<thinking>' }, { reasoning: 'hmm' }, { tag: '</thinking>' }, 'ok'])
  })

  it('should not support an empty list of reasoning tags (invalid-grammar naming the field)', () => {
    expect(() => extendGrammar(defaultGrammar, { reasoning: { close: [] } })).toThrow(expect.objectContaining({ code: 'invalid-grammar', field: 'reasoning.close' }))
  })
})

describe('reasoning bounds', () => {
  it('should not support <think> after more leading whitespace than the bound, in any chunking', () => {
    const input = ' '.repeat(4097) + '<think>r</think>a'
    expect(textOf(expectChunkInvariant(input))).toBe(input)
  })
})
