/**
 * Several choices of a chat stream (`n > 1`) holding text, and a chunk
 * passed unread (toolsieve/fetch's, of a shape the adapter does not read):
 * it stands between what each open choice sent before it and what it sends
 * after it. It goes out once every one of them has given out the text it
 * held from before it (`a <｜DSML｜too`, a possible tag start), and what a
 * choice makes after it waits behind it until then, so no choice's pieces
 * are reordered around it; pieces of different choices are independent
 * otherwise. A choice that first comes after the chunk, and what a
 * finished choice still sends (its late content, raw, and logprobs), are
 * after it too. What waits so is bounded: past a few dozen pieces the chunk
 * goes out ahead of the text the others still hold, as one choice's
 * waiting items do (`maxMarks`).
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { Passed } from '../../src/adapters/index.js'
import { sieveChatStream } from '../../src/openai/index.js'
import { chat, held, multi, passedName, story } from './choices-helpers.js'
import { accumulate, counter } from './openai-helpers.js'

describe('sieveChatStream, several choices holding text: a chunk passed unread keeps its place in each', () => {
  it('should support a chunk passed unread between what each choice sent before and after it, whichever releases its held text first', async () => {
    const out = await chat([multi([0, held('a')], [1, held('b')]), new Passed('P'), multi([0, 'k A2']), multi([1, 'k B2']), multi([0, null, 'stop'], [1, null, 'stop'])])
    expect(story(out, 0, passedName)).toBe(`${held('a')}[P]k A2`)
    expect(story(out, 1, passedName)).toBe(`${held('b')}[P]k B2`)
    expect(out.filter((c) => c instanceof Passed)).toHaveLength(1)
  })

  it('should support what one choice makes after the chunk waiting behind it in order, nothing lost or sent twice, across several chunks passed unread', async () => {
    const out = await chat([
      multi([0, held('a')], [1, held('b')]),
      new Passed('P1'),
      multi([0, 'k x'], [1, ' y <｜DS']),
      new Passed('P2'),
      multi([0, ' z <']),
      multi([1, 'ML x']),
      multi([0, 'w'], [1, 'v']),
      multi([0, null, 'stop'], [1, null, 'stop']),
    ])
    // choice 1 still held `b <｜DSML｜too` when P1 came, and ` y <｜DS` when P2 came
    expect(story(out, 0, passedName)).toBe(`${held('a')}[P1]k x[P2] z <w`)
    expect(story(out, 1, passedName)).toBe(`${held('b')}[P1] y <｜DS[P2]ML xv`)
    expect(accumulate(out.filter((c) => !(c instanceof Passed)) as ChatCompletionChunk[], 0)).toMatchObject({ content: `${held('a')}k x z <w`, finish: 'stop' })
    expect(accumulate(out.filter((c) => !(c instanceof Passed)) as ChatCompletionChunk[], 1)).toMatchObject({ content: `${held('b')} y <｜DSML xv`, finish: 'stop' })
  })

  it('should support a choice that first appears after the chunk going out after it, behind the text another choice still held', async () => {
    const out = await chat([multi([0, held('a')]), new Passed('P'), multi([1, 'B first']), multi([0, 'k A2'], [1, ' B2']), multi([0, null, 'stop'], [1, null, 'stop'])])
    expect(story(out, 0, passedName)).toBe(`${held('a')}[P]k A2`)
    expect(story(out, 1, passedName)).toBe('[P]B first B2')
  })

  it('should support what a choice sends after its own finish (content, logprobs) going out after a chunk that came before it', async () => {
    const logprobs = { content: [], refusal: null }
    const late = { ...multi([1, null]), choices: [{ index: 1, delta: { content: ' after' }, finish_reason: null, logprobs }] }
    const out = await chat([multi([0, held('a')], [1, 'b', 'stop']), new Passed('P'), late, multi([0, 'k', 'stop'])])
    const at = (found: (item: unknown) => boolean) => out.findIndex(found)
    expect(story(out, 0, passedName)).toBe(`${held('a')}[P]k`)
    expect(story(out, 1, passedName)).toBe('b[P] after')
    expect(at((c) => (c as ChatCompletionChunk).choices?.some((ch) => ch.index === 1 && ch.logprobs === logprobs))).toBeGreaterThan(at((c) => c instanceof Passed))
  })

  it('should support a late choice behind every chunk still waiting, across two of them', async () => {
    const out = await chat([multi([0, held('a')]), new Passed('P1'), multi([0, ' x <｜DS']), new Passed('P2'), multi([1, 'B']), multi([0, 'ML y'], [1, 'C']), multi([0, null, 'stop'], [1, null, 'stop'])])
    expect(story(out, 0, passedName)).toBe(`${held('a')}[P1] x <｜DS[P2]ML y`)
    expect(story(out, 1, passedName)).toBe('[P1][P2]BC')
    expect(out.filter((c) => c instanceof Passed)).toHaveLength(2)
  })

  it('should not support one choice\'s stream waiting for another\'s held text without end: past a few dozen pieces the chunk goes ahead of it', async () => {
    const deltas = 200
    let read = 0
    let passedAt = -1
    async function* upstream(): AsyncGenerator<unknown> {
      yield multi([0, 'A'], [1, held('b')])
      yield new Passed('P')
      for (let i = 0; i < deltas; i++) {
        read++
        yield multi([0, 'x'])
      }
      read++
      yield multi([0, null, 'stop'], [1, 'k', 'stop'])
    }
    const out: unknown[] = []
    for await (const c of sieveChatStream(upstream() as AsyncIterable<ChatCompletionChunk>, { generateId: counter() })) {
      if (c instanceof Passed) passedAt = read
      out.push(c)
    }
    expect(passedAt).toBeGreaterThan(0)
    expect(passedAt).toBeLessThan(deltas / 2)
    expect(story(out, 0, passedName)).toBe(`A[P]${'x'.repeat(deltas)}`)
    expect(story(out, 1, passedName)).toBe(`b[P] <｜DSML｜took`)
  })
})
