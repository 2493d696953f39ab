/**
 * The adapters' options, and `quoted` above all, given values no JSON could
 * spell: a revoked proxy (on which even `Array.isArray` throws), getters
 * that throw, objects whose `toString` is data, holes and nulls. Each is
 * refused with `invalid-option` naming the field as the caller wrote it, or
 * read as absent; never a raw `TypeError`.
 */
import { describe, expect, it } from 'vitest'
import { resolveAdapterOptions } from '../../src/adapters/options.js'
import { quotedTexts } from '../../src/adapters/quoted.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { sieveChatCompletion } from '../../src/openai/index.js'
import { refusal } from '../helpers/refusal.js'

function revoked(): object {
  const p = Proxy.revocable({}, {})
  p.revoke()
  return p.proxy
}

function throwingGetter(key: string, base: Record<string, unknown> = {}): object {
  return Object.defineProperty({ ...base }, key, { get: () => { throw new Error('getter') }, enumerable: true })
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })

describe('quoted entries that cannot be read', () => {
  it('should not support a revoked proxy as a message: invalid-option naming its index', () => {
    for (const run of [() => resolveAdapterOptions({ quoted: ['a', revoked()] as never }), () => quotedTexts(['a', revoked()])]) {
      expect(refusal(run)).toMatchObject({ code: 'invalid-option', field: 'quoted[1]' })
    }
  })

  it('should not support a revoked proxy as the quoted list itself: invalid-option naming quoted', () => {
    expect(refusal(() => resolveAdapterOptions({ quoted: revoked() as never }))).toMatchObject({ code: 'invalid-option', field: 'quoted' })
  })

  it('should not support a revoked proxy as a message content or a content part: invalid-option naming the message', () => {
    expect(refusal(() => quotedTexts([{ role: 'user', content: revoked() }]))).toMatchObject({ code: 'invalid-option', field: 'quoted[0]' })
    expect(refusal(() => quotedTexts([user('a'), { role: 'user', content: [revoked()] }]))).toMatchObject({ code: 'invalid-option', field: 'quoted[1]' })
  })

  it('should not support getters that throw on a message, its content or a part: invalid-option naming the message', () => {
    const messages = [throwingGetter('role'), throwingGetter('content', { role: 'user' }), { role: 'user', content: [throwingGetter('text', { type: 'text' })] }]
    for (const m of messages) expect(refusal(() => resolveAdapterOptions({ quoted: ['a', m] as never }))).toMatchObject({ code: 'invalid-option', field: 'quoted[1]' })
  })

  it('should not support a list whose entries or length cannot be read: invalid-option naming the entry or the list', () => {
    const entry = new Proxy(['a', 'b'], { get: (t, k) => (k === '1' ? revoked() : Reflect.get(t, k)) })
    expect(refusal(() => quotedTexts(entry))).toMatchObject({ code: 'invalid-option', field: 'quoted[1]' })
    const throwing = new Proxy(['a', 'b'], { get: (t, k) => { if (k === '1') throw new Error('entry'); return Reflect.get(t, k) } })
    expect(refusal(() => quotedTexts(throwing))).toMatchObject({ code: 'invalid-option', field: 'quoted[1]' })
    const length = new Proxy(['a'], { get: (t, k) => (k === 'length' ? { toString: 0, valueOf: 0 } : Reflect.get(t, k)) })
    expect(refusal(() => quotedTexts(length))).toMatchObject({ code: 'invalid-option', field: 'quoted' })
  })

  it('should not support a thrown revoked proxy being let out: invalid-option naming the message', () => {
    const m = Object.defineProperty({}, 'role', { get: () => { throw revoked() } })
    expect(refusal(() => quotedTexts([m]))).toMatchObject({ code: 'invalid-option', field: 'quoted[0]' })
  })

  it('should support messages, contents and parts whose toString is not callable: read for their text, or skipped', () => {
    const odd = { toString: 0, valueOf: 0 }
    const texts = quotedTexts(['a', odd, { ...odd, role: 'user', content: [odd, { type: 'text', text: 'b' }, { type: odd, text: 'c' }] }, { role: odd, content: 'd' }, { role: 'user', content: odd }])
    expect(texts).toEqual(['a', 'b'])
    expect(resolveAdapterOptions({ quoted: [odd] as never }).sieve.quoted).toEqual([])
  })

  it('should support holes in the quoted list: skipped, as before', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(quotedTexts(['a', , user('b')] as never)).toEqual(['a', 'b'])
  })

  it('should support the middleware refusing a revoked proxy in its quoted option at creation', () => {
    expect(refusal(() => toolsieveMiddleware({ quoted: [revoked()] as never }))).toMatchObject({ code: 'invalid-option', field: 'quoted[0]' })
  })

  it('should support the OpenAI adapter refusing a revoked proxy in quoted before reading the completion', () => {
    expect(refusal(() => sieveChatCompletion({ choices: [] } as never, { quoted: [revoked()] as never }))).toMatchObject({ code: 'invalid-option', field: 'quoted[0]' })
  })
})

describe('the list a quoted source came from', () => {
  it('should support naming the caller\'s own list in the field: a null message or a number prompt read as the prompt', () => {
    expect(refusal(() => quotedTexts([user('a'), null], 'prompt'))).toMatchObject({ code: 'invalid-option', field: 'prompt[1]' })
    expect(refusal(() => quotedTexts(5, 'prompt'))).toMatchObject({ code: 'invalid-option', field: 'prompt', message: expect.stringMatching(/^prompt: /) })
  })

  it('should support the quoted option keeping its own name by default', () => {
    expect(refusal(() => quotedTexts([null]))).toMatchObject({ code: 'invalid-option', field: 'quoted[0]' })
  })

  it('should support an assistant message whose content is null beside its tool_calls, as OpenAI writes it: it quotes nothing, the user\'s example still is', () => {
    const example = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="ls">\n<｜DSML｜parameter name="dir" string="true">a</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    const messages = [{ role: 'user', content: `Run this: ${example}` }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"dir":"b"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }]
    expect(quotedTexts(messages)).toEqual([`Run this: ${example}`])
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: example, refusal: null } }] }
    const message = sieveChatCompletion(completion as Parameters<typeof sieveChatCompletion>[0], { quoted: messages }).choices[0]!.message
    expect(message.content).toBe(example)
    expect(message.tool_calls).toBeUndefined()
  })
})

describe('adapter options that cannot be read', () => {
  for (const field of ['tools', 'thinking', 'onConflict', 'onDiagnostic', 'trimBlankLines', 'streamArguments'] as const) {
    it(`should not support a revoked proxy as ${field}: invalid-option naming it`, () => {
      expect(refusal(() => resolveAdapterOptions({ [field]: revoked() } as never))).toMatchObject({ code: 'invalid-option', field })
    })

    it(`should not support a getter that throws for ${field}: invalid-option naming it`, () => {
      expect(refusal(() => resolveAdapterOptions(throwingGetter(field) as never))).toMatchObject({ code: 'invalid-option', field })
    })
  }

  it('should not support a revoked proxy as the options: invalid-option for the options', () => {
    expect(refusal(() => resolveAdapterOptions(revoked() as never))).toMatchObject({ code: 'invalid-option', field: '' })
  })

  it('should not support a tool entry that is a revoked proxy or has a getter that throws: invalid-option naming the entry', () => {
    expect(refusal(() => resolveAdapterOptions({ tools: ['a', revoked()] as never }))).toMatchObject({ code: 'invalid-option', field: 'tools[1]' })
    expect(refusal(() => resolveAdapterOptions({ tools: ['a', throwingGetter('type')] as never }))).toMatchObject({ code: 'invalid-option', field: 'tools[1]' })
  })

  it('should support null in every adapter field and nested option: read as absent', () => {
    const r = resolveAdapterOptions({ tools: [{ type: 'function', name: 'a', parameters: null }], thinking: null, quoted: null, onConflict: null, onDiagnostic: null, trimBlankLines: null })
    expect(r).toMatchObject({ onConflict: 'error', trimBlankLines: true, streamArguments: false, onDiagnostic: undefined })
    expect(r.sieve.quoted ?? undefined).toBeUndefined()
    expect(r.sieve.tools).toEqual([{ name: 'a' }])
  })
})

describe('the AI SDK middleware given a revoked proxy as a message', () => {
  it('should support transformParams passing it through as it came, with quoted off', async () => {
    const m = toolsieveMiddleware({ transformParams: true, quoted: false })
    const bad = revoked()
    const out = (await m.transformParams({ type: 'stream', params: { prompt: [user('Go.'), bad] } as never })) as { prompt: unknown[] }
    expect(out.prompt.at(-1)).toBe(bad)
  })

  it('should not support it in the prompt read for the default quoted: a ToolsieveError invalid-option, never a TypeError', async () => {
    const m = toolsieveMiddleware({ transformParams: true })
    await expect(m.transformParams({ type: 'stream', params: { prompt: [user('Go.'), revoked()] } as never })).rejects.toMatchObject({ name: 'ToolsieveError', code: 'invalid-option', field: 'prompt[1]' })
  })

  it('should not support a null message in the prompt read for the default quoted: invalid-option naming the prompt\'s entry, not quoted', async () => {
    const m = toolsieveMiddleware({ transformParams: true })
    await expect(m.transformParams({ type: 'stream', params: { prompt: [null, user('Go.')] } as never })).rejects.toMatchObject({ name: 'ToolsieveError', code: 'invalid-option', field: 'prompt[0]' })
  })
})
