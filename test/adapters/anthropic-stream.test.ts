/** `toolsieve/anthropic`: `sieveMessagesStream`, text_deltas in, text / thinking / tool_use blocks out. */
import { describe, expect, it } from 'vitest'
import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import type { DiagnosticEvent, ErrorEvent } from '../../src/index.js'
import { awkward, blocks, counterIds, dsml, finalMessage, sieved, upstream } from './anthropic-helpers.js'

const READ = dsml('read_file', { path: 'src/a.ts' })
const ID0 = `toolu_${'0'.repeat(24)}`
const ID1 = `toolu_${'0'.repeat(23)}1`

describe('sieveMessagesStream: rescued calls', () => {
  it('should support a call in the text: text / tool_use / text blocks, renumbered, stop_reason tool_use', async () => {
    const out = await sieved(upstream([awkward(`Let me read it.\n\n${READ}\n\nDone.`)]))
    const message = await finalMessage(out)
    expect(blocks(message)).toEqual([
      { type: 'text', text: 'Let me read it.' },
      { type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'text', text: 'Done.' },
    ])
    expect(message.stop_reason).toBe('tool_use')
    expect(message.stop_sequence).toBe(null)
  })

  it('should support the API shape of a tool_use block: input {} at the start, one input_json_delta with the whole arguments', async () => {
    const out = await sieved(upstream([[READ]]))
    const calls = out.filter((e) => (e.type === 'content_block_start' && e.content_block.type === 'tool_use') || (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta'))
    expect(calls).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: ID0, name: 'read_file', input: {}, caller: { type: 'direct' } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"src/a.ts"}' } },
    ])
  })

  it('should support a text block that becomes empty: it is not sent', async () => {
    const message = await finalMessage(await sieved(upstream([awkward(`\n${READ}\n`)])))
    expect(blocks(message)).toEqual([{ type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' } }])
  })

  it('should support several calls in one block and in several blocks, each its own tool_use block', async () => {
    const two = `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="a">\n</｜DSML｜invoke>\n<｜DSML｜invoke name="b">\n<｜DSML｜parameter name="n" string="false">2</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
    const message = await finalMessage(await sieved(upstream([awkward(`One.\n\n${two}\n\nTwo.\n\n${READ}`)])))
    expect(blocks(message).map((b) => (b as { type: string; name?: string; text?: string }).name ?? (b as { text: string }).text)).toEqual(['One.', 'a', 'b', 'Two.', 'read_file'])
    expect(message.content[2]).toMatchObject({ type: 'tool_use', input: { n: 2 } })
  })

  it('should support text without markup as it is: same text, stop_reason kept', async () => {
    const message = await finalMessage(await sieved(upstream([awkward('Hello,\n\nworld.\n')])))
    expect(blocks(message)).toEqual([{ type: 'text', text: 'Hello,\n\nworld.\n' }])
    expect(message.stop_reason).toBe('end_turn')
  })

  it('should not support a call written in a code fence: it stays text, nothing runs', async () => {
    const text = `Example:\n\n\`\`\`xml\n${READ}\n\`\`\`\n`
    const message = await finalMessage(await sieved(upstream([awkward(text)])))
    expect(blocks(message)).toEqual([{ type: 'text', text }])
    expect(message.stop_reason).toBe('end_turn')
  })

  it('should support trimBlankLines: false, keeping the whitespace around the call', async () => {
    const message = await finalMessage(await sieved(upstream([[`Reading.\n\n${READ}\n\nDone.`]]), { trimBlankLines: false }))
    expect(blocks(message).filter((b) => (b as { type: string }).type === 'text')).toEqual([
      { type: 'text', text: 'Reading.\n\n' },
      { type: 'text', text: '\n\nDone.' },
    ])
  })

  it('should support stop reasons: a stop sequence becomes tool_use; max_tokens stays (a cut message is not a finished turn)', async () => {
    const stopped = await finalMessage(await sieved(upstream([[READ]], 'stop_sequence')))
    expect([stopped.stop_reason, stopped.stop_sequence]).toEqual(['tool_use', null])
    // the stream ends inside the wrapper: the complete invoke is a call (the unclosed-wrapper repair)
    const cut = READ.slice(0, READ.lastIndexOf('</｜DSML｜tool_calls>'))
    const capped = await finalMessage(await sieved(upstream([awkward(cut)], 'max_tokens')))
    expect(capped.stop_reason).toBe('max_tokens')
    expect(capped.content.map((b) => b.type)).toEqual(['tool_use'])
  })

  it('should support a stream cut before message_delta: the blocks are still closed and sent', async () => {
    const events = upstream([awkward(`Hi.\n\n${READ}`)]).filter((e) => e.type !== 'message_delta' && e.type !== 'message_stop' && e.type !== 'content_block_stop')
    const out = await sieved(events)
    expect(out.filter((e) => e.type === 'content_block_start').length).toBe(2)
    expect(out[out.length - 1]).toEqual({ type: 'content_block_stop', index: 1 })
  })

  it('should support the tools option with Anthropic definitions: input_schema coerces, unknown names are reported', async () => {
    const tools = [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' }, lines: { type: 'integer' } } } }]
    const seen: (DiagnosticEvent | ErrorEvent)[] = []
    const text = `${dsml('read_file', { path: 'a', lines: '3' })}\n${dsml('rm', { path: '/' })}`
    const message = await finalMessage(await sieved(upstream([awkward(text)]), { tools, onDiagnostic: (e) => seen.push(e) }))
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'read_file', input: { path: 'a', lines: 3 } })
    expect(seen.map((e) => e.code)).toEqual(['unknown-tool'])
  })

  it('should support quoted (the request messages): a block the user wrote is not run when the model repeats it', async () => {
    const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: `What does this do?\n${READ}` }] }]
    const message = await finalMessage(await sieved(upstream([awkward(`It reads a file:\n${READ}`)]), { quoted: messages }))
    expect(message.content.map((b) => b.type)).toEqual(['text'])
    expect(message.stop_reason).toBe('end_turn')
  })

  it('should support leaving early: break closes the upstream', async () => {
    let closed = false
    async function* source(): AsyncGenerator<MessagesStreamEvent> {
      try {
        yield* upstream([['Hello ', 'there.']])
      } finally {
        closed = true
      }
    }
    for await (const e of sieveMessagesStream(source())) if (e.type === 'content_block_start') break
    expect(closed).toBe(true)
  })

  it('should not support flushing into a failed stream: after an upstream error, a held block is not repaired into a call', async () => {
    const cut = READ.slice(0, READ.lastIndexOf('</｜DSML｜tool_calls>'))
    const events: MessagesStreamEvent[] = [...upstream([[`Hi.\n\n${cut}`]]).slice(0, 4), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]
    const out: MessagesStreamEvent[] = []
    for await (const e of sieveMessagesStream(events)) out.push(e)
    expect(out.some((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')).toBe(false)
    expect(out[out.length - 1]).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
  })
})

describe('sieveMessagesStream: upstream blocks', () => {
  const thinking = { type: 'thinking', thinking: 'Native thought.', signature: 'sig' } as ContentBlock

  it('should support native blocks passing through, renumbered around the blocks made from text', async () => {
    const events = upstream([thinking, awkward(`Reading.\n\n${READ}`)])
    // the native thinking block's own signature_delta, as the API sends it
    events.splice(3, 0, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig2' } })
    const out = await sieved(events)
    const message = await finalMessage(out)
    expect(blocks(message)).toEqual([
      { type: 'thinking', thinking: 'Native thought.' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' } },
    ])
    expect(message.content[0]).toMatchObject({ signature: 'sig2' })
  })

  it('should support a native tool_use alone: passed through, stop_reason untouched', async () => {
    const message = await finalMessage(await sieved(upstream([['Let me look.'], nativeCall()], 'tool_use')))
    expect(blocks(message)).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_native', name: 'ls', input: { dir: '.' } },
    ])
  })

  it('should not support native and rescued calls in one message: native-conflict, whichever comes first', async () => {
    await expect(sieved(upstream([nativeCall(), awkward(`And:\n${READ}`)]))).rejects.toMatchObject({ code: 'native-conflict' })
    await expect(sieved(upstream([awkward(`First:\n${READ}`), nativeCall()]))).rejects.toMatchObject({ code: 'native-conflict' })
  })

  it("should support onConflict: 'prefer-native': rescued calls dropped when a native call came, before or after", async () => {
    for (const order of [
      [nativeCall(), awkward(`And:\n${READ}`)],
      [awkward(`First:\n${READ}`), nativeCall()],
    ]) {
      const message = await finalMessage(await sieved(upstream(order, 'tool_use'), { onConflict: 'prefer-native' }))
      expect(message.content.filter((b) => b.type === 'tool_use').map((b) => b.type === 'tool_use' && b.id)).toEqual(['toolu_native'])
      expect(message.stop_reason).toBe('tool_use')
    }
  })

  it("should support onConflict: 'prefer-native' without a native call: held to the message's end, then sent in order", async () => {
    const message = await finalMessage(await sieved(upstream([awkward(`Reading.\n\n${READ}\n\nDone.`)]), { onConflict: 'prefer-native' }))
    expect(blocks(message)).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'text', text: 'Done.' },
    ])
    expect(message.stop_reason).toBe('tool_use')
  })

  it('should support ids: toolu_ + 24 hex digits by default, or what generateId returns', async () => {
    const out: MessagesStreamEvent[] = []
    for await (const e of sieveMessagesStream(upstream([[READ, READ]]))) out.push(e)
    const ids = out.flatMap((e) => (e.type === 'content_block_start' && e.content_block.type === 'tool_use' ? [e.content_block.id] : []))
    expect(ids).toHaveLength(2)
    for (const id of ids) expect(id).toMatch(/^toolu_[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(2)
    const counted = await finalMessage(await sieved(upstream([[READ, READ]]), { generateId: counterIds() }))
    expect(counted.content.map((b) => b.type === 'tool_use' && b.id)).toEqual([ID0, ID1])
  })
})

function nativeCall(): ContentBlock {
  return { type: 'tool_use', id: 'toolu_native', name: 'ls', input: { dir: '.' }, caller: { type: 'direct' } } as ContentBlock
}
