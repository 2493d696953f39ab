/**
 * `toolsieveMiddleware().wrapStream` with `onConflict: 'prefer-native'` when
 * the upstream breaks off (an `error` part, a source that fails, a part of
 * the wrong shape) while rescued calls are held for the finish. An answer
 * the upstream broke off makes no call, and with no native call to stand
 * for them, dropping the held calls would lose their text: each goes out as
 * the markup it was read from, as text, before the error. Nothing held
 * becomes a call after the error, at the finish or the stream's close.
 *
 * The shared gate holds the calls only: the text after a held call went out
 * while it was held, so its markup comes at the break, after that text, not
 * where it stood in the answer.
 */
import { describe, expect, it } from 'vitest'
import { awkward, deltaText, dsml, loadLines, middlewareParts, streamTextRun, textsOf, usage, type Part } from './ai-sdk-helpers.js'

const CALL = dsml('read_file', { path: 'a.ts' })
const CALL2 = dsml('write_file', { path: 'b.ts', content: 'x' })
const PREFER = { onConflict: 'prefer-native', trimBlankLines: false }
const failure = { type: 'error', error: 'overloaded' }
const finish = { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } }
const start = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }]
const deltas = (chunks: readonly string[]) => chunks.map((delta) => ({ type: 'text-delta', id: 't', delta }))
const callParts = (out: readonly Part[]) => out.filter((p) => p.type.startsWith('tool-'))
const upTo = (out: readonly Part[], type: string) => out.slice(0, out.findIndex((p) => p.type === type))
const broken = new Error('socket hang up')

describe('wrapStream, prefer-native: a held rescued call when an error part comes', () => {
  it.each([
    ['whole', [`Hi ${CALL} after`]],
    ['in pieces of 1..7', awkward(`Hi ${CALL} after`)],
  ])('should support its markup going out as text before the error, after the text that went out while it was held, and no call at the finish (%s)', async (_, pieces) => {
    const { out, error } = await middlewareParts([...start, ...deltas(pieces), failure, finish], PREFER)
    expect(error).toBeUndefined()
    expect(callParts(out)).toEqual([])
    expect(deltaText(upTo(out, 'error'))).toBe(`Hi  after${CALL}`)
    expect(deltaText(out)).toBe(`Hi  after${CALL}`)
    expect(out.at(-1)).toEqual(finish)
    expect(textsOf(out).violations).toEqual([])
  })

  it('should support no call either when the stream closes after the error without a finish', async () => {
    const { out } = await middlewareParts([...start, ...deltas([`Hi ${CALL} after`]), failure], PREFER)
    expect(callParts(out)).toEqual([])
    expect(deltaText(upTo(out, 'error'))).toBe(`Hi  after${CALL}`)
    expect(out.at(-1)).toEqual(failure)
  })

  it('should support the markup of every call it held, in order, before the text the sieve still held', async () => {
    const { out } = await middlewareParts([...start, ...deltas([`A ${CALL} B ${CALL2} C <｜DSML｜too`]), failure, finish], PREFER)
    expect(callParts(out)).toEqual([])
    expect(deltaText(upTo(out, 'error'))).toBe(`A  B  C ${CALL}${CALL2}<｜DSML｜too`)
  })

  it('should support the markup of a call from a run of text a reasoning part ended before the error', async () => {
    const reasoning = [{ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'plan' }, { type: 'reasoning-end', id: 'r' }]
    const { out } = await middlewareParts([...start, ...deltas([`Hi ${CALL}`]), { type: 'text-end', id: 't' }, ...reasoning, failure, finish], PREFER)
    expect(callParts(out)).toEqual([])
    expect(deltaText(upTo(out, 'error'))).toBe(`Hi ${CALL}`)
    expect(out.findIndex((p) => p.type === 'reasoning-end')).toBeLessThan(out.findIndex((p) => p.type === 'text-delta' && p.delta === CALL))
    expect(textsOf(out).violations).toEqual([])
  })

  it('should support its markup going out whole with blank-line trimming on, without the blank space trimmed around it as a call', async () => {
    const { out } = await middlewareParts([...start, ...deltas([`Hi\n\n${CALL}\n\nafter`]), failure, finish], { onConflict: 'prefer-native' })
    expect(callParts(out)).toEqual([])
    expect(deltaText(out)).toBe(`Hiafter${CALL}`)
  })

  it('should not support the markup of a call held when a native call came: the native call stands for it', async () => {
    const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{}' }
    const { out } = await middlewareParts([...start, ...deltas([`Hi ${CALL} after`]), { type: 'text-end', id: 't' }, native, failure, finish], PREFER)
    expect(callParts(out)).toEqual([native])
    expect(deltaText(out)).toBe('Hi  after')
  })
})

describe('wrapStream, prefer-native: a held rescued call when the source breaks off', () => {
  it('should support its markup going out as text before the source\'s error', async () => {
    const { out, error } = await middlewareParts([...start, ...deltas([`Hi ${CALL} after`])], PREFER, broken)
    expect(error).toBe(broken)
    expect(callParts(out)).toEqual([])
    expect(deltaText(out)).toBe(`Hi  after${CALL}`)
    expect(textsOf(out).violations).toEqual([])
  })

  it('should support a part of the wrong shape the same way: the markup, then invalid-chunk', async () => {
    const { out, error } = await middlewareParts([...start, ...deltas([`Hi ${CALL} after`]), { type: 'text-delta', id: 't', delta: 7 }], PREFER)
    expect(error).toMatchObject({ code: 'invalid-chunk' })
    expect(callParts(out)).toEqual([])
    expect(deltaText(out)).toBe(`Hi  after${CALL}`)
  })
})

for (const loaded of await loadLines()) {
  describe(`streamText, prefer-native, an upstream error part after a rescued call (ai ${loaded.line.major})`, () => {
    it('should support the markup as the step\'s text: no tool run, and no error but upstream\'s', async () => {
      const { seen, ran } = await streamTextRun(loaded, [...start, ...deltas([`Hi ${CALL} after`]), failure, finish], PREFER)
      expect(seen.filter((p) => p.type === 'error').map((p) => p.error)).toEqual(['overloaded'])
      expect(seen.filter((p) => p.type === 'tool-call')).toEqual([])
      expect(ran).toEqual([])
      expect(seen.filter((p) => p.type === 'text-delta').map((p) => p.text).join('')).toBe(`Hi  after${CALL}`)
    })
  })
}
