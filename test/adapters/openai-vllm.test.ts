/**
 * The recorded vLLM streams of DeepSeek V4 (test/fixtures/openai-vllm/,
 * provenance in its README) through sieveChatStream: content, reasoning and
 * tool calls as their `expected_output` says, as recorded and one code point
 * per chunk.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveChatStream } from '../../src/openai/index.js'
import { accumulate, collect, counter, iterate } from './openai-helpers.js'

interface Recording {
  request_id: string
  expected_output: {
    normal_content: string
    reasoning_content: string
    tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[]
  }
  input_stream: { data: ChatCompletionChunk }[]
}

const dir = new URL('../fixtures/openai-vllm/', import.meta.url)
const recordings = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Recording] as const)

/** The recorded chunks with vLLM's own `reasoning_content` taken out: the sieve reads `delta.content` only. */
function contentOnly(r: Recording): ChatCompletionChunk[] {
  return r.input_stream.map(({ data }) => ({
    ...data,
    choices: data.choices.map((c) => {
      const { reasoning_content: _r, ...delta } = c.delta as ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }
      return { ...c, delta }
    }),
  }))
}

/** The same chunks with every content cut into single code points, one chunk each. */
function codePoints(chunks: ChatCompletionChunk[]): ChatCompletionChunk[] {
  return chunks.flatMap((c) => {
    const content = c.choices[0]?.delta.content
    if (typeof content !== 'string' || content.length <= 1) return [c]
    return Array.from(content, (p, i) => ({ ...c, choices: [{ ...c.choices[0]!, delta: i === 0 ? { ...c.choices[0]!.delta, content: p } : { content: p }, finish_reason: null }] }))
  })
}

describe('recorded vLLM streams of DeepSeek V4 through sieveChatStream', () => {
  it('should have the seven recordings', () => {
    expect(recordings.map(([f]) => f).sort()).toHaveLength(7)
  })

  for (const [file, recording] of recordings) {
    it(`should support ${file}: content, reasoning_content and tool_calls as expected_output`, async () => {
      const expected = recording.expected_output
      for (const chunks of [contentOnly(recording), codePoints(contentOnly(recording))]) {
        const got = accumulate(await collect(sieveChatStream(iterate(chunks), { generateId: counter() })))
        expect(got.content.trim()).toBe(expected.normal_content)
        expect(got.reasoning).toBe(expected.reasoning_content)
        expect(got.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.parse(c.arguments) as unknown } }))).toEqual(
          expected.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: JSON.parse(c.function.arguments) as unknown } })),
        )
        expect(got.finish).toBe(expected.tool_calls.length > 0 ? 'tool_calls' : 'stop')
      }
    })
  }
})
