/** `toolsieve/anthropic` with `streamArguments`: tool_use blocks as the model writes them, and what happens when one fails after it was sent. */
import { describe, expect, it } from 'vitest'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { blocks, checkWire, counterIds, finalMessage, nativeCall, upstream } from './anthropic-helpers.js'
import { C, O, block, chars, invoke, param } from '../helpers/dsml.js'

const ID0 = `toolu_${'0'.repeat(24)}`

/** The adapter's output, each event with how many upstream events had been read when it came. */
async function timed(events: readonly MessagesStreamEvent[], options = {}): Promise<{ out: MessagesStreamEvent[]; readAt: number[] }> {
  let read = 0
  async function* source() {
    for (const e of events) {
      read++
      yield e
    }
  }
  const out: MessagesStreamEvent[] = []
  const readAt: number[] = []
  for await (const e of sieveMessagesStream(source(), { generateId: counterIds(), streamArguments: true, ...options })) {
    out.push(e)
    readAt.push(read)
  }
  checkWire(out)
  return { out, readAt }
}

const isCallStart = (e: MessagesStreamEvent) => e.type === 'content_block_start' && e.content_block.type === 'tool_use'

describe('streamArguments', () => {
  it('should support a tool_use block that starts before the call is complete, its input in several input_json_deltas', async () => {
    const value = 'fn main() {}\n'.repeat(10)
    const text = `Writing.\n\n${block(invoke('write_file', param('path', 'a.rs'), param('content', value)))}\n\nDone.`
    const events = upstream([chars(text)])
    const { out, readAt } = await timed(events)
    // the upstream event that completes the content value's closer: the start must come before it is read
    let sofar = ''
    const valueDone = events.findIndex((e) => {
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') sofar += e.delta.text
      return sofar.includes(`${value}${C}parameter>`)
    })
    expect(readAt[out.findIndex(isCallStart)]!).toBeLessThan(valueDone + 1)
    const pieces = out.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : []))
    expect(pieces.length).toBeGreaterThan(3)
    expect(JSON.parse(pieces.join(''))).toEqual({ path: 'a.rs', content: value })
    const message = await finalMessage(out)
    expect(blocks(message)).toEqual([
      { type: 'text', text: 'Writing.' },
      { type: 'tool_use', id: ID0, name: 'write_file', input: { path: 'a.rs', content: value } },
      { type: 'text', text: 'Done.' },
    ])
    expect(message.stop_reason).toBe('tool_use')
  })

  it('should support several invokes in one block: each its own tool_use block, in order', async () => {
    const { out } = await timed(upstream([chars(block(invoke('a', param('x', '1')), invoke('b', param('y', 'two'))))]))
    const message = await finalMessage(out)
    expect(blocks(message)).toEqual([
      { type: 'tool_use', id: ID0, name: 'a', input: { x: '1' } },
      { type: 'tool_use', id: `toolu_${'0'.repeat(23)}1`, name: 'b', input: { y: 'two' } },
    ])
  })

  it('should support a block that is not live (in a code fence): no tool_use block, no error', async () => {
    const text = `\`\`\`\n${block(invoke('a', param('x', '1')))}\n\`\`\`\n`
    const { out } = await timed(upstream([chars(text)]))
    expect(out.some(isCallStart)).toBe(false)
    expect(blocks(await finalMessage(out))).toEqual([{ type: 'text', text }])
  })

  it('should not support taking a sent call back: a block that breaks after its tool_use went out throws call-aborted', async () => {
    const quoted = block(invoke('bash', param('cmd', 'rm -rf ~')))
    const text = `${O}tool_calls>\n${O}invoke name="send_email">\n${O}parameter name="body">see ${quoted}${C}parameter>\n${C}invoke>\n${C}tool_calls>`
    const seen: MessagesStreamEvent[] = []
    const run = async () => {
      for await (const e of sieveMessagesStream(upstream([chars(text)]), { streamArguments: true })) seen.push(e)
    }
    await expect(run()).rejects.toMatchObject({ name: 'ToolsieveError', code: 'call-aborted' })
    expect(seen.filter(isCallStart).map((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use' && e.content_block.name)).toEqual(['send_email'])
    expect(seen.some((e) => e.type === 'message_delta')).toBe(false)
  })

  it('should not support an aborted call cut by the end of the stream either: call-aborted, never a stop_reason', async () => {
    const text = `${O}tool_calls>\n${invoke('a', param('x', '1'))}${O}invoke name="b">\n${O}parameter name="y" string="true">unfinished`
    await expect(timed(upstream([chars(text)], 'max_tokens'))).rejects.toMatchObject({ code: 'call-aborted' })
  })

  it("should support prefer-native: a held call that aborts is dropped without an error, its markup as text", async () => {
    const bad = block(invoke('f', param('x', 'one'), param('x', 'two')))
    const { out } = await timed(upstream([chars(`Try:\n${bad}`)]), { onConflict: 'prefer-native' })
    const message = await finalMessage(out)
    expect(message.content.map((b) => b.type)).toEqual(['text'])
    expect(message.stop_reason).toBe('end_turn')
  })

  it('should not support a rescued call after a native one, streamed or not: native-conflict before its block starts', async () => {
    const seen: MessagesStreamEvent[] = []
    const run = async () => {
      for await (const e of sieveMessagesStream(upstream([nativeCall('ls', {}), chars(block(invoke('a')))]), { streamArguments: true })) seen.push(e)
    }
    await expect(run()).rejects.toMatchObject({ code: 'native-conflict' })
    expect(seen.filter(isCallStart)).toHaveLength(1)
  })
})
