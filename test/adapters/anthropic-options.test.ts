/** `toolsieve/anthropic`: options are checked when the adapter is called, naming the field. */
import { describe, expect, it } from 'vitest'
import type { Tool } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessage, sieveMessagesStream, type AnthropicSieveOptions } from '../../src/anthropic/index.js'
import { dsml, messageShell, upstream } from './anthropic-helpers.js'

const bad: [string, AnthropicSieveOptions, string][] = [
  ['trimBlankLines', { trimBlankLines: 'yes' as never }, 'trimBlankLines'],
  ['streamArguments', { streamArguments: 1 as never }, 'streamArguments'],
  ['onConflict', { onConflict: 'ignore' as never }, 'onConflict'],
  ['onDiagnostic', { onDiagnostic: 'log' as never }, 'onDiagnostic'],
  ['thinking', { thinking: 'on' as never }, 'thinking'],
  ['quoted', { quoted: 42 as never }, 'quoted'],
  ['a tool without a name', { tools: [{ input_schema: { type: 'object' } } as never] }, 'tools[0]'],
  ['a schema that does not compile', { tools: [{ name: 'x', input_schema: { type: 'object', properties: { a: { type: 'nope' } } } } as never] }, 'tools[0]'],
  ['captureLimit (the sieve option)', { captureLimit: 0 }, 'captureLimit'],
]

describe('options', () => {
  for (const [what, options, field] of bad) {
    it(`should not support a bad ${what}: invalid-option when called, before any event is read`, () => {
      let read = false
      const source = {
        async *[Symbol.asyncIterator]() {
          read = true
          yield* upstream([['x']])
        },
      }
      expect(() => sieveMessagesStream(source, options)).toThrow(expect.objectContaining({ code: 'invalid-option', field }))
      expect(() => sieveMessage({ ...messageShell(), content: [] }, options)).toThrow(expect.objectContaining({ code: 'invalid-option', field }))
      expect(read).toBe(false)
    })
  }

  it('should not support options that are not an object, or events that are not iterable', () => {
    expect(() => sieveMessagesStream([], 'strict' as never)).toThrow(expect.objectContaining({ code: 'invalid-option' }))
    expect(() => sieveMessagesStream(42 as never)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'events' }))
  })

  it('should support null for any option and for the whole object: the defaults', async () => {
    const nulls = { tools: null, thinking: null, quoted: null, trimBlankLines: null, onConflict: null, onDiagnostic: null, generateId: null, streamArguments: null } as unknown as AnthropicSieveOptions
    for (const options of [null, undefined, nulls]) {
      const out = sieveMessage({ ...messageShell(), content: [{ type: 'text', text: `A.\n\n${dsml('x', {})}`, citations: null }], stop_reason: 'end_turn' }, options)
      expect(out.content.map((b) => b.type)).toEqual(['text', 'tool_use'])
      expect(out.content[1]).toMatchObject({ id: expect.stringMatching(/^toolu_[0-9a-f]{24}$/) })
    }
  })

  it("should support the SDK's own types: Tool[] for tools, MessageParam[] for quoted, the request's thinking config", () => {
    const tools: Tool[] = [{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]
    const out = sieveMessage(
      { ...messageShell(), content: [{ type: 'text', text: 'Plan.</think>' + dsml('read_file', { path: 'a' }), citations: null }], stop_reason: 'end_turn' },
      { tools, quoted: [{ role: 'user', content: 'Read a.' }], thinking: { type: 'enabled' } },
    )
    expect(out.content.map((b) => b.type)).toEqual(['thinking', 'tool_use'])
  })
})
