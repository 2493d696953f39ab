/**
 * Consecutive text parts of one message (AI SDK text parts, Anthropic text
 * blocks) are one text for the sieve: a fence that opens in one part hides
 * a block in the next, and a block may span parts. The text still comes out
 * in the parts it was read from, the wire's rules kept.
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sieveMessage } from '../../src/anthropic/index.js'
import { generated, loadLines, textsOf, usage, wrappedStream, type LoadedLine } from './ai-sdk-helpers.js'
import { blocks, finalMessage, messageShell, sieved, upstream } from './anthropic-helpers.js'
import { awkward } from './stream-helpers.js'
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages'

const lines = await loadLines()
const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
/** A fence opened in the first part, the block and the fence's close in the second: on the joined text the block is code. */
const fenced = ['Example:\n\n```\n', `${call}\n\`\`\`\n`] as const
/** A block cut in two. */
const split = [`Reading.\n\n${call.slice(0, 60)}`, `${call.slice(60)}\n\nDone.`] as const

/** Each part's text whole, and cut so that every delimiter is split. */
const chunkings = (part: string): string[][] => [[part], awkward(part)]

function aiParts(texts: readonly string[][]): object[] {
  const ids = ['a', 'b', 'c']
  return [
    { type: 'stream-start', warnings: [] },
    ...texts.flatMap((chunks, i) => [{ type: 'text-start', id: ids[i] }, ...chunks.map((delta) => ({ type: 'text-delta', id: ids[i], delta })), { type: 'text-end', id: ids[i] }]),
    { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
  ]
}

async function generate(loaded: LoadedLine, content: object[]) {
  const model = new loaded.Mock({ doGenerate: generated(content) })
  const wrapped = loaded.ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() as never })
  return ((await wrapped.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }] } as never)) as { content: Array<Record<string, any>> }).content
}

for (const loaded of lines) {
  describe(`consecutive text parts (ai ${loaded.line.major})`, () => {
    it('should not support a block in a fence opened in the previous text part (stream): it is code, in the parts it was read from', async () => {
      for (const a of chunkings(fenced[0])) {
        for (const b of chunkings(fenced[1])) {
          const { parts, error } = await wrappedStream(loaded, aiParts([a, b]), toolsieveMiddleware())
          expect(error).toBeUndefined()
          expect(parts.some((p) => p.type === 'tool-call' || p.type === 'tool-input-start')).toBe(false)
          const texts = textsOf(parts)
          expect(texts).toMatchObject({ text: fenced.join(''), violations: [] })
          expect(texts.ids[0]).toBe('a')
          const first = parts.filter((p) => p.type === 'text-delta' && p.id === 'a').map((p) => p.delta as string).join('')
          expect(first).toMatch(/^Example:/)
          expect(parts.at(-1)!.finishReason.unified).toBe('stop')
        }
      }
    })

    it('should not support a block in a fence opened in the previous text part (generate)', async () => {
      const content = await generate(loaded, [{ type: 'text', text: fenced[0] }, { type: 'text', text: fenced[1] }])
      expect(content.some((p) => p.type === 'tool-call')).toBe(false)
      expect(content.map((p) => p.text).join('')).toBe(fenced.join(''))
      expect(content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Example:/) })
    })

    it('should support a block split over two text parts (stream and generate): one call, the text around it kept', async () => {
      for (const a of chunkings(split[0])) {
        const { parts } = await wrappedStream(loaded, aiParts([a, [split[1]]]), toolsieveMiddleware())
        expect(parts.filter((p) => p.type === 'tool-call').map((p) => p.toolName)).toEqual(['read_file'])
        expect(textsOf(parts)).toMatchObject({ text: 'Reading.Done.', violations: [] })
      }
      const content = await generate(loaded, [{ type: 'text', text: split[0] }, { type: 'text', text: split[1] }])
      expect(content.map((p) => [p.type, p.text ?? p.toolName])).toEqual([
        ['text', 'Reading.'],
        ['tool-call', 'read_file'],
        ['text', 'Done.'],
      ])
    })
  })
}

describe('consecutive text blocks (anthropic)', () => {
  it('should not support a block in a fence opened in the previous text block (stream): it is code, in two text blocks', async () => {
    for (const a of chunkings(fenced[0])) {
      for (const b of chunkings(fenced[1])) {
        const content = blocks(await finalMessage(await sieved(upstream([a, b]))))
        expect(content.every((block) => (block as { type: string }).type === 'text')).toBe(true)
        expect(content.map((block) => (block as { text: string }).text).join('')).toBe(fenced.join(''))
        expect((content[0] as { text: string }).text).toMatch(/^Example:/)
      }
    }
  })

  it('should not support a block in a fence opened in the previous text block (message)', () => {
    const message = { ...messageShell(), content: fenced.map((text) => ({ type: 'text', text, citations: null })), stop_reason: 'end_turn' } as unknown as Message
    const out = sieveMessage(message)
    expect(out.content.map((b) => b.type)).toEqual(['text', 'text'])
    expect(out.content.map((b) => (b as { text: string }).text).join('')).toBe(fenced.join(''))
    expect(out.stop_reason).toBe('end_turn')
  })

  it('should support a block split over two text blocks: one tool_use, the text around it kept', async () => {
    for (const a of chunkings(split[0])) {
      const content = blocks(await finalMessage(await sieved(upstream([a, [split[1]]]))))
      expect(content).toEqual([
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'read_file', input: { path: 'a.ts' } },
        { type: 'text', text: 'Done.' },
      ])
    }
  })

  it('should not support a block spread over text blocks that another block stands between', async () => {
    const content = blocks(await finalMessage(await sieved(upstream([[split[0]], { type: 'thinking', thinking: 'hm', signature: 's' } as never, [split[1]]]))))
    expect(content.some((b) => (b as { type: string }).type === 'tool_use')).toBe(false)
  })
})
