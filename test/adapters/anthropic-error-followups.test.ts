/**
 * What the adapter's blocks look like when upstream goes on after an
 * `error` event, or reuses a block index, read by the real SDK's
 * `MessageStream` (which accumulates deltas by index, but reports each
 * `text` delta with the last block's snapshot and each stop as the last
 * block's `contentBlock`). A block of the adapter's own stands for an
 * upstream block: it stays open while that block is open and never outlives
 * it into the next block or past the message's end, so no two blocks are
 * open at once unless upstream itself left two open (a thinking block the
 * error cut can take nothing more, and closes before the error); late text
 * goes into a block that is still the latest, or one of its own; an index
 * upstream starts a new block at names that block, not the text block read
 * there before. Nothing is lost or sent twice.
 */
import { describe, expect, it } from 'vitest'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { blocks, checkWire, messageHead as head, messageTail as tail, overloaded as failure, textStart as start, textDelta as text, blockStop as stop, textOf, mostOpen, nativeToolUse as toolUse, sdkRead } from './anthropic-helpers.js'
import { collect, iterate } from './openai-helpers.js'

const LATE = ' more <｜DSML｜x'
const thinking = (index: number): MessagesStreamEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: 'plan' } },
  { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'sig' } },
]
const DSML = '<｜DSML｜tool_calls><｜DSML｜invoke name="x"></｜DSML｜invoke></｜DSML｜tool_calls>'
const CALL = { type: 'tool_use', id: 'toolu_native', name: 'read_file', input: { path: 'a.ts' } }
const sieve = async (events: readonly MessagesStreamEvent[]) => collect(sieveMessagesStream(iterate(events)))
const after = (out: readonly MessagesStreamEvent[]) => out.slice(out.indexOf(failure) + 1)

describe('sieveMessagesStream: late text after an error, once upstream started another block', () => {
  it('should not let late text for the block the error cut merge into the text block upstream started after the error: it goes in a text block of its own, after that one', async () => {
    // upstream stopped its block 0 before the error: ours for it is over once upstream starts block 1
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), failure, start(1), text(1, 'Next'), stop(1), text(0, LATE)])
    expect(mostOpen(out)).toBe(1)
    expect(textOf(out)).toBe(`HiNext${LATE}`)
    const read = await sdkRead(out, true)
    // the snapshot the SDK reports with each delta is the text of the block that delta went into
    expect(read.text).toEqual([['Hi', 'Hi'], ['Next', 'Next'], [LATE, LATE]])
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: 'Next' }])
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: 'Next' }, { type: 'text', text: LATE }])
  })

  it('should support late text for an earlier run\'s block going on in the text block an error cut in the next run, as before an error', async () => {
    // no block starts between: the text block open now is the latest, and the text keeps its place after what went out
    const run = [...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), stop(1), start(2), text(2, 'Next')]
    const out = await sieve([...run, failure, text(0, LATE), stop(2)])
    expect(mostOpen(out)).toBe(1)
    const read = await sdkRead(out, true)
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, CALL, { type: 'text', text: `Next${LATE}` }])
    expect(read.text.at(-1)).toEqual([LATE, `Next${LATE}`])
    // the same place it takes before an error
    const before = await sieve([...run, text(0, LATE), stop(2), ...tail])
    expect(blocks((await sdkRead(before)).message)).toEqual(blocks(read.message))
  })
})

describe('sieveMessagesStream: an index upstream reuses for a new block', () => {
  it('should not read a native tool_use block started at the index of a text block read as late text: the SDK gets its input and its stop', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(0), stop(0), ...tail])
    expect(mostOpen(out)).toBe(1)
    const read = await sdkRead(out, true)
    expect(read.inputJson).toEqual(['{"path":', '"a.ts"}'])
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, CALL])
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, CALL])
    expect(read.message.stop_reason).toBe('end_turn')
  })

  it('should not read a thinking block at a reused index as late text, and should read a text block at the index after it as text again', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...thinking(0), stop(0), start(0), text(0, `Bye ${DSML}`), stop(0), ...tail])
    expect(mostOpen(out)).toBe(1)
    const read = await sdkRead(out, true)
    // read through the sieve: its markup is a call, not text
    expect(blocks(read.message)).toMatchObject([{ type: 'text', text: 'Hi' }, { type: 'thinking', thinking: 'plan' }, { type: 'text', text: 'Bye' }, { type: 'tool_use', name: 'x', input: {} }])
    expect(read.message.stop_reason).toBe('tool_use')
    expect((read.message.content[1] as { signature: string }).signature).toBe('sig')
  })

  it('should not read a block upstream starts after an error at the index of the text block the error cut as late text: ours closes before it, and the SDK gets its input', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), failure, ...toolUse(0), stop(0)])
    expect(mostOpen(out)).toBe(1)
    expect(after(out)).toEqual([stop(0), ...toolUse(0).map((e) => ({ ...e, index: 1 })), stop(1)])
    const read = await sdkRead(out, true)
    expect(read.inputJson).toEqual(['{"path":', '"a.ts"}'])
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, CALL])
  })

  it('should not send late text after an error for a text block read at a reused index into the native block upstream had there before', async () => {
    const out = await sieve([...head, ...toolUse(0), stop(0), start(0), text(0, 'Bye'), failure, text(0, LATE), stop(0)])
    expect(mostOpen(out)).toBe(1)
    expect(after(out)).toEqual([text(1, LATE), stop(1)])
    const read = await sdkRead(out, true)
    expect(blocks(read.message)).toEqual([CALL, { type: 'text', text: `Bye${LATE}` }])
    expect(read.stopped).toEqual([CALL, { type: 'text', text: `Bye${LATE}` }])
  })
})

describe('sieveMessagesStream: blocks upstream starts after an error', () => {
  it('should close the text block the error cut before a block upstream starts, when upstream had stopped its own: one block open at a time', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), failure, ...toolUse(1), stop(1)])
    expect(mostOpen(out)).toBe(1)
    expect(after(out)).toEqual([stop(0), ...toolUse(1), stop(1)])
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, CALL])
    expect(read.inputJson).toEqual(['{"path":', '"a.ts"}'])
  })

  it('should close a text block started after the error for late text before the next block upstream starts', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), stop(1), failure, text(0, LATE), start(2), text(2, 'Next'), stop(2)])
    expect(mostOpen(out)).toBe(1)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, CALL, { type: 'text', text: LATE }, { type: 'text', text: 'Next' }])
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, CALL, { type: 'text', text: LATE }, { type: 'text', text: 'Next' }])
  })

  it('should not close the text block the error cut while upstream\'s own block for it is open: two open blocks are upstream\'s, and the SDK reads what it would read from upstream', async () => {
    const events = [...head, start(0), text(0, 'Hi'), failure, start(1), text(1, 'Next'), stop(1), text(0, LATE), stop(0), ...tail]
    const out = await sieve(events)
    expect(after(out)).toEqual(events.slice(events.indexOf(failure) + 1))
    expect(blocks((await sdkRead(out, true)).message)).toEqual(blocks((await sdkRead(events)).message))
  })
})

describe('sieveMessagesStream: a thinking block made from <think> when the error comes', () => {
  const THINKING = { type: 'thinking', thinking: 'plan' }

  it.each([
    ['upstream stopped its block before the error', [stop(0)]],
    ['upstream has its block open', []],
  ])('should close the thinking block before a block upstream starts after the error (%s): one block open at a time, and the SDK reports it finished', async (_, stopped) => {
    const out = await sieve([...head, start(0), text(0, '<think>plan'), ...stopped, failure, ...toolUse(1), stop(1), ...tail])
    checkWire(out)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([THINKING, CALL])
    expect(blocks(read.message)).toEqual([THINKING, CALL])
  })

  it('should close the thinking block with the reasoning the sieve held in it', async () => {
    const out = await sieve([...head, start(0), text(0, '<think>a </thi'), failure, ...toolUse(1), stop(1), ...tail])
    checkWire(out)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'thinking', thinking: 'a </thi' }, CALL])
  })

  it.each([
    ['upstream stopped its block before the error', [stop(0)]],
    ['upstream has its block open', []],
  ])('should close the thinking block before a text block of its own for late text (%s)', async (_, stopped) => {
    const out = await sieve([...head, start(0), text(0, '<think>plan'), ...stopped, failure, text(0, ' more'), stop(0), ...tail])
    checkWire(out)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([THINKING, { type: 'text', text: ' more' }])
    expect(read.text).toEqual([[' more', ' more']])
  })
})

describe('sieveMessagesStream: blocks of the adapter\'s own open at the end of a message that had an error', () => {
  it('should close the text block the error cut at message_delta when upstream had stopped its own block before the error', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), failure, text(0, ' more'), ...tail])
    checkWire(out)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi more' }])
    expect(out.slice(-3)).toEqual([stop(0), ...tail])
  })

  it('should close a text block started for late text after the error at message_delta', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), stop(1), failure, start(2), text(2, 'N'), stop(2), text(0, ' L'), ...tail])
    checkWire(out)
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, CALL, { type: 'text', text: 'N' }, { type: 'text', text: ' L' }])
    expect(blocks(read.message)).toEqual([{ type: 'text', text: 'Hi' }, CALL, { type: 'text', text: 'N' }, { type: 'text', text: ' L' }])
  })

  it('should close it at message_stop when no message_delta came', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), failure, text(0, ' more'), tail[1]!])
    expect(after(out)).toEqual([text(0, ' more'), stop(0), tail[1]])
  })

  it('should not support a stop of its own after the last event of a stream that ends without the message\'s end: the message stays cut', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), failure, text(0, ' more')])
    expect(after(out)).toEqual([text(0, ' more')])
  })
})
