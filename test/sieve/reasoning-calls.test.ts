/**
 * `reasoningCalls: 'call'`: a tool-call block in the reasoning runs, read
 * with the reasoning's own Markdown state; by default it is reasoning text.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { expectChunkInvariant, outline } from '../helpers/chunking.js'
import { streamed } from '../helpers/streamed.js'

const O = '<｜DSML｜'
const C = '</｜DSML｜'
const search = (q: string) => `${O}tool_calls>\n${O}invoke name="search">\n${O}parameter name="q" string="true">${q}${C}parameter>\n${C}invoke>\n${C}tool_calls>`
const opts = { reasoningCalls: 'call' as const }

describe('tool calls in the reasoning', () => {
  it('should not support a block in the reasoning as a call by default', () => {
    const input = `<think>try ${search('x')}</think>done`
    expect(outline(expectChunkInvariant(input))).toEqual([{ tag: '<think>' }, { reasoning: `try ${search('x')}` }, { tag: '</think>' }, 'done'])
  })

  it('should support a block in the reasoning as a call with reasoningCalls: "call", the rest of the reasoning as reasoning', () => {
    const input = `<think>try ${search('x')} then answer</think>done ${search('y')}`
    expect(outline(expectChunkInvariant(input, opts))).toEqual([
      { tag: '<think>' }, { reasoning: 'try ' }, { call: 'search', input: { q: 'x' } }, { reasoning: ' then answer' }, { tag: '</think>' },
      'done ', { call: 'search', input: { q: 'y' } },
    ])
  })

  it('should support startInReasoning with calls in the reasoning', () => {
    const input = `plan ${search('x')}</think>ok`
    expect(outline(expectChunkInvariant(input, { ...opts, startInReasoning: true }))).toEqual([{ reasoning: 'plan ' }, { call: 'search', input: { q: 'x' } }, { tag: '</think>' }, 'ok'])
  })

  it('should not support a block inside code in the reasoning as a call', () => {
    const input = `<think>like this:\n\`\`\`\n${search('x')}\n\`\`\`\nor \`${search('z')}\`</think>done`
    const events = expectChunkInvariant(input, opts)
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([])
  })

  it('should support a fence left open in the reasoning ending with it: the answer\'s block is a call', () => {
    const input = `<think>\`\`\`\nunclosed ${search('x')}</think>${search('y')}`
    const events = expectChunkInvariant(input, opts)
    expect(events.filter((e) => e.type === 'tool-call').map((e) => (e as { input: unknown }).input)).toEqual([{ q: 'y' }])
  })

  it('should support a block the stream ends inside, in the reasoning, as reasoning with unterminated-block', () => {
    const input = `<think>try ${O}tool_calls>\n${O}invoke name="search">\n${O}parameter name="q" string="true">x`
    const events = expectChunkInvariant(input, opts)
    expect(outline(events)).toEqual([{ tag: '<think>' }, { reasoning: input.slice('<think>'.length) }, { diagnostic: 'unterminated-block' }])
  })

  it('should support streamed calls from the reasoning, indexes going on in the answer', () => {
    const input = `<think>${search('a')}</think>${search('b')}`
    const s = streamed(Array.from(input), opts)
    expect(s.starts.map((e) => [e.index, e.span.start])).toEqual([[0, 7], [1, input.indexOf('</think>') + 8]])
  })

  it('should support a checkpoint in the middle of a block in the reasoning', () => {
    const input = `<think>try ${search('resumed')}</think>done`
    const cut = input.indexOf('resumed') + 3
    const first = createSieve(opts)
    const events = first.push(input.slice(0, cut))
    const second = createSieve({ ...opts, resume: JSON.parse(JSON.stringify(first.checkpoint())) })
    events.push(...second.push(input.slice(cut)), ...second.end())
    expect(events.filter((e) => e.type === 'tool-call').map((e) => (e as { input: unknown }).input)).toEqual([{ q: 'resumed' }])
    expect(events.map((e) => (e.type === 'reasoning' ? e.text : '')).join('')).toBe('try ')
  })

  it('should not support a reasoningCalls value other than "text" or "call"', () => {
    expect(() => createSieve({ reasoningCalls: 'yes' as never })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'reasoningCalls' }))
  })
})
