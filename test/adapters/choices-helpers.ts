/** Shared by the specs of several choices (`n > 1`) in one chat stream: chunks of several choices, and each choice's story. */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { Passed } from '../../src/adapters/index.js'
import { sieveChatStream } from '../../src/openai/index.js'
import { chunk, collect, counter, iterate } from './openai-helpers.js'

/** Text a sieve holds at the end of its push: `<｜DSML｜too` may start a tag. */
export const held = (who: string) => `${who} <｜DSML｜too`

/** A chunk of several choices: `[index, content, finish?]` each. */
export function multi(...choices: Array<[number, string | null, ChatCompletionChunk.Choice['finish_reason']?]>): ChatCompletionChunk {
  return { ...chunk({}), choices: choices.map(([index, content, finish]) => ({ index, delta: content === null ? {} : { content }, finish_reason: finish ?? null })) }
}

/** One choice's content and the items passed through, in the order they went out (`[name]` for an item `name` names). */
export function story(out: readonly unknown[], index: number, name: (item: unknown) => string | undefined): string {
  let s = ''
  for (const item of out) {
    const named = name(item)
    if (named !== undefined) {
      s += `[${named}]`
      continue
    }
    for (const c of (item as ChatCompletionChunk).choices) if (c.index === index && typeof c.delta.content === 'string') s += c.delta.content
  }
  return s
}

/** A chunk passed unread by its value. */
export const passedName = (item: unknown) => (item instanceof Passed ? item.value : undefined)

/** The chat stream's output for `items` (chunks, and chunks passed unread). */
export const chat = (items: unknown[]) => collect(sieveChatStream(iterate(items as ChatCompletionChunk[]), { generateId: counter() })) as Promise<unknown[]>
