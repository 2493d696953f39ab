/**
 * A chunk with no choices (usage) keeps its place in a chat stream like
 * anything else passed through: after the text the sieve held from before
 * it and after what waited behind that text (a refusal), in every open
 * choice; after the finish, at once.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { chat, held, multi, story } from './choices-helpers.js'
import { chunk } from './openai-helpers.js'

const usageOnly = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } } as ChatCompletionChunk

describe('sieveChatStream: a usage-only chunk keeps its place', () => {
  const usageName = (item: unknown) => (item === usageOnly ? 'usage' : undefined)
  /** Each delta's string fields, `usage` for the usage chunk, in the order they went out. */
  const order = (out: readonly unknown[]): string[] => {
    const seen: string[] = []
    for (const c of out) {
      if (c === usageOnly) seen.push('usage')
      else for (const choice of (c as ChatCompletionChunk).choices) for (const [k, v] of Object.entries(choice.delta)) if (k !== 'role' && typeof v === 'string' && v !== '') seen.push(`${k}:${v}`)
    }
    return seen
  }

  it('should support a usage-only chunk after held text and a refusal: the held text, the refusal, then the usage, then the rest', async () => {
    const out = await chat([chunk({ role: 'assistant', content: held('hello') }), chunk({ refusal: 'no' }), usageOnly, chunk({ content: 'k' }), chunk({}, 'stop')])
    // the blank-line trimmer holds the space after `hello` until the text after it comes
    expect(order(out)).toEqual(['content:hello', 'content: <｜DSML｜too', 'refusal:no', 'usage', 'content:k'])
    expect(out.filter((c) => c === usageOnly)).toHaveLength(1)
  })

  it('should support a usage-only chunk while two choices hold text: after what each sent before it', async () => {
    const out = await chat([multi([0, held('a')], [1, held('b')]), usageOnly, multi([0, 'k A2']), multi([1, 'k B2']), multi([0, null, 'stop'], [1, null, 'stop'])])
    expect(story(out, 0, usageName)).toBe(`${held('a')}[usage]k A2`)
    expect(story(out, 1, usageName)).toBe(`${held('b')}[usage]k B2`)
  })

  it('should support a usage-only chunk after the finish going out as it came, at once', async () => {
    const out = await chat([chunk({ content: held('hello') }), chunk({}, 'stop'), usageOnly])
    expect(out.at(-1)).toBe(usageOnly)
  })
})
