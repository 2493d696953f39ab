/**
 * The adapters' fuzz, continued: the Responses stream, the AI SDK
 * middleware and `sieveFetch` (read through the real `openai` client), held
 * to the same promises as the chat and Messages streams in
 * `adapters-fuzz.test.ts`: only the errors the docs name, no hang, nothing
 * after a terminal event, no call shown complete from a broken answer, and
 * every upstream character out once (see `account`).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveResponsesStream, type OpenAIAdapterOptions } from '../../src/openai/index.js'
import { sieveFetch } from '../../src/fetch/index.js'
import { toolsieveMiddleware, type ToolsieveMiddlewareOptions } from '../../src/ai-sdk/index.js'
import { resolveAdapterOptions } from '../../src/adapters/index.js'
import { account, rawsOf, allowedError, answer, apart, cutAt, cutStream, ending, inTime, sourceOf, textOrNative, UpstreamBroke, type Said } from './fuzz-helpers.js'
import { counter } from './openai-helpers.js'
import { checkChoice, choice, interleave, late, lateUsage, placeLate, type Sent } from './fuzz-chat.js'
import { readItems, responseEvents } from './openai-responses-helpers.js'
import { loadLines, usage } from './ai-sdk-helpers.js'
import { bodyOf, chatChunk, sseHeaders, stubFetch } from '../fetch/helpers.js'

const SEED = Number(process.env.FUZZ_SEED ?? 20240611)
const RUNS = Number(process.env.FUZZ_RUNS ?? 1)
const optionSets: OpenAIAdapterOptions[] = [
  { trimBlankLines: false },
  { trimBlankLines: false, onConflict: 'prefer-native' },
  { trimBlankLines: false, streamArguments: true },
  { trimBlankLines: false, streamArguments: true, onConflict: 'prefer-native' },
  { trimBlankLines: false, thinking: true },
]
const options = fc.nat(optionSets.length - 1).map((i) => optionSets[i]!)
const codesFor = (end: string, natives: boolean, opts: OpenAIAdapterOptions) => [...(end === 'malformed' ? ['invalid-chunk'] : []), ...(natives && opts.onConflict !== 'prefer-native' ? ['native-conflict'] : []), ...(opts.streamArguments ? ['call-aborted'] : [])]

type Ev = Record<string, any> & { type: string }

describe('sieveResponsesStream under fuzz', () => {
  it('should support any stream, ended any way, giving every character once and no call of a broken response', async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), ending, fc.nat(), fc.boolean(), options, async (text, cuts, native, end, at, inText, opts) => {
        const before = native ? [{ type: 'function_call', id: 'fc_nat', call_id: 'nat_0', name: 'ls', arguments: '{"n":1}', status: 'completed' }] : []
        const all = responseEvents(cutAt(text, cuts), { before, completed: true }) as unknown as Ev[]
        const kept = end === 'finish' ? all : cutStream(all, at, inText, (e) => e.type === 'response.output_text.delta')
        // malformed: a text delta that is not a string while the message is read, else an event that is not an object
        const reading = kept.some((e) => e.type === 'response.output_item.added' && e.item?.type === 'message') && !kept.some((e) => e.type === 'response.output_text.done')
        const badDelta = { type: 'response.output_text.delta', item_id: 'msg_1', output_index: before.length, content_index: 0, delta: 42, logprobs: [] }
        const tail: unknown[] = end === 'error' ? [{ type: 'error', code: 'server_error', message: 'overloaded', param: null }] : end === 'malformed' ? [reading ? badDelta : 42] : []
        const events = [...kept, ...tail].map((e, i) => (typeof e === 'object' ? { ...e, sequence_number: i } : e))
        const breaking = end === 'error' || end === 'throw' || end === 'malformed'
        // the text part's sieve ends at output_text.done: a break after it cuts no text
        const broke = breaking && !kept.some((e) => e.type === 'response.output_text.done')
        const out: Ev[] = []
        let error: unknown
        await inTime(
          (async () => {
            try {
              for await (const e of sieveResponsesStream(sourceOf(events as unknown as ResponseStreamEvent[], end === 'throw' ? new UpstreamBroke('cut') : undefined), { ...opts, generateId: counter('rc_') })) out.push(e as unknown as Ev)
            } catch (e) {
              error = e
            }
          })(),
        )
        const natives = kept.filter((e) => e.type === 'response.output_item.added' && e.item?.type === 'function_call').length
        if (error !== undefined) expect(allowedError(error, codesFor(end, natives > 0, opts)), `unexpected ${String(error)}`).toBe(true)
        if (end === 'throw' || end === 'malformed') expect(error, 'a broken stream fails').toBeDefined()
        if (error !== undefined && !(error instanceof UpstreamBroke) && (error as { code?: string }).code !== 'invalid-chunk') return
        const last = out.findIndex((e) => e.type === 'response.completed' || e.type === 'response.failed' || e.type === 'error')
        expect(last === -1 || last === out.length - 1, `nothing after ${out[last]?.type}`).toBe(true)
        const sent = kept.map((e) => (e.type === 'response.output_text.delta' ? (e.delta as string) : '')).join('')
        const said: Said[] = []
        const calls = new Map<number, Said & { call: string; done: boolean }>()
        let nativesOut = 0
        for (const e of out) {
          if (e.type === 'response.output_item.added' && e.item?.type === 'function_call') {
            if (e.item.call_id === 'nat_0') nativesOut++
            else calls.set(e.output_index, said[said.push({ call: '', done: false }) - 1] as Said & { call: string; done: boolean })
          } else if (e.type === 'response.output_text.delta' || e.type === 'response.reasoning_text.delta') said.push({ text: e.delta })
          else if (e.type === 'response.function_call_arguments.delta' && calls.has(e.output_index)) calls.get(e.output_index)!.call += e.delta
          else if (e.type === 'response.output_item.done' && calls.has(e.output_index)) {
            const c = calls.get(e.output_index)!
            c.done = true
            expect(e.item.arguments, 'the done item holds the streamed arguments').toBe(c.call)
          }
        }
        expect(nativesOut, 'native calls pass').toBe(natives)
        const raws = rawsOf(sent, resolveAdapterOptions(opts).sieve, broke)
        for (const c of calls.values()) if (c.done) expect(raws.has(JSON.parse(c.call).v), `a done call is whole: ${c.call}`).toBe(true)
        const prefer = opts.onConflict === 'prefer-native'
        const lost = account(sent, raws, said, { moved: prefer, dropped: prefer && natives > 0, broke })
        expect(lost, `${JSON.stringify(sent)} → ${JSON.stringify(said)}`).toBeUndefined()
        if (end === 'finish' && error === undefined) readItems(out as unknown as ResponseStreamEvent[])
      }),
      { seed: SEED, numRuns: 250 * RUNS },
    )
  })
})

const [line] = await loadLines()

describe('toolsieveMiddleware().wrapStream under fuzz', () => {
  it('should support any stream, ended any way, giving every character once and no call of a broken answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(textOrNative, { minLength: 1, maxLength: 4 }), ending, fc.nat(), fc.boolean(), options, async (blocks, end, at, inText, opts) => {
        const all: Ev[] = [{ type: 'stream-start', warnings: [] }]
        for (const [i, b] of blocks.entries()) {
          if (b === 'native') all.push({ type: 'tool-call', toolCallId: `nat_${i}`, toolName: 'ls', input: '{"n":1}' })
          else all.push({ type: 'text-start', id: `t${i}` }, ...cutAt(apart(b.answer, i), b.cuts).map((delta) => ({ type: 'text-delta', id: `t${i}`, delta })), { type: 'text-end', id: `t${i}` })
        }
        all.push({ type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } })
        const kept = end === 'finish' ? all : cutStream(all, at, inText, (p) => p.type === 'text-delta')
        const open = [...kept].reverse().find((p) => p.type === 'text-start' || p.type === 'text-end')
        const tail: Ev[] = end === 'error' ? [{ type: 'error', error: { message: 'overloaded' } }] : end === 'malformed' ? [{ type: 'text-delta', id: open?.type === 'text-start' ? open.id : 'tx', delta: 42 }] : []
        const parts = [...kept, ...tail]
        // an error part or a failure ends the run of text open then (the finish ends it whole; a close without one, leniently)
        const broke = end === 'error' || end === 'throw' || end === 'malformed'
        let i = 0
        const upstreamParts = new ReadableStream<unknown>({
          pull(c) {
            if (i < parts.length) c.enqueue(parts[i++])
            else if (end === 'throw') c.error(new UpstreamBroke('cut'))
            else c.close()
          },
        })
        const out: Ev[] = []
        let error: unknown
        await inTime(
          (async () => {
            const { stream } = await toolsieveMiddleware({ ...opts, generateId: counter('rc_') } as ToolsieveMiddlewareOptions).wrapStream({ doStream: async () => ({ stream: upstreamParts }), params: { prompt: [] } } as never)
            const reader = (stream as ReadableStream<Ev>).getReader()
            try {
              for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value)
            } catch (e) {
              error = e
            }
          })(),
        )
        const natives = kept.filter((p) => p.type === 'tool-call').length
        if (error !== undefined) expect(allowedError(error, codesFor(end, natives > 0, opts)), `unexpected ${String(error)}`).toBe(true)
        if (end === 'throw' || end === 'malformed') expect(error, 'a broken stream fails').toBeDefined()
        if (error !== undefined && !(error instanceof UpstreamBroke) && (error as { code?: string }).code !== 'invalid-chunk') return
        const finishAt = out.findIndex((p) => p.type === 'finish')
        expect(finishAt === -1 || finishAt === out.length - 1, 'nothing after the finish').toBe(true)
        const errorAt = out.findIndex((p) => p.type === 'error')
        if (errorAt >= 0) expect(out.slice(errorAt + 1).filter((p) => p.type !== 'text-end'), 'nothing after the error part but closing text').toEqual([])
        // the upstream's text, a segment per run of text parts (any other part ends one)
        const segments: Array<{ text: string; first: boolean }> = []
        let texts = 0
        let inRun = false
        for (const p of kept) {
          if (p.type === 'text-start' || p.type === 'text-delta' || p.type === 'text-end') {
            if (!inRun) segments.push({ text: '', first: texts === 0 })
            if (p.type === 'text-start') texts++
            inRun = true
            if (p.type === 'text-delta') segments.at(-1)!.text += p.delta
          } else if (p.type !== 'stream-start') inRun = false
        }
        const sieveOptions = resolveAdapterOptions(opts).sieve
        const raws = new Map<string, string>()
        for (const [k, s] of segments.entries()) rawsOf(s.text, s.first ? sieveOptions : { ...sieveOptions, startInReasoning: false }, broke && inRun && k === segments.length - 1).forEach((raw, v) => raws.set(v, raw))
        const said: Said[] = []
        const calls = new Map<string, Said & { call: string; done: boolean }>()
        const abandoned = new Set<Said>()
        let nativesOut = 0
        for (const p of out) {
          if (p.type === 'tool-call' && String(p.toolCallId).startsWith('nat_')) nativesOut++
          else if (p.type === 'tool-input-start') calls.set(p.id, said[said.push({ call: '', done: false }) - 1] as Said & { call: string; done: boolean })
          else if (p.type === 'tool-input-delta' && calls.has(p.id)) calls.get(p.id)!.call += p.delta
          else if (p.type === 'tool-call') {
            const c = calls.get(p.toolCallId)
            expect(c?.call, 'a tool-call follows its streamed input').toBe(p.input)
            c!.done = true
          } else if (p.type === 'tool-input-end' && calls.has(p.id)) abandoned.add(calls.get(p.id)!)
          else if (p.type === 'text-delta' || p.type === 'reasoning-delta') said.push({ text: p.delta })
        }
        // a call whose block failed: its input ends with no tool-call, and its markup follows as text (documented)
        for (const c of calls.values()) if (c.done) abandoned.delete(c)
        const shown = said.filter((s) => !abandoned.has(s as never))
        expect(nativesOut, 'native calls pass').toBe(natives)
        for (const c of calls.values()) if (c.done) expect(raws.has(JSON.parse(c.call).v), `a call is whole: ${c.call}`).toBe(true)
        const prefer = opts.onConflict === 'prefer-native'
        const sent = segments.map((s) => s.text).join('')
        const lost = account(sent, raws, shown, { moved: prefer, dropped: prefer && natives > 0, broke: broke && inRun })
        expect(lost, `${JSON.stringify(sent)} → ${JSON.stringify(shown)}`).toBeUndefined()
        if (end === 'finish' && error === undefined) await sdkStreams(out)
      }),
      { seed: SEED, numRuns: 250 * RUNS },
    )
  })
})

/** The AI SDK's `streamText` reads the parts to their end with no error, its finish reason as the middleware wrote it. */
async function sdkStreams(out: readonly Ev[]): Promise<void> {
  const { ai, Mock, stream } = line!
  const tool = () => ai.tool({ inputSchema: ai.jsonSchema({ type: 'object' }) })
  const result = ai.streamText({ model: new Mock({ doStream: { stream: stream([...out]) } }) as never, prompt: 'Go.', tools: { ls: tool(), read_file: tool(), run: tool() } })
  for await (const p of result.fullStream) if (p.type === 'error') throw new Error(`the SDK read an error: ${String((p as { error: unknown }).error)}`)
  expect(await result.finishReason).toBe((out.at(-1) as unknown as { finishReason: { unified: string } }).finishReason.unified)
}

const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`

describe('sieveFetch under fuzz, read through the openai client', () => {
  it('should support any event stream, ended any way, giving every character once and no call of a broken turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { minLength: 1, maxLength: 2 }), fc.array(fc.nat(), { maxLength: 40 }), ending, fc.nat(), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), options, late, async (choices, picks, end, at, inText, byteCuts, opts, after) => {
        const merged = interleave(choices, picks)
        const placed = placeLate(end === 'finish' ? merged : inText ? cutStream(merged, at, true, (m) => typeof m.delta.content === 'string' && m.delta.content !== '') : merged.slice(0, at % (merged.length + 1)), after, choices.length, chatChunk({}))
        const kept = placed.sent
        const chunkOf = (m: Sent) => {
          const c = chatChunk(m.delta, m.finish ?? null)
          return { ...c, choices: [{ ...c.choices[0]!, index: m.index }] }
        }
        const frames = kept.map((m) => frame(chunkOf(m)))
        if (placed.late !== undefined) frames.splice(placed.late.at, 0, frame(placed.late.chunk))
        let sse = frames.join('')
        if (end === 'finish') sse += 'data: [DONE]\n\n'
        if (end === 'error') sse += frame({ error: { message: 'overloaded', type: 'server_error' } })
        // a chunk of another shape passes unread (documented); one with a native call the adapter cannot read ends the stream
        if (end === 'malformed') sse += frame({ ...chatChunk({}), choices: [{ index: choices.length, delta: { tool_calls: [{ id: 'n1', function: { name: 'ls' } }] }, finish_reason: null }] })
        // the body cut at random bytes (a character's UTF-8 bytes may be split), failing at the end for `throw`
        const bytes = new TextEncoder().encode(sse)
        const at8 = [...new Set(byteCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        const pieces: Array<Uint8Array | Error> = [0, ...at8].map((from, k, all) => bytes.subarray(from, all[k + 1] ?? bytes.length)).filter((b) => b.length > 0)
        if (end === 'throw') pieces.push(new UpstreamBroke('cut'))
        // `thinking` comes from each request's body
        const { thinking, ...fetchOpts } = opts
        const stub = stubFetch(() => new Response(bodyOf(pieces), { status: 200, headers: sseHeaders }))
        const client = new OpenAI({ apiKey: 'test', baseURL: 'http://upstream.test/v1', maxRetries: 0, fetch: sieveFetch({ ...fetchOpts, generateId: counter('rc_') }, stub.fetch) })
        const broke = end === 'error' || end === 'throw' || end === 'malformed'
        const out: ChatCompletionChunk[] = []
        let error: unknown
        await inTime(
          (async () => {
            try {
              const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Go.' }], stream: true, ...(thinking === undefined ? {} : { thinking }) } as never)
              for await (const c of stream as unknown as AsyncIterable<ChatCompletionChunk>) out.push(c)
            } catch (e) {
              error = e
            }
          })(),
        )
        const anyNative = placed.checked.some((m) => m.delta.tool_calls !== undefined)
        const codes = codesFor(end, anyNative, opts)
        if (error !== undefined) expect(fetchError(error, codes), `unexpected ${String(error)}`).toBe(true)
        if (broke) expect(error, 'a broken stream fails').toBeDefined()
        if (placed.late?.chunk.usage !== undefined && error === undefined) expect(out.map((c) => c.usage), 'the usage after a finish goes out').toContainEqual(lateUsage)
        const ours = error instanceof OpenAI.APIError && codes.includes(String(error.code)) && error.code !== 'invalid-chunk'
        if (!ours) for (const [index] of choices.entries()) checkChoice(index, placed.checked, out, opts, broke)
        if (error === undefined && end === 'finish') {
          const body = new ReadableStream<Uint8Array>({
            start(c) {
              for (const chunk of out) c.enqueue(new TextEncoder().encode(JSON.stringify(chunk) + '\n'))
              c.close()
            },
          })
          const { ChatCompletionStream } = await import('openai/lib/ChatCompletionStream')
          await ChatCompletionStream.fromReadableStream(body).finalChatCompletion()
        }
      }),
      { seed: SEED, numRuns: 250 * RUNS },
    )
  })
})

/** What the client may throw: upstream's own error event or failure, or the repair's error event with a code that fits. */
function fetchError(error: unknown, codes: readonly string[]): boolean {
  if (allowedError(error, codes)) return true
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof UpstreamBroke) return true
  if (!(error instanceof OpenAI.APIError)) return false
  const body = error.error as { type?: string } | undefined
  return body?.type === 'server_error' || (body?.type === 'toolsieve_error' && codes.includes(String(error.code)))
}
