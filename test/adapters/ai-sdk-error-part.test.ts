/**
 * `toolsieveMiddleware().wrapStream` after an upstream `error` part, by the
 * rule the Responses and Messages streams follow: what the sieve held goes
 * out before the error, as text, and nothing upstream sends after it is
 * read through a sieve. Text for the part the error cut goes out as it came,
 * in a text part started for it (the error closed the middleware's own), and
 * a text part that starts after the error passes as upstream sent it: no
 * call is made of either, and no text is lost or sent twice.
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { awkward, deltaText, dsml, loadLines, middlewareParts, streamTextRun, textsOf, usage, type Part } from './ai-sdk-helpers.js'
import { block, invoke, param } from './openai-helpers.js'

const HELD = 'hello <｜DSML｜too'
const CALL = block(invoke('read_file', param('path', 'a.ts')))
const failure = { type: 'error', error: 'overloaded' }
const finish = { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }
const start = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }]
const deltas = (id: string, chunks: readonly string[]) => chunks.map((delta) => ({ type: 'text-delta', id, delta }))
/** The parts that came out after the upstream's error part. */
const after = (out: readonly Part[]) => out.slice(out.findIndex((p) => p.type === 'error') + 1)
const callParts = (out: readonly Part[]) => out.filter((p) => p.type.startsWith('tool-'))

describe('wrapStream: parts after an upstream error part', () => {
  it('should support late text for the part the error cut going out as it came, in a part started for it: no call, every character once', async () => {
    const head = `Hi ${HELD}`
    const late = [' more ', CALL]
    for (const chunks of [[head], awkward(head), [...head]]) {
      const { out, error } = await middlewareParts([...start, ...deltas('t', chunks), failure, ...deltas('t', late), { type: 'text-end', id: 't' }, finish])
      expect(error).toBeUndefined()
      expect(callParts(out)).toEqual([])
      expect(deltaText(out)).toBe(`${head}${late.join('')}`)
      expect(textsOf(out).violations).toEqual([])
      expect(out.slice(0, out.indexOf(out.find((p) => p.type === 'error')!)).map((p) => p.type).at(-1)).toBe('text-end')
      expect(after(out)).toEqual([
        { type: 'text-start', id: 't-1' },
        ...deltas('t-1', late),
        { type: 'text-end', id: 't-1' },
        finish,
      ])
    }
  })

  it('should support a text part that starts after the error passing as upstream sent it: its start, its deltas, its end', async () => {
    const later = [{ type: 'text-start', id: 'u' }, ...deltas('u', ['Then ', CALL]), { type: 'text-end', id: 'u' }]
    const { out } = await middlewareParts([...start, ...deltas('t', [HELD]), { type: 'text-end', id: 't' }, failure, ...later, finish])
    expect(after(out)).toEqual([...later, finish])
    expect(deltaText(out)).toBe(`${HELD}Then ${CALL}`)
    expect(textsOf(out).violations).toEqual([])
  })

  it('should support late text after an error that cut the reasoning: the reasoning ends before the error, the text is a part of its own', async () => {
    const { out } = await middlewareParts([...start, ...deltas('t', ['<think>plan']), failure, ...deltas('t', [` ${CALL}`]), { type: 'text-end', id: 't' }, finish])
    expect(out.filter((p) => p.type.startsWith('reasoning')).map((p) => p.type)).toEqual(['reasoning-start', 'reasoning-delta', 'reasoning-end'])
    expect(out.findIndex((p) => p.type === 'reasoning-end')).toBeLessThan(out.findIndex((p) => p.type === 'error'))
    expect(callParts(out)).toEqual([])
    expect(deltaText(out)).toBe(` ${CALL}`)
    expect(textsOf(out).violations).toEqual([])
  })

  it('should support late text with no end from upstream: its part ends at the finish', async () => {
    const { out } = await middlewareParts([...start, ...deltas('t', [HELD]), failure, ...deltas('t', [CALL]), finish])
    expect(after(out)).toEqual([{ type: 'text-start', id: 't-1' }, ...deltas('t-1', [CALL]), { type: 'text-end', id: 't-1' }, finish])
    expect(textsOf(out).violations).toEqual([])
  })

  it('should not support a late call becoming one with onConflict prefer-native either: nothing after the error is held for the finish', async () => {
    const { out } = await middlewareParts([...start, ...deltas('t', ['Hi']), failure, ...deltas('t', [CALL]), finish], { onConflict: 'prefer-native' })
    expect(callParts(out)).toEqual([])
    expect(deltaText(out)).toBe(`Hi${CALL}`)
  })
})

for (const loaded of await loadLines()) {
  describe(`streamText after an upstream error part (ai ${loaded.line.major})`, () => {
    it('should support the late text as the step\'s text, no tool run, and no error but upstream\'s', async () => {
      const call = dsml('read_file', { path: 'src/a.ts' })
      const parts = [...start, ...deltas('t', [`Hi ${HELD}`]), failure, ...deltas('t', [` ${call}`]), { type: 'text-end', id: 't' }, finish]
      const { seen, ran } = await streamTextRun(loaded, parts)
      expect(seen.filter((p) => p.type === 'error').map((p) => p.error)).toEqual(['overloaded'])
      expect(seen.filter((p) => p.type === 'tool-call')).toEqual([])
      expect(ran).toEqual([])
      expect(seen.filter((p) => p.type === 'text-delta').map((p) => p.text).join('')).toBe(`Hi ${HELD} ${call}`)
    })
  })
}

/**
 * An upstream that reuses a text part's id after its error. Once a part has
 * ended, ai 6's `streamText` (and its UI message stream) takes a
 * `text-start` with the same id as a new part: a part the middleware
 * passes with an id it used before the error is the upstream's reuse, kept
 * as it came. Two parts open at once under one id are not taken (the
 * second `text-end` finds no part: an error part of the SDK's own), so the
 * part the middleware starts for late text never takes the id of a part
 * upstream has open.
 */
/** Ids of text parts started while another part with the same id was open. */
const openTwice = (out: readonly Part[]) => {
  const open = new Set<unknown>()
  const twice: unknown[] = []
  for (const p of out) {
    if (p.type === 'text-start') {
      if (open.has(p.id)) twice.push(p.id)
      open.add(p.id)
    } else if (p.type === 'text-end') open.delete(p.id)
  }
  return twice
}
/** Upstream reuses `t` for a part after its error. */
const reuse = [...start, ...deltas('t', ['Hi']), { type: 'text-end', id: 't' }, failure, { type: 'text-start', id: 't' }, ...deltas('t', [' again']), { type: 'text-end', id: 't' }, finish]
/** Upstream names a part after its error `t-1`, the id of the part the middleware starts for the cut part's late text. */
const clash = [...start, ...deltas('t', [HELD]), failure, { type: 'text-start', id: 't-1' }, ...deltas('t', [' late']), ...deltas('t-1', [' own']), { type: 'text-end', id: 't-1' }, { type: 'text-end', id: 't' }, finish]

describe('wrapStream: text part ids after an upstream error part', () => {
  it('should support an id upstream reuses after its error passing as it came: the earlier part with that id ended first', async () => {
    const { out } = await middlewareParts(reuse)
    expect(out.filter((p) => p.type === 'text-start').map((p) => p.id)).toEqual(['t', 't'])
    expect(openTwice(out)).toEqual([])
    expect(deltaText(out)).toBe('Hi again')
  })

  it('should not support the part for late text taking the id of a part upstream has open', async () => {
    const { out } = await middlewareParts(clash)
    expect(openTwice(out)).toEqual([])
    expect(deltaText(out)).toBe(`${HELD} late own`)
  })
})

for (const loaded of await loadLines()) {
  describe(`streamText over reused text part ids after an upstream error part (ai ${loaded.line.major})`, () => {
    const cases = [
      // the step's text parts in the order they started: upstream's t-1 before the middleware's part for the late text
      ['an id reused after its part ended', reuse, 'Hi again', ['Hi', ' again']],
      ['a part upstream names t-1 beside late text', clash, `${HELD} late own`, [HELD, ' own', ' late']],
    ] as const
    for (const [name, parts, text, texts] of cases) {
      it(`should support ${name}: no error but upstream's, each part's text in a part of its own`, async () => {
        const model = new loaded.Mock({ doStream: { stream: loaded.stream([...parts]) } })
        const result = loaded.ai.streamText({ model: loaded.ai.wrapLanguageModel({ model: model as never, middleware: toolsieveMiddleware() }), prompt: 'Hi', onError: () => {} })
        const seen: Array<{ type: string; error?: unknown; text?: string }> = []
        for await (const part of result.fullStream) seen.push(part as never)
        expect(seen.filter((p) => p.type === 'error').map((p) => p.error)).toEqual(['overloaded'])
        expect(seen.filter((p) => p.type === 'text-delta').map((p) => p.text).join('')).toBe(text)
        // two parts open under one id are renamed by the SDK: the second takes both parts' text, the first stays empty
        expect((await result.content).filter((c) => c.type === 'text').map((c) => (c as { text: string }).text)).toEqual(texts)
        const ui: Array<{ type: string }> = []
        for await (const chunk of result.toUIMessageStream({ onError: () => 'error' })) ui.push(chunk as never)
        expect(ui.filter((c) => c.type === 'error')).toHaveLength(1)
      })
    }
  })
}
