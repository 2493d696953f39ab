/**
 * A Messages stream whose upstream sends text for a text block the adapter
 * read after that block's turn: a `content_block_delta` (or its stop) for an
 * earlier block of a run of text blocks, arriving once a later block
 * started, once the run ended, or after an `error` event. Upstream's index
 * names no block of the adapter's (or another one: the thinking block made
 * from the first block's `<think>`), so the text goes into a text block of
 * the adapter's own: the run's text block open now, after the text the
 * sieve held when it came (as a `citations_delta` does), or one started for
 * it. It is never read through the sieve, since it is not where the text
 * it reads stands: it goes out as it came, never as a call. The earlier
 * block's stop closes nothing: the adapter closed its block for it when
 * the next one started. No character is lost or sent twice, and every
 * delta and stop names a block of the adapter's that is open.
 */
import { describe, expect, it } from 'vitest'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { blocks, checkWire, finalMessage, messageHead as head, messageTail as tail, overloaded as failure, textStart as start, textDelta as text, blockStop as stop, textOf, nativeCall, sieved } from './anthropic-helpers.js'
import { collect, iterate } from './openai-helpers.js'

const HELD = 'hello <｜DSML｜too'
const LATE = ' more <｜DSML｜x'

/** Deltas naming a block of another kind than theirs, and stops naming no block started. */
function misplaced(out: readonly MessagesStreamEvent[]): MessagesStreamEvent[] {
  const kinds = new Map<number, string>()
  const bad: MessagesStreamEvent[] = []
  for (const e of out) {
    if (e.type === 'content_block_start') kinds.set(e.index, e.content_block.type)
    else if (e.type === 'content_block_delta' && e.delta.type === 'text_delta' && kinds.get(e.index) !== 'text') bad.push(e)
    else if (e.type === 'content_block_stop' && !kinds.has(e.index)) bad.push(e)
  }
  return bad
}

describe('sieveMessagesStream: text for an earlier block of a run of text blocks', () => {
  it('should support a late delta going into the run\'s open text block after the text the sieve held when it came, not the thinking block upstream\'s index names', async () => {
    const out = await sieved([...head, start(0), text(0, '<think>plan</think>Hi'), start(1), text(1, HELD), text(0, LATE), stop(0), text(1, 'k'), stop(1), ...tail])
    expect(misplaced(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi${HELD}${LATE}k`)
    expect(blocks(await finalMessage(out))).toEqual([
      { type: 'thinking', thinking: 'plan' },
      { type: 'text', text: 'Hi' },
      { type: 'text', text: `${HELD}${LATE}k` },
    ])
  })

  it('should not support a late delta being read as the run\'s text: markup in it stays text, no call is made of it', async () => {
    const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    const out = await sieved([...head, start(0), text(0, 'Hi'), start(1), text(1, 'There.'), text(0, call), stop(1), ...tail])
    expect(out.filter((e) => e.type === 'content_block_start').map((e) => e.content_block.type)).toEqual(['text', 'text'])
    expect(textOf(out)).toBe(`HiThere.${call}`)
  })

  it('should not support an earlier block\'s stop coming after the next block started closing a block twice', async () => {
    const out = await sieved([...head, start(0), text(0, 'Hi'), start(1), stop(0), text(1, ' there'), stop(1), ...tail])
    expect(blocks(await finalMessage(out))).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: ' there' }])
  })

  it('should support a late delta after the run ended (a native call came): a text block of its own, closed with the message', async () => {
    const call = nativeCall('read_file', { path: 'a.ts' })
    const out = await sieved([
      ...head,
      start(0),
      text(0, 'Hi'),
      stop(0),
      { type: 'content_block_start', index: 1, content_block: { ...call, input: {} } as never },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"a.ts"}' } },
      stop(1),
      text(0, LATE),
      stop(0),
      ...tail,
    ])
    expect(misplaced(out)).toEqual([])
    expect(blocks(await finalMessage(out))).toEqual([{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 'toolu_native', name: 'read_file', input: { path: 'a.ts' } }, { type: 'text', text: LATE }])
  })

  it('should support late deltas for two blocks of the run an error cut going on in the text block it cut, closed by the stop of the block it read', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head, start(0), text(0, '<think>plan</think>Hi'), start(1), text(1, HELD), failure, text(0, LATE), text(1, ' end'), stop(0), stop(1)])))
    expect(misplaced(out)).toEqual([])
    expect(textOf(out)).toBe(`Hi${HELD}${LATE} end`)
    expect(out.slice(out.indexOf(failure) + 1)).toEqual([text(2, LATE), text(2, ' end'), stop(2)])
  })

  it('should support the wire staying whole for a late delta and stop in every position of a two-block run', async () => {
    const base = [start(0), text(0, 'Hi.'), start(1), text(1, HELD), text(1, 'k'), stop(1)]
    for (let at = 3; at <= base.length; at++) {
      const events = [...head, ...base.slice(0, at), text(0, LATE), stop(0), ...base.slice(at), ...tail]
      const out = await sieved(events)
      checkWire(out)
      expect(textOf(out)).toBe(at === 3 ? `Hi.${LATE}${HELD}k` : at === 4 ? `Hi.${HELD}${LATE}k` : `Hi.${HELD}k${LATE}`)
    }
  })
})
