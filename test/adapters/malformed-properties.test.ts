/**
 * Property: whatever garbage upstream sends (a valid stream with any field,
 * or a whole event, replaced by random JSON-ish values), every adapter
 * either goes on or throws a ToolsieveError `invalid-chunk`: never a
 * TypeError or any other error.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sieveMessage, sieveMessagesStream, type MessagesStreamEvent } from '../../src/anthropic/index.js'
import { ToolsieveError } from '../../src/errors.js'
import { sieveChatCompletion, sieveChatStream, sieveResponse, sieveResponsesStream } from '../../src/openai/index.js'
import { generated, textStream } from './ai-sdk-helpers.js'
import { messageShell, upstream } from './anthropic-helpers.js'
import { answer, collect, cut, iterate } from './openai-helpers.js'
import { responseEvents } from './openai-responses-helpers.js'
import { drain, readableOf } from './stream-helpers.js'
import { hostile, paths, setAt } from '../helpers/hostile.js'

const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const text = `<think>plan</think>\n\nLet me look.\n\n${call}\n\nDone.`
const pieces = cut(text, 23)


/** Values a broken server could put anywhere. */
const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, '', 'x', 0, -1, 1.5, Number.NaN, true, false, [], {}, [null], [{}], { type: 'text_delta' }, { index: 'x' }, ...hostile),
  fc.jsonValue({ maxDepth: 2 }),
)

/** One mutation: which item, which of its paths (both taken modulo), and what goes there. */
const mutation = fc.record({ item: fc.nat(), path: fc.nat(), value: garbage })

/** `items` with the mutations applied, in order, each to one item's field. */
function mutate(items: readonly unknown[], mutations: ReadonlyArray<{ item: number; path: number; value: unknown }>): unknown[] {
  const out = [...items]
  for (const m of mutations) {
    const i = m.item % out.length
    const all = paths(out[i])
    out[i] = setAt(out[i], all[m.path % all.length]!, m.value)
  }
  return out
}

/**
 * The run ends, or fails with invalid-chunk; anything else fails the
 * property, but for `invalid-option` naming the argument when the whole
 * response given is not one (`argument`).
 */
async function onlyInvalidChunk(run: () => unknown, argument: string | null): Promise<void> {
  try {
    await run()
  } catch (e) {
    if (!(e instanceof ToolsieveError)) throw e
    if (e.code === 'invalid-option' && argument !== null && e.field === argument) return
    if (e.code !== 'invalid-chunk') throw e
    expect(typeof e.field).toBe('string')
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const completion = { id: 'c1', object: 'chat.completion', created: 1, model: 'deepseek', choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }] }
const response = { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }], output_text: text }
const message = { ...messageShell(), content: [{ type: 'text', text, citations: null }], stop_reason: 'end_turn' }

/** Each adapter with a valid input (a list of items: chunks, events, parts, or one whole response) and how to run it. */
const adapters: Array<{ name: string; items: unknown[]; run: (items: unknown[]) => unknown; argument?: (items: unknown[]) => string | null }> = [
  { name: 'sieveChatStream', items: [...answer(pieces), { id: 'u', choices: [], usage: { total_tokens: 3 } }], run: (items) => collect(sieveChatStream(iterate(items) as never)) },
  { name: 'sieveChatCompletion', items: [completion], run: (items) => sieveChatCompletion(items[0] as never), argument: (items) => (isRecord(items[0]) ? null : 'completion') },
  { name: 'sieveResponse', items: [response], run: (items) => sieveResponse(items[0] as never) },
  { name: 'sieveResponsesStream', items: responseEvents(pieces), run: (items) => collect(sieveResponsesStream(iterate(items) as never)) },
  { name: 'sieveMessagesStream', items: upstream([pieces]), run: (items) => collect(sieveMessagesStream(items as MessagesStreamEvent[])) },
  { name: 'sieveMessage', items: [message], run: (items) => sieveMessage(items[0] as never), argument: (items) => (isRecord(items[0]) && Array.isArray(items[0].content) ? null : 'message') },
  {
    name: 'ai-sdk wrapStream',
    items: textStream(pieces),
    run: async (items) => drain((await toolsieveMiddleware().wrapStream({ doStream: async () => ({ stream: readableOf(items) }), params: { prompt: [] } })).stream),
  },
  { name: 'ai-sdk wrapGenerate', items: [generated([{ type: 'text', text }])], run: (items) => toolsieveMiddleware().wrapGenerate({ doGenerate: async () => items[0] as never, params: { prompt: [] } }) },
]

describe('garbage from upstream', () => {
  for (const adapter of adapters) {
    it(`should not support any error but invalid-chunk from ${adapter.name}, whatever field is garbage`, async () => {
      // the valid input runs clean: the property is about the mutations
      await adapter.run(adapter.items)
      await fc.assert(
        fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
          const items = mutate(adapter.items, mutations)
          await onlyInvalidChunk(() => adapter.run(items), adapter.argument?.(items) ?? null)
        }),
        { numRuns: 400 },
      )
    })
  }
})

describe('objects that cannot become a string, in every field', () => {
  for (const adapter of adapters) {
    it(`should not support any error but invalid-chunk from ${adapter.name}, whatever field holds one`, async () => {
      // every path of every item, in turn: a field the adapter turns into text or a number is found whichever it is
      for (const [i, item] of adapter.items.entries()) {
        for (const [p] of paths(item).entries()) {
          for (const value of hostile) {
            const items = mutate(adapter.items, [{ item: i, path: p, value }])
            await onlyInvalidChunk(() => adapter.run(items), adapter.argument?.(items) ?? null)
          }
        }
      }
    })
  }
})

describe('a message id that is not a string', () => {
  it('should not support reading a message whose id is such an object: it passes as it came, its markup text', () => {
    const id = { toString: 0 }
    const item = { ...response.output[0]!, id, content: [{ type: 'output_text', text: 'one', annotations: [] }, { type: 'output_text', text: `two ${call}`, annotations: [] }] }
    const out = sieveResponse({ ...response, output: [item] } as never) as { output: unknown[] }
    expect(out.output).toEqual([item])
  })
})
