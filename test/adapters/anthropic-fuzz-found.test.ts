/**
 * Found by the adapters' fuzz (adapters-fuzz.test.ts), kept as behaviour:
 * with `streamArguments`, a block of two invokes that an upstream error
 * cuts after the first one. The first call's input is whole, but its block
 * is not: the break makes it text, as it makes the second. Its `tool_use`
 * block must not have been stopped when the second call started, since the
 * SDK reports a stopped block as a finished call.
 */
import { describe, expect, it } from 'vitest'
import { blockStop, counterIds, messageHead, overloaded, sdkRead, textDelta, textStart } from './anthropic-helpers.js'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { collect } from './openai-helpers.js'

const invoke = (v: string) => `<｜DSML｜invoke name="ls">\n<｜DSML｜parameter name="v" string="true">${v}</｜DSML｜parameter>\n</｜DSML｜invoke>`
const cut = `<｜DSML｜tool_calls>\n${invoke('a')}\n<｜DSML｜invoke name="ls">`
const whole = `<｜DSML｜tool_calls>\n${invoke('a')}\n${invoke('b')}\n</｜DSML｜tool_calls>`
const run = (events: MessagesStreamEvent[]) => collect(sieveMessagesStream(events, { streamArguments: true, trimBlankLines: false, generateId: counterIds() }))
const stoppedCalls = (out: readonly MessagesStreamEvent[]) => {
  const calls = new Set(out.flatMap((e) => (e.type === 'content_block_start' && e.content_block.type === 'tool_use' ? [e.index] : [])))
  return out.filter((e) => e.type === 'content_block_stop' && calls.has(e.index)).length
}

describe('sieveMessagesStream, streamArguments: a block of two invokes an error cuts after the first', () => {
  it('should not support the first call stopped, as finished, when the second starts before its block closed', async () => {
    const out = await run([...messageHead, textStart(0), textDelta(0, 'Hi '), textDelta(0, cut), overloaded])
    expect(stoppedCalls(out)).toBe(0)
    const read = await sdkRead(out, true)
    expect(read.stopped.filter((b) => (b as { type: string }).type === 'tool_use')).toEqual([])
  })

  it('should support the markup of the block going out as text before the error', async () => {
    const out = await run([...messageHead, textStart(0), textDelta(0, 'Hi '), textDelta(0, cut), overloaded])
    const text = out.map((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? e.delta.text : '')).join('')
    expect(text).toBe(`Hi ${cut}`)
    expect(out.at(-1)).toEqual(overloaded)
  })

  it('should support both calls stopped, in order, once the block closes', async () => {
    const out = await run([...messageHead, textStart(0), textDelta(0, whole.slice(0, 150)), textDelta(0, whole.slice(150)), blockStop(0)])
    const uses = out.filter((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')
    expect(uses).toHaveLength(2)
    expect(stoppedCalls(out)).toBe(2)
    const read = await sdkRead([...out, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } } as never, { type: 'message_stop' }])
    expect(read.message.content.filter((b) => b.type === 'tool_use').map((b) => (b as { input: unknown }).input)).toEqual([{ v: 'a' }, { v: 'b' }])
  })
})
