/**
 * The answer after the reasoning, on every wire: the blank lines DeepSeek
 * writes after `</think>` start no answer (src/adapters/trim.ts), in every
 * chunking, and every wire gives the same text.
 */
import { describe, expect, it } from 'vitest'
import { awkward } from './stream-helpers.js'
import { cut } from './openai-helpers.js'
import { wires } from './wires.js'

/** Whole, one code point at a time, and the awkward cut that splits every delimiter. */
const chunkings = (text: string): string[][] => [[text], cut(text, 1), awkward(text)]

const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'

for (const wire of wires) {
  describe(`the answer after the reasoning (${wire.name})`, () => {
    it('should support dropping the blank lines after </think>, in every chunking', async () => {
      for (const pieces of chunkings('<think>plan</think>\n\nHello')) {
        expect(await wire.read(pieces)).toEqual({ text: 'Hello', reasoning: 'plan', calls: [] })
      }
    })

    it('should support dropping them with thinking on (no opening tag), keeping the answer\'s own indentation', async () => {
      for (const pieces of chunkings('plan</think>\r\n\r\n    code\n')) {
        expect(await wire.read(pieces, { thinking: true })).toEqual({ text: '    code\n', reasoning: 'plan', calls: [] })
      }
    })

    it('should support dropping them before a call, and an answer of only blank lines', async () => {
      for (const pieces of chunkings(`<think>plan</think>\n\n${call}\n\nDone.`)) {
        expect(await wire.read(pieces)).toEqual({ text: 'Done.', reasoning: 'plan', calls: ['read_file'] })
      }
      for (const pieces of chunkings('<think>plan</think>\n\n \n')) expect(await wire.read(pieces)).toEqual({ text: '', reasoning: 'plan', calls: [] })
    })

    it('should not support trimming with trimBlankLines: false (the content keeps every character)', async () => {
      for (const pieces of chunkings('<think>plan</think>\n\nHello')) {
        expect(await wire.read(pieces, { trimBlankLines: false })).toEqual({ text: '\n\nHello', reasoning: 'plan', calls: [] })
      }
    })

    it('should not support trimming blank lines inside the answer, or an answer without reasoning', async () => {
      for (const pieces of chunkings('<think>plan</think>Hello\n\n\nworld')) expect((await wire.read(pieces)).text).toBe('Hello\n\n\nworld')
      for (const pieces of chunkings('\n\nHello')) expect((await wire.read(pieces)).text).toBe('\n\nHello')
    })
  })
}
