/**
 * A key no entry point reads is refused when the entry point is called,
 * as a bad value is (`invalid-option`, `field` the key): a misspelled
 * option (`onInvalide`, `dialects`) would otherwise be ignored and its
 * default used without a word. The message names the option the key may
 * mean (another case, or at most two edits away). One helper
 * (`refuseUnknownOptions`, src/errors.ts) does it for every public function
 * that takes options; each checks against the names it reads.
 */
import { describe, expect, it } from 'vitest'
import { buildToolPrompt, createSieve, formatToolCalls, parseToolCalls, type ToolsieveError } from '../../src/index.js'
import { SieveStream, sieveIterable } from '../../src/stream.js'
import { sieveChatCompletion, sieveChatStream, sieveResponse, sieveResponsesStream } from '../../src/openai/index.js'
import { sieveMessage, sieveMessagesStream, sieveMiddleware } from '../../src/anthropic/index.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { repairResponse, sieveFetch } from '../../src/fetch/index.js'
import { refusal } from '../helpers/refusal.js'

/** What a refusal says: its code, field and message. */
const said = (e: ToolsieveError) => ({ code: e.code, field: e.field, message: e.message })

async function refusedAsync(run: () => Promise<unknown>): Promise<ToolsieveError> {
  let thrown: unknown
  await run().then(
    () => {
      thrown = new Error('not refused')
    },
    (e: unknown) => {
      thrown = e
    },
  )
  return refusal(() => {
    throw thrown
  })
}

const none = (async function* () {})()
const completion = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [] } as never
const message = { id: 'm', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: {} } as never
const response = { id: 'r', object: 'response', output: [] } as never

describe('options that are no option', () => {
  it('should refuse a misspelled createSieve option, naming it and the option it may mean', () => {
    expect(said(refusal(() => createSieve({ onInvalide: 'reject' } as never)))).toEqual({ code: 'invalid-option', field: 'onInvalide', message: 'onInvalide: is not an option (did you mean onInvalid?)' })
    expect(said(refusal(() => createSieve({ dialects: 'hermes' } as never)))).toMatchObject({ field: 'dialects', message: 'dialects: is not an option (did you mean dialect?)' })
    expect(said(refusal(() => createSieve({ CaptureLimit: 10 } as never)))).toMatchObject({ field: 'CaptureLimit', message: 'CaptureLimit: is not an option (did you mean captureLimit?)' })
  })

  it('should refuse an unknown createSieve option with no near name, listing the options', () => {
    const e = refusal(() => createSieve({ bogus: 1 } as never))
    expect(e.field).toBe('bogus')
    expect(e.message).toMatch(/^bogus: is not an option \(expected grammar, dialect, captureLimit, .*streamArguments\)$/)
    // a key JSON.parse made own is a key like any other
    expect(refusal(() => createSieve(JSON.parse('{"__proto__": {"captureLimit": 1}}') as never)).field).toBe('__proto__')
  })

  it('should support known options set to undefined, and symbol or inherited keys', () => {
    expect(() => createSieve({ dialect: undefined, strict: undefined, tools: undefined })).not.toThrow()
    expect(() => createSieve({ [Symbol('x')]: 1 } as never)).not.toThrow()
    expect(() => createSieve(Object.create({ bogus: 1 }) as never)).not.toThrow()
  })

  it('should refuse an unknown parseToolCalls option', () => {
    expect(said(refusal(() => parseToolCalls('x', { stric: true } as never)))).toMatchObject({ code: 'invalid-option', field: 'stric', message: 'stric: is not an option (did you mean strict?)' })
  })

  it('should refuse an unknown formatToolCalls option', () => {
    expect(said(refusal(() => formatToolCalls([], { dialects: 'hermes' } as never)))).toMatchObject({ code: 'invalid-option', field: 'dialects', message: 'dialects: is not an option (did you mean dialect?)' })
  })

  it('should refuse formatToolCalls options that are no object, with invalid-option rather than a TypeError', () => {
    for (const bad of ['hermes', [], 1]) expect(said(refusal(() => formatToolCalls([], bad as never)))).toMatchObject({ code: 'invalid-option', field: 'options' })
  })

  it('should support null formatToolCalls options as not given, as createSieve does', () => {
    expect(formatToolCalls([{ name: 'f', input: {} }], null)).toBe(formatToolCalls([{ name: 'f', input: {} }]))
  })

  it('should refuse an unknown buildToolPrompt option', () => {
    expect(said(refusal(() => buildToolPrompt([], { varient: 'array' } as never)))).toMatchObject({ code: 'invalid-option', field: 'varient', message: 'varient: is not an option (did you mean variant?)' })
  })

  it('should refuse an unknown SieveStream or sieveIterable option', () => {
    expect(refusal(() => new SieveStream({ captureLimt: 5 } as never)).field).toBe('captureLimt')
    expect(refusal(() => sieveIterable([], { captureLimt: 5 } as never)).field).toBe('captureLimt')
  })

  it('should refuse an unknown option of each OpenAI adapter', () => {
    expect(said(refusal(() => sieveChatStream(none, { trimBlankLine: false } as never)))).toMatchObject({ code: 'invalid-option', field: 'trimBlankLine', message: 'trimBlankLine: is not an option (did you mean trimBlankLines?)' })
    expect(refusal(() => sieveChatCompletion(completion, { bogus: 1 } as never)).field).toBe('bogus')
    expect(refusal(() => sieveResponsesStream(none, { bogus: 1 } as never)).field).toBe('bogus')
    expect(refusal(() => sieveResponse(response, { bogus: 1 } as never)).field).toBe('bogus')
  })

  it("should refuse an unknown option of each Anthropic adapter, the adapters' own names suggested", () => {
    const e = refusal(() => sieveMiddleware({ bogus: 1 } as never))
    expect(e).toMatchObject({ code: 'invalid-option', field: 'bogus' })
    expect(e.message).toMatch(/expected .*thinking, trimBlankLines, onConflict, onDiagnostic\)$/)
    expect(refusal(() => sieveMessagesStream([], { onconflict: 'error' } as never)).message).toBe('onconflict: is not an option (did you mean onConflict?)')
    expect(refusal(() => sieveMessage(message, { bogus: 1 } as never)).field).toBe('bogus')
  })

  it('should refuse an unknown toolsieveMiddleware option, its own names suggested', () => {
    expect(said(refusal(() => toolsieveMiddleware({ bogus: 1 } as never)))).toMatchObject({ code: 'invalid-option', field: 'bogus' })
    expect(refusal(() => toolsieveMiddleware({ transformParam: true } as never)).message).toBe('transformParam: is not an option (did you mean transformParams?)')
  })

  it('should refuse fetch in the sieveFetch options, saying the base fetch is the second argument', () => {
    const e = refusal(() => sieveFetch({ fetch: globalThis.fetch } as never))
    expect(said(e)).toEqual({ code: 'invalid-option', field: 'fetch', message: "fetch: is not an option (the base fetch is sieveFetch's second argument: sieveFetch(options, fetch))" })
    expect(refusal(() => sieveFetch({ onReprt: () => {} } as never)).message).toBe('onReprt: is not an option (did you mean onReport?)')
  })

  it('should refuse an unknown repairResponse option, rejecting', async () => {
    const e = await refusedAsync(() => repairResponse('chat', {}, new Response('{}', { headers: { 'content-type': 'application/json' } }), { maxEventsize: 5 } as never))
    expect(said(e)).toMatchObject({ code: 'invalid-option', field: 'maxEventsize', message: 'maxEventsize: is not an option (did you mean maxEventSize?)' })
  })
})
