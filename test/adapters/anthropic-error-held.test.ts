/**
 * What an upstream `error` event (or a source that breaks off) does to what
 * the Messages adapter has half sent or still holds, read by the real SDK:
 * through its SSE reader ({@link sdkReadSse}), which fails the stream at the
 * error and reads nothing after it, and through {@link sdkRead}, which reads
 * on past it as a raw consumer of the events would.
 *
 * - A rescued call `prefer-native` holds is no call once the message failed:
 *   its markup goes out as text where it stood, before the error, in the
 *   text block the error cut. Nothing is lost, nothing runs.
 * - A rescued call whose input was streaming (`streamArguments`) keeps its
 *   `tool_use` block open for good: no `content_block_stop` before the error
 *   (the SDK would report it as a finished `contentBlock`, and code that
 *   runs calls as they finish would run it), none after it, and no
 *   `tool_use` stop reason for it. The markup the sieve held for it goes out
 *   as text, in a text block after it: it may be one of two blocks open,
 *   which the SDK reads right, since nothing more goes into the call's.
 * - Late text waiting for a block upstream never stopped goes out before
 *   `message_delta` (or `message_stop`): nothing follows `message_stop`.
 */
import { describe, expect, it } from 'vitest'
import { APIError } from '@anthropic-ai/sdk'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import type { AnthropicSieveOptions } from '../../src/anthropic/index.js'
import { awkward, blocks, blockStop as stop, counterIds, dsml, messageHead as head, messageTail as tail, nativeToolUse as toolUse, overloaded as failure, sdkRead, sdkReadSse, textDelta as text, textOf, textStart as start } from './anthropic-helpers.js'
import { collect, iterate } from './openai-helpers.js'

const CALL = dsml('read_file', { path: 'b.ts' })
const CALL2 = dsml('write_file', { path: 'c.ts', content: 'x' })
/** The first call cut inside its parameter's value: `read_file` has started, its input is `{"path":"b.`. */
const CUT = CALL.slice(0, CALL.indexOf('b.ts') + 2)
const LATE = ' more <｜DSML｜x'
const STREAMING: AnthropicSieveOptions = { streamArguments: true }
const PREFER: AnthropicSieveOptions = { onConflict: 'prefer-native', trimBlankLines: false }

const sieve = async (events: readonly MessagesStreamEvent[], options?: AnthropicSieveOptions) => collect(sieveMessagesStream(iterate(events), { generateId: counterIds(), ...options }))
const upTo = (out: readonly MessagesStreamEvent[]) => out.slice(0, out.indexOf(failure))
const starts = (out: readonly MessagesStreamEvent[]) => out.filter((e) => e.type === 'content_block_start').map((e) => e.content_block.type)
const thinking = (index: number): MessagesStreamEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: 'plan' } },
  stop(index),
]

describe('sieveMessagesStream: a rescued call prefer-native holds when the error comes', () => {
  it.each([
    ['whole', [`Hi ${CALL} after`]],
    ['in pieces of 1..7', awkward(`Hi ${CALL} after`)],
  ])('should support its markup going out as text where it stood, in the text block the error cut, before the error (%s)', async (_, pieces) => {
    const out = await sieve([...head, start(0), ...pieces.map((p) => text(0, p)), failure], PREFER)
    expect(starts(out)).toEqual(['text'])
    expect(textOf(upTo(out))).toBe(`Hi ${CALL} after`)
    expect(out.at(-1)).toEqual(failure)
    const read = await sdkReadSse(out)
    expect(read.error).toBeInstanceOf(APIError)
    expect(read.text.map(([delta]) => delta).join('')).toBe(`Hi ${CALL} after`)
    expect(blocks(read.message!)).toEqual([{ type: 'text', text: `Hi ${CALL} after` }])
  })

  it('should support the markup of every call it held, with the text and the blocks between them, in order', async () => {
    const events = [...head, start(0), text(0, `A ${CALL} B ${CALL2}`), stop(0), ...thinking(1), start(2), text(2, ' C'), failure]
    const out = await sieve(events, PREFER)
    expect(starts(out)).toEqual(['text', 'thinking', 'text'])
    const read = await sdkRead(out, true)
    expect(blocks(read.message)).toEqual([{ type: 'text', text: `A ${CALL} B ${CALL2}` }, { type: 'thinking', thinking: 'plan' }, { type: 'text', text: ' C' }])
    expect(read.message.stop_reason).toBeNull()
  })

  it('should support its markup going out whole with blank-line trimming on, without the blank space trimmed around it when it was a call', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi\n\n${CALL}\n\nafter`), failure], { onConflict: 'prefer-native' })
    expect(starts(out)).toEqual(['text'])
    expect(textOf(out)).toBe(`Hi${CALL}after`)
  })

  it('should support its markup going out as text when the source breaks off instead', async () => {
    async function* broken(): AsyncGenerator<MessagesStreamEvent> {
      yield* [...head, start(0), text(0, `Hi ${CALL} after`)]
      throw new Error('socket hang up')
    }
    const out: MessagesStreamEvent[] = []
    await expect(async () => {
      for await (const e of sieveMessagesStream(broken(), PREFER)) out.push(e)
    }).rejects.toThrow('socket hang up')
    expect(starts(out)).toEqual(['text'])
    expect(textOf(out)).toBe(`Hi ${CALL} after`)
  })

})

describe('sieveMessagesStream: a rescued call whose input streams when the error comes', () => {
  const CALL_START = { type: 'tool_use', id: 'toolu_000000000000000000000000', name: 'read_file' }
  const callIndex = (out: readonly MessagesStreamEvent[]) => out.findIndex((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')
  const stopsOf = (out: readonly MessagesStreamEvent[], index: number) => out.filter((e) => e.type === 'content_block_stop' && e.index === index)

  it('should not support a content_block_stop for its tool_use block before the error: the SDK does not report it finished, and reads its input as it stood', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), failure], STREAMING)
    const at = callIndex(out)
    expect(at).toBeGreaterThan(0)
    expect(stopsOf(out, (out[at] as { index: number }).index)).toEqual([])
    const read = await sdkReadSse(out)
    expect(read.error).toBeInstanceOf(APIError)
    expect(read.inputJson).toEqual(['{"path":"b.'])
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }])
  })

  it('should support its markup going out as text in a text block after it, before the error: nothing lost', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), failure], STREAMING)
    expect(starts(out)).toEqual(['text', 'tool_use', 'text'])
    expect(textOf(upTo(out))).toBe(`Hi ${CUT}`)
    const read = await sdkReadSse(out)
    expect(read.text.at(-1)).toEqual([` ${CUT}`, ` ${CUT}`])
    // the snapshot of a failed stream: the SDK's partial parse of `{"path":"b.` leaves the unfinished string out
    expect(blocks(read.message!)).toEqual([{ type: 'text', text: 'Hi' }, { ...CALL_START, input: {} }, { type: 'text', text: ` ${CUT}` }])
  })

  it('should not support a stop for it after the error either: late text, upstream\'s stop and the message\'s end close only the text block', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), failure, text(0, LATE), stop(0), ...tail], STREAMING)
    const index = (out[callIndex(out)] as { index: number }).index
    expect(stopsOf(out, index)).toEqual([])
    expect(out.slice(out.indexOf(failure) + 1)).toEqual([text(index + 1, LATE), stop(index + 1), ...tail])
    // a reader that reads on past the error: no tool_use block it reports finished
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: ` ${CUT}${LATE}` }])
  })

  it('should not support it making the message a tool-use turn: a message_delta after the error keeps upstream\'s stop reason', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), stop(0), failure, ...tail], STREAMING)
    expect(out.find((e) => e.type === 'message_delta')).toEqual(tail[0])
    expect((await sdkRead(out, true)).message.stop_reason).toBe('end_turn')
  })

  it('should support a block upstream starts after the error being read as its own while it stays open: its text, its stop', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), stop(0), failure, start(1), text(1, 'Next'), stop(1), ...tail], STREAMING)
    expect(starts(out)).toEqual(['text', 'tool_use', 'text', 'text'])
    expect(stopsOf(out, 1)).toEqual([])
    const read = await sdkRead(out, true)
    expect(read.text.at(-1)).toEqual(['Next', 'Next'])
    expect(read.stopped).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: ` ${CUT}` }, { type: 'text', text: 'Next' }])
    expect(read.message.stop_reason).toBe('end_turn')
  })

  it('should support a call prefer-native held while it streamed going out as its markup only, as before: no tool_use block', async () => {
    const out = await sieve([...head, start(0), text(0, `Hi ${CUT}`), failure, ...tail], { ...STREAMING, onConflict: 'prefer-native' })
    expect(starts(out)).toEqual(['text'])
    expect(textOf(upTo(out))).toBe(`Hi ${CUT}`)
  })

  it('should support a call complete before the error keeping its stop and the tool-use stop reason, next to one the error cut', async () => {
    const out = await sieve([...head, start(0), text(0, `${CALL} ${CUT}`), failure, ...tail], STREAMING)
    expect(starts(out)).toEqual(['tool_use', 'tool_use', 'text'])
    expect(stopsOf(out, 0)).toHaveLength(1)
    expect(stopsOf(out, 1)).toEqual([])
    const read = await sdkRead(out, true)
    expect(read.stopped).toEqual([{ ...CALL_START, input: { path: 'b.ts' } }])
    expect(read.message.stop_reason).toBe('tool_use')
  })
})

describe('sieveMessagesStream: late text after an error, waiting for a block upstream never stops', () => {
  it.each([
    ['message_delta', tail],
    ['message_stop, with no message_delta', tail.slice(1)],
  ])('should support it going out in a text block of its own before %s: nothing follows message_stop', async (_, end) => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), failure, text(0, LATE), ...end])
    expect(out.at(-1)).toEqual({ type: 'message_stop' })
    expect(textOf(out)).toBe(`Hi${LATE}`)
    const at = out.indexOf(end[0]!)
    expect(out.slice(at - 3, at)).toEqual([start(2), text(2, LATE), stop(2)])
    expect(blocks((await sdkRead(out, true)).message)).toMatchObject([{ type: 'text', text: 'Hi' }, { type: 'tool_use' }, { type: 'text', text: LATE }])
  })

  it('should support it going out at the end of a stream that ends without the message\'s end, as before', async () => {
    const out = await sieve([...head, start(0), text(0, 'Hi'), stop(0), ...toolUse(1), failure, text(0, LATE)])
    expect(out.slice(out.indexOf(failure) + 1)).toEqual([start(2), text(2, LATE)])
  })
})
