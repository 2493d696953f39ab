/**
 * The shared adapter layer: blank lines around a rescued block
 * (src/adapters/trim.ts), in every chunking of the text.
 */
import { describe, expect, it } from 'vitest'
import { createActionSieve, resolveAdapterOptions, type AdapterAction, type AdapterOptions } from '../../src/adapters/index.js'

const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="ls">\n<｜DSML｜parameter name="dir" string="true">src</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'

/** The text actions joined, and the calls' names, for chunks of `size` code points. */
function run(input: string, size: number, options: AdapterOptions = {}, oneText = false): { text: string; calls: string[] } {
  const sieve = createActionSieve(resolveAdapterOptions(options), { oneText })
  const actions: AdapterAction[] = []
  const points = Array.from(input)
  for (let i = 0; i < points.length; i += size) actions.push(...sieve.push(points.slice(i, i + size).join('')))
  actions.push(...sieve.end())
  return {
    text: actions.map((a) => (a.type === 'text' ? a.text : '')).join(''),
    calls: actions.flatMap((a) => (a.type === 'call-end' ? [a.call.name] : [])),
  }
}

const sizes = [1, 2, 3, 7, 1000]

describe('blank lines around a block', () => {
  it('should support dropping the blank lines before and after a block, in every chunking', () => {
    for (const size of sizes) {
      expect(run(`Let me look.\n\n${block}\n\nDone.`, size)).toEqual({ text: 'Let me look.Done.', calls: ['ls'] })
    }
  })

  it('should support one text around a call (an OpenAI content): the blank lines before the block stay between the two texts', () => {
    for (const size of sizes) {
      expect(run(`Let me look.\n\n${block}\n\nDone.`, size, {}, true)).toEqual({ text: 'Let me look.\n\nDone.', calls: ['ls'] })
      expect(run(`Look:\n${block}\n\n    code\n`, size, {}, true).text).toBe('Look:\n    code\n')
      expect(run(`${block}\n\nDone.`, size, {}, true).text).toBe('Done.')
      expect(run(`A\n\n${block}\n${block}\n\nB\n\n${block}\n`, size, {}, true)).toEqual({ text: 'A\n\nB', calls: ['ls', 'ls', 'ls'] })
    }
  })

  it('should support keeping the indentation of the line after a block', () => {
    for (const size of sizes) expect(run(`Look:\n${block}\n\n    code\n`, size).text).toBe('Look:    code\n')
  })

  it('should support dropping the whitespace between two blocks and after the last one', () => {
    for (const size of sizes) expect(run(`${block}\n\n${block}\n\n \n`, size)).toEqual({ text: '', calls: ['ls', 'ls'] })
  })

  it('should not support trimming whitespace that stands next to no block', () => {
    for (const size of sizes) expect(run('Hello\n\n  world  \n\n', size).text).toBe('Hello\n\n  world  \n\n')
  })

  it('should not support trimming around a block that stayed text (inside a code fence)', () => {
    const input = `See:\n\n\`\`\`\n${block}\n\`\`\`\n\nok`
    for (const size of sizes) expect(run(input, size)).toEqual({ text: input, calls: [] })
  })

  it('should not support trimming with trimBlankLines: false (the content keeps every character)', () => {
    for (const size of sizes) expect(run(`A\n\n${block}\n\nB`, size, { trimBlankLines: false }).text).toBe('A\n\n\n\nB')
  })
})
