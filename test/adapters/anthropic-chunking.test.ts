/** `toolsieve/anthropic`: the chunking of the upstream text changes nothing in the message the client builds. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessage } from '../../src/anthropic/index.js'
import { chunkBy, chunkSizes, document } from '../properties/generator.js'
import { counterIds, finalMessage, messageShell, sieved, upstream } from './anthropic-helpers.js'

/** The final message's content and stop reason, or the code of the error the stream threw (call-aborted, with streamArguments). */
async function outcome(chunks: string[], streamArguments: boolean): Promise<Pick<Message, 'content' | 'stop_reason'> | { error: unknown }> {
  try {
    const message = await finalMessage(await sieved(upstream([chunks]), { streamArguments }))
    return { content: message.content, stop_reason: message.stop_reason }
  } catch (e) {
    return { error: (e as { code?: unknown }).code }
  }
}

describe('chunking', () => {
  it('should support any chunking of the text deltas: the same final message as one delta (property)', async () => {
    await fc.assert(
      fc.asyncProperty(document(8), chunkSizes, async (text, sizes) => {
        expect(await outcome(chunkBy(text, sizes), false)).toEqual(await outcome([text], false))
      }),
      { numRuns: 120 },
    )
  })

  it('should support streamArguments changing nothing but the timing: the same final message, or call-aborted when a started call failed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(document(8), chunkSizes, async (text, sizes) => {
        const reference = await outcome([text], false)
        // whether a call had started when its block failed depends on where the chunks fell; failing is the only other outcome
        for (const chunks of [[text], chunkBy(text, sizes)]) {
          const streamed = await outcome(chunks, true)
          if (!('error' in streamed && streamed.error === 'call-aborted')) expect(streamed).toEqual(reference)
        }
      }),
      { numRuns: 120 },
    )
  })

  it('should support sieveMessage giving what the stream gives, for any text (property)', async () => {
    await fc.assert(
      fc.asyncProperty(document(8), async (text) => {
        const message = sieveMessage({ ...messageShell(), content: [{ type: 'text', text, citations: null }], stop_reason: 'end_turn' }, { generateId: counterIds() })
        expect({ content: message.content, stop_reason: message.stop_reason }).toEqual(await outcome([text], false))
      }),
      { numRuns: 120 },
    )
  })
})
