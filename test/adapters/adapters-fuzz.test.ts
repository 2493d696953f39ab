/**
 * A hostile fuzz of every adapter: answers with calls, broken and quoted
 * calls and reasoning, cut into random deltas, across several choices,
 * parts or blocks, with native calls, ended every way upstream can end
 * (a finish, an error event, a source that throws, a malformed chunk, a
 * stream that just stops; in a chat stream, a chunk after a choice's
 * finish). Each run is held to the two promises: only the errors the docs
 * name, nothing after a terminal event, no call from a block that did not
 * finish, and every upstream character out once, as text, reasoning or a
 * sent call's markup (see `account`).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream'
import { sieveChatStream, type OpenAIAdapterOptions } from '../../src/openai/index.js'
import { resolveAdapterOptions } from '../../src/adapters/index.js'
import { account, rawsOf, allowedError, apart, cutAt, ending, inTime, sourceOf, textOrNative, UpstreamBroke, type Said } from './fuzz-helpers.js'
import { chunk, counter } from './openai-helpers.js'
import { checkChoice, choice, interleave, late, lateUsage, placeLate } from './fuzz-chat.js'
import { sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { checkWire, counterIds, nativeCall, overloaded, sdkRead, upstream } from './anthropic-helpers.js'

const SEED = Number(process.env.FUZZ_SEED ?? 20240611)
const RUNS = Number(process.env.FUZZ_RUNS ?? 1)
export const optionSets: OpenAIAdapterOptions[] = [
  { trimBlankLines: false },
  { trimBlankLines: false, onConflict: 'prefer-native' },
  { trimBlankLines: false, streamArguments: true },
  { trimBlankLines: false, streamArguments: true, onConflict: 'prefer-native' },
  { trimBlankLines: false, thinking: true },
]
const options = fc.nat(optionSets.length - 1).map((i) => optionSets[i]!)

describe('sieveChatStream under fuzz', () => {
  it('should support any stream, ended any way, giving every character once and no call of a broken turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 60 }), ending, fc.nat(), options, late, async (choices, picks, end, at, opts, after) => {
        const merged = interleave(choices, picks)
        const placed = placeLate(end === 'finish' ? merged : merged.slice(0, at % (merged.length + 1)), after, choices.length, chunk({}))
        const kept = placed.sent
        const chunks: unknown[] = kept.map((m) => chunk(m.delta as never, m.finish ?? null, m.index))
        if (placed.late !== undefined) chunks.splice(placed.late.at, 0, placed.late.chunk)
        if (end === 'malformed') chunks.push({ ...chunk({}), choices: 'x' })
        const broke = end === 'error' || end === 'throw' || end === 'malformed'
        const out: ChatCompletionChunk[] = []
        let error: unknown
        await inTime(
          (async () => {
            try {
              for await (const c of sieveChatStream(sourceOf(chunks as ChatCompletionChunk[], broke && end !== 'malformed' ? new UpstreamBroke('cut') : undefined), { ...opts, generateId: counter('rc_') })) out.push(c as ChatCompletionChunk)
            } catch (e) {
              error = e
            }
          })(),
        )
        const anyNative = placed.checked.some((m) => m.delta.tool_calls !== undefined)
        const codes = [...(end === 'malformed' ? ['invalid-chunk'] : []), ...(anyNative && opts.onConflict !== 'prefer-native' ? ['native-conflict'] : []), ...(opts.streamArguments ? ['call-aborted'] : [])]
        if (error !== undefined) expect(allowedError(error, codes), `unexpected ${String(error)}`).toBe(true)
        if (broke) expect(error, 'a broken stream fails').toBeDefined()
        if (placed.late?.chunk.usage !== undefined && error === undefined) expect(out.some((c) => c.usage === lateUsage), 'the usage after a finish goes out').toBe(true)
        if (error instanceof UpstreamBroke || (error as { code?: string })?.code === 'invalid-chunk' || error === undefined) {
          for (const [index] of choices.entries()) checkChoice(index, placed.checked, out, opts, broke)
        }
        if (error === undefined && end === 'finish') await sdkReads(out)
      }),
      { seed: SEED, numRuns: 250 * RUNS },
    )
  })
})

async function sdkReads(out: readonly ChatCompletionChunk[]): Promise<void> {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of out) c.enqueue(new TextEncoder().encode(JSON.stringify(chunk) + '\n'))
      c.close()
    },
  })
  await ChatCompletionStream.fromReadableStream(body).finalChatCompletion()
}

describe('sieveMessagesStream under fuzz', () => {
  it('should support any stream, ended any way, giving every character once and no call of a broken message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(textOrNative, { minLength: 1, maxLength: 4 }), ending, fc.nat(), options, async (blocks, end, at, opts) => {
        const all = upstream(blocks.map((b, i) => (b === 'native' ? nativeCall('ls', { n: i }, `toolu_native${i}`) : cutAt(apart(b.answer, i), b.cuts))))
        const kept = end === 'finish' ? all : all.slice(0, 1 + (at % (all.length - 1)))
        const events = [...kept, ...(end === 'error' ? [overloaded] : end === 'malformed' ? [{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 42 } } as never] : [])]
        // after message_delta the content is whole: a break then cuts no text
        const broke = (end === 'error' || end === 'throw' || end === 'malformed') && !kept.some((e) => e.type === 'message_delta')
        const out: MessagesStreamEvent[] = []
        let error: unknown
        await inTime(
          (async () => {
            try {
              for await (const e of sieveMessagesStream(sourceOf(events, end === 'throw' ? new UpstreamBroke('cut') : undefined), { ...opts, generateId: counterIds() })) out.push(e)
            } catch (e) {
              error = e
            }
          })(),
        )
        const natives = kept.filter((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use').length
        const codes = [...(end === 'malformed' ? ['invalid-chunk'] : []), ...(natives > 0 && opts.onConflict !== 'prefer-native' ? ['native-conflict'] : []), ...(opts.streamArguments ? ['call-aborted'] : [])]
        if (error !== undefined) expect(allowedError(error, codes), `unexpected ${String(error)}`).toBe(true)
        if (end === 'throw' || end === 'malformed') expect(error, 'a broken stream fails').toBeDefined()
        if (error !== undefined && !(error instanceof UpstreamBroke) && (error as { code?: string }).code !== 'invalid-chunk') return
        // nothing after the message's end, or after the error event upstream sent last
        const last = out.findIndex((e) => e.type === 'message_stop' || e.type === 'error')
        expect(last === -1 || last === out.length - 1, `nothing after ${out[last]?.type}`).toBe(true)
        // the upstream's text, a segment per run of text blocks (a native block ends one)
        const segments: Array<{ text: string; first: boolean }> = []
        let texts = 0
        for (const e of kept) {
          if (e.type === 'content_block_start' && (e.content_block.type !== 'text' || segments.length === 0)) segments.push({ text: '', first: false })
          if (e.type === 'content_block_start' && e.content_block.type === 'text' && texts++ === 0) segments.at(-1)!.first = true
          if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') segments.at(-1)!.text += e.delta.text
        }
        const raws = new Map<string, string>()
        const sieveOptions = resolveAdapterOptions(opts).sieve
        // reasoning is read only at the start of the message's first text block; a native block ended the text before it, so only the last text is cut
        for (const [i, s] of segments.entries()) rawsOf(s.text, s.first ? sieveOptions : { ...sieveOptions, reasoning: false, startInReasoning: false }, broke && i === segments.length - 1).forEach((raw, v) => raws.set(v, raw))
        const said: Said[] = []
        const calls = new Map<number, Said & { call: string; done: boolean }>()
        let nativesOut = 0
        for (const e of out) {
          if (e.type === 'content_block_start' && e.content_block.type === 'tool_use') {
            if (e.content_block.id.startsWith('toolu_native')) nativesOut++
            else calls.set(e.index, said[said.push({ call: '', done: false }) - 1] as Said & { call: string; done: boolean })
          } else if (e.type === 'content_block_delta') {
            if (e.delta.type === 'text_delta') said.push({ text: e.delta.text })
            else if (e.delta.type === 'thinking_delta') said.push({ text: e.delta.thinking })
            else if (e.delta.type === 'input_json_delta' && calls.has(e.index)) calls.get(e.index)!.call += e.delta.partial_json
          } else if (e.type === 'content_block_stop' && calls.has(e.index)) calls.get(e.index)!.done = true
        }
        expect(nativesOut, 'native calls pass').toBe(natives)
        // a rescued call stopped is a finished call: never one the break cut
        for (const c of calls.values()) if (c.done) expect(raws.has(JSON.parse(c.call).v), `a stopped call is whole: ${c.call}`).toBe(true)
        const prefer = opts.onConflict === 'prefer-native'
        const sent = segments.map((x) => x.text).join('')
        const lost = account(sent, raws, said, { moved: prefer, dropped: prefer && natives > 0, broke })
        expect(lost, `${JSON.stringify(sent)} → ${JSON.stringify(said)}`).toBeUndefined()
        if (end === 'finish' && error === undefined) {
          checkWire(out)
          const stop = out.find((e) => e.type === 'message_delta')
          const rescued = [...calls.values()].some((c) => c.done)
          expect(stop?.type === 'message_delta' && stop.delta.stop_reason).toBe(rescued ? 'tool_use' : 'end_turn')
          await sdkRead(out)
        }
      }),
      { seed: SEED, numRuns: 250 * RUNS },
    )
  })
})
