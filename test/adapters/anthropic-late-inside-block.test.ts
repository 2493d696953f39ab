/**
 * A Messages stream whose upstream sends late text (a delta, or the stop,
 * of a text block the adapter already read) while a block it passes through
 * is open: between the `content_block_start` and `content_block_stop` of a
 * native `tool_use` or `thinking` block. The protocol has one content block
 * open at a time, and the SDK's `MessageStream` reads each delta and stop as
 * the last block's (`content.at(-1)`), so a text block of the adapter's
 * opened inside upstream's block would take its `inputJson`, `thinking` and
 * `contentBlock` events. The late text waits for that block's stop and then
 * goes out, in order, in a text block of its own: indexes stay 0, 1, 2… in
 * start order, nothing is lost or sent twice.
 */
import { describe, expect, it } from 'vitest'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { blocks, dsml, finalMessage, messageHead as head, messageTail as tail, overloaded as failure, textStart as start, textDelta as text, blockStop as stop, textOf, mostOpen, nativeToolUse as toolUse, sdkRead, sieved } from './anthropic-helpers.js'
import { collect, iterate } from './openai-helpers.js'

const LATE = ' more <｜DSML｜x'
const thinking = (index: number): MessagesStreamEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: 'pl' } },
  { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: 'an' } },
]
describe('sieveMessagesStream: late text while a block upstream sent is open', () => {
  it('should support late text inside a native tool_use block waiting for its stop: the SDK reads the call\'s input and each block as it stops', async () => {
    const out = await sieved([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1).slice(0, 2), text(0, LATE), ...toolUse(1).slice(2), stop(1), ...tail])
    const read = await sdkRead(out)
    expect(read.inputJson).toEqual(['{"path":', '"a.ts"}'])
    const call = { type: 'tool_use', id: 'toolu_native', name: 'read_file', input: { path: 'a.ts' } }
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, call, { type: 'text', text: LATE }])
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, call, { type: 'text', text: LATE }])
  })

  it('should support late deltas and the late stop in every position inside a native thinking block, going out after it in order', async () => {
    const run = [...head, start(0), text(0, 'Hi'), start(1), text(1, ' there')]
    const native = [...thinking(2), stop(2)]
    // each of the late events goes after native[i], native[j], native[k] (i ≤ j ≤ k < the stop's position): inside the block
    const inside = native.length - 1
    for (let i = 0; i < inside; i++) {
      for (let j = i; j < inside; j++) {
        for (let k = j; k < inside; k++) {
          const events = [...native]
          events.splice(k + 1, 0, stop(0))
          events.splice(j + 1, 0, text(1, '!'))
          events.splice(i + 1, 0, text(0, LATE))
          const out = await sieved([...head.slice(1), ...run, ...events, ...tail])
          expect(textOf(out), `${i} ${j} ${k}`).toBe(`Hi there${LATE}!`)
          const read = await sdkRead(out)
          expect(read.thinking).toEqual(['pl', 'an'])
          expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: ' there' }, { type: 'thinking', thinking: 'plan' }, { type: 'text', text: `${LATE}!` }])
        }
      }
    }
  })

  it('should not support a text block of ours opening inside an upstream block when prefer-native holds everything after a rescued call until the message ends', async () => {
    const call = dsml('read_file', { path: 'b.ts' })
    const out = await sieved([...head, start(0), text(0, `Hi ${call} after`), stop(0), ...thinking(1), text(0, LATE), stop(1), ...tail], { onConflict: 'prefer-native' })
    expect(blocks(await finalMessage(out))).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'tool_use', id: 'toolu_000000000000000000000000', name: 'read_file', input: { path: 'b.ts' } },
      { type: 'text', text: ' after' },
      { type: 'thinking', thinking: 'plan' },
      { type: 'text', text: LATE },
    ])
  })

  it('should not support late text after an error opening a text block inside the block upstream had open: it goes out after that block\'s stop', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), failure, text(0, LATE), stop(1)])))
    expect(mostOpen(out)).toBe(1)
    expect(textOf(out)).toBe(`Hi${LATE}`)
    expect(out.slice(out.indexOf(failure) + 1)).toEqual([stop(1), start(2), text(2, LATE)])
  })

  it('should support late text that waited for a block upstream never stopped still going out before the message ends', async () => {
    const out = await collect(sieveMessagesStream(iterate([...head, start(0), text(0, 'Hi'), stop(0), ...thinking(1), text(0, LATE), ...tail])))
    expect(textOf(out)).toBe(`Hi${LATE}`)
    const delta = out.findIndex((e) => e.type === 'message_delta')
    expect(out.slice(delta - 3, delta)).toEqual([start(2), text(2, LATE), stop(2)])
  })
})
