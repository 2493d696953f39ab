/** `toolsieve/anthropic`: `sieveMessage`, a whole Message rewritten. */
import { describe, expect, it } from 'vitest'
import type { ContentBlock, Message, StopReason } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessage, sieveMessagesStream } from '../../src/anthropic/index.js'
import { blocks, counterIds, dsml, finalMessage, messageShell, nativeCall, upstream } from './anthropic-helpers.js'

const READ = dsml('read_file', { path: 'src/a.ts' })
const ID0 = `toolu_${'0'.repeat(24)}`

function message(content: ContentBlock[], stop_reason: StopReason = 'end_turn'): Message {
  return { ...messageShell(), content, stop_reason, usage: { input_tokens: 10, output_tokens: 42 } } as Message
}
const text = (t: string) => ({ type: 'text', text: t, citations: null }) as ContentBlock

describe('sieveMessage', () => {
  it('should support a call in a text block: text / tool_use / text, input parsed, stop_reason tool_use', () => {
    const out = sieveMessage(message([text(`Let me read it.\n\n${READ}\n\nDone.`)]), { generateId: counterIds() })
    expect(blocks(out)).toEqual([
      { type: 'text', text: 'Let me read it.' },
      { type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'text', text: 'Done.' },
    ])
    expect(out.content[1]).toEqual({ type: 'tool_use', id: ID0, name: 'read_file', input: { path: 'src/a.ts' }, caller: { type: 'direct' } })
    expect([out.stop_reason, out.stop_sequence]).toEqual(['tool_use', null])
    expect(out.usage).toEqual({ input_tokens: 10, output_tokens: 42 })
  })

  it('should support the same blocks as the stream of the same message', async () => {
    const answer = `<think>\nPlan.\n</think>\n\nReading.\n\n${READ}\n\nDone.`
    const whole = sieveMessage(message([text(answer)]), { generateId: counterIds() })
    const events = []
    for await (const e of sieveMessagesStream(upstream([[answer]]), { generateId: counterIds() })) events.push(e)
    const streamed = await finalMessage(events)
    expect(blocks(whole)).toEqual(blocks(streamed))
    expect(whole.stop_reason).toBe(streamed.stop_reason)
    expect(whole.content[0]).toEqual({ type: 'thinking', thinking: '\nPlan.\n', signature: '' })
  })

  it('should support a message without markup: the same content, the same stop_reason', () => {
    const given = message([text('Hello.\n')])
    const out = sieveMessage(given)
    expect(out.content).toEqual([{ type: 'text', text: 'Hello.\n', citations: null }])
    expect(out.stop_reason).toBe('end_turn')
  })

  it('should support a text block that becomes empty: it is gone', () => {
    const out = sieveMessage(message([text(`\n\n${READ}\n`)]), { generateId: counterIds() })
    expect(out.content.map((b) => b.type)).toEqual(['tool_use'])
  })

  it('should support thinking: true, the answer starting inside the reasoning', () => {
    const out = sieveMessage(message([text('The user wants a.ts.</think>\n\nReading it.')]), { thinking: true })
    expect(blocks(out)).toEqual([
      { type: 'thinking', thinking: 'The user wants a.ts.' },
      { type: 'text', text: 'Reading it.' },
    ])
  })

  it('should support streamArguments ignored: a block that fails is text, never call-aborted', () => {
    const cut = READ.slice(0, READ.indexOf('</｜DSML｜invoke>'))
    const out = sieveMessage(message([text(`Cut:\n${cut}`)], 'max_tokens'), { streamArguments: true })
    expect(blocks(out)).toEqual([{ type: 'text', text: `Cut:\n${cut}` }])
    expect(out.stop_reason).toBe('max_tokens')
  })

  it('should support trimBlankLines: false keeping the line breaks after </think> too', () => {
    const out = sieveMessage(message([text('<think>Plan.</think>\n\nAnswer.')]), { trimBlankLines: false })
    expect(blocks(out)).toEqual([
      { type: 'thinking', thinking: 'Plan.' },
      { type: 'text', text: '\n\nAnswer.' },
    ])
  })

  it('should support native blocks kept as they are, around the rewritten text', () => {
    const thinking = { type: 'thinking', thinking: 'Native.', signature: 'sig' } as ContentBlock
    const out = sieveMessage(message([thinking, text('Just text.'), { type: 'redacted_thinking', data: 'x' } as ContentBlock]))
    expect(out.content).toEqual([thinking, { type: 'text', text: 'Just text.', citations: null }, { type: 'redacted_thinking', data: 'x' }])
  })

  it('should support citations on a text block: kept on its text', () => {
    const citation = { type: 'char_location', cited_text: 'a', document_index: 0, document_title: null, start_char_index: 0, end_char_index: 1, file_id: null }
    const out = sieveMessage(message([{ type: 'text', text: 'Cited.', citations: [citation] } as ContentBlock]))
    expect(out.content).toEqual([{ type: 'text', text: 'Cited.', citations: [citation] }])
  })

  it('should not support changing the message given: a new one is returned', () => {
    const given = message([text(READ)])
    const copy = structuredClone(given)
    sieveMessage(given)
    expect(given).toEqual(copy)
  })

  it('should not support native and rescued calls together: native-conflict, or prefer-native drops the rescued', () => {
    const both = message([text(`Also:\n${READ}`), nativeCall('ls', { dir: '.' })], 'tool_use')
    expect(() => sieveMessage(both)).toThrow(expect.objectContaining({ code: 'native-conflict' }))
    const out = sieveMessage(both, { onConflict: 'prefer-native' })
    expect(blocks(out)).toEqual([
      { type: 'text', text: 'Also:' },
      { type: 'tool_use', id: 'toolu_native', name: 'ls', input: { dir: '.' } },
    ])
    expect(out.stop_reason).toBe('tool_use')
  })

  it('should not support something that is not a message', () => {
    expect(() => sieveMessage(null as never)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'message' }))
    expect(() => sieveMessage({ content: 'x' } as never)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'message' }))
  })
})
