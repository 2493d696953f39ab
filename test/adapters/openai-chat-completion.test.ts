/**
 * `sieveChatCompletion` (toolsieve/openai): a whole chat completion with the
 * calls its text held rescued into `message.tool_calls`.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { sieveChatCompletion } from '../../src/openai/index.js'
import { block, counter, invoke, param } from './openai-helpers.js'

const ls = block(invoke('ls', param('dir', 'src')))

function completion(message: Partial<ChatCompletion.Choice['message']> & { reasoning_content?: string }, finish: ChatCompletion.Choice['finish_reason'] = 'stop'): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek',
    choices: [{ index: 0, logprobs: null, finish_reason: finish, message: { role: 'assistant', content: null, refusal: null, ...message } }],
    usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  }
}

const sieve = (c: ChatCompletion, options: Parameters<typeof sieveChatCompletion>[1] = {}) => sieveChatCompletion(c, { generateId: counter(), ...options })

describe('sieveChatCompletion', () => {
  it('should support rescued calls in message.tool_calls, the content cleaned, finish tool_calls', () => {
    const out = sieve(completion({ content: `Let me look.\n\n${ls}` }))
    expect(out.choices[0]).toEqual({
      index: 0,
      logprobs: null,
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: 'Let me look.', refusal: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":"src"}' } }] },
    })
    expect(out.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })
  })

  it('should support content that was only calls becoming null, as a native call leaves it', () => {
    expect(sieve(completion({ content: ls })).choices[0]!.message.content).toBeNull()
  })

  it('should support reasoning as message.reasoning_content, after any upstream reasoning', () => {
    expect(sieve(completion({ content: '<think>plan</think>Hi' })).choices[0]!.message).toMatchObject({ content: 'Hi', reasoning_content: 'plan' })
    expect(sieve(completion({ content: 'more</think>Hi', reasoning_content: 'plan, ' }), { thinking: true }).choices[0]!.message).toMatchObject({ content: 'Hi', reasoning_content: 'plan, more' })
  })

  it('should not support changing a completion without markup, or an example in code', () => {
    const plain = completion({ content: `Use:\n\`\`\`\n${ls}\n\`\`\`` })
    expect(sieve(plain)).toEqual(plain)
  })

  it('should not support changing the input object', () => {
    const input = completion({ content: ls })
    const copy = structuredClone(input)
    sieve(input)
    expect(input).toEqual(copy)
  })

  it('should support native tool_calls kept, and a legacy function_call as a tool call', () => {
    const native = { id: 'n1', type: 'function' as const, function: { name: 'nat', arguments: '{}' } }
    expect(sieve(completion({ content: 'ok', tool_calls: [native] }, 'tool_calls')).choices[0]!.message.tool_calls).toEqual([native])
    const legacy = sieve(completion({ function_call: { name: 'old', arguments: '{"x":1}' } }, 'function_call')).choices[0]!
    expect(legacy.finish_reason).toBe('tool_calls')
    expect(legacy.message.function_call).toBeUndefined()
    expect(legacy.message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'old', arguments: '{"x":1}' } }])
  })

  it('should not support native and rescued calls in one choice: native-conflict, or prefer-native keeps the natives', () => {
    const native = { id: 'n1', type: 'function' as const, function: { name: 'nat', arguments: '{}' } }
    const both = completion({ content: `x ${ls}`, tool_calls: [native] }, 'tool_calls')
    expect(() => sieve(both)).toThrow(expect.objectContaining({ code: 'native-conflict' }))
    const preferred = sieve(both, { onConflict: 'prefer-native' }).choices[0]!
    expect(preferred.message).toMatchObject({ content: 'x', tool_calls: [native] })
  })

  it('should support every choice read apart', () => {
    const two = completion({ content: ls })
    two.choices.push({ index: 1, logprobs: null, finish_reason: 'stop', message: { role: 'assistant', content: 'plain', refusal: null } })
    const out = sieve(two)
    expect(out.choices.map((c) => [c.finish_reason, c.message.content, c.message.tool_calls?.length ?? 0])).toEqual([['tool_calls', null, 1], ['stop', 'plain', 0]])
  })

  it('should not support bad options', () => {
    expect(() => sieveChatCompletion(completion({ content: 'x' }), { trimBlankLines: 1 as never })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'trimBlankLines' }))
  })
})
