/**
 * Property: however upstream cuts its content into chunks, sieveChatStream
 * gives the same cleaned content, reasoning, calls and finish reason.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sieveChatStream } from '../../src/openai/index.js'
import { accumulate, answer, block, collect, counter, invoke, iterate, param } from './openai-helpers.js'
import { cutAt } from './fuzz-helpers.js'

const call = fc
  .record({ name: fc.constantFrom('ls', 'read_file', 'run'), value: fc.constantFrom('src', 'a < b && c', '中文 🚀', '`tick`', '  edge  ', '{"k":1}') })
  .map(({ name, value }) => block(invoke(name, param('v', value))))
const prose = fc.constantFrom('Hello.', 'Let me look.', ' ', '\n', '\n\n', 'a `code` span', '1 < 2 and <b>', '｜', '＜')
const fenced = call.map((b) => `\n\`\`\`\n${b}\n\`\`\`\n`)
const inline = call.map((b) => ` \`${b}\` `)
const piece = fc.oneof({ weight: 4, arbitrary: prose }, { weight: 2, arbitrary: call.map((b) => `\n\n${b}\n\n`) }, { weight: 1, arbitrary: fenced }, { weight: 1, arbitrary: inline })
const content = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 8 })).map(([think, pieces]) => (think ? '<think>plan `x</think>' : '') + pieces.join(''))

describe('sieveChatStream: chunking does not matter', () => {
  it('should support any chunking of the content giving the same content, reasoning, calls and finish', async () => {
    await fc.assert(
      fc.asyncProperty(content, fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), async (text, cuts, streamArguments) => {
        const run = async (pieces: string[]) => accumulate(await collect(sieveChatStream(iterate(answer(pieces)), { generateId: counter(), streamArguments })))
        const whole = await run([text])
        expect(await run(cutAt(text, cuts, true))).toEqual(whole)
        expect(whole.calls.length > 0 ? 'tool_calls' : 'stop').toBe(whole.finish)
      }),
      { numRuns: 150 },
    )
  })
})
