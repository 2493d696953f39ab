/** `toolsieve/stream`: `sieveIterable`, the sieve over an async iterable of text. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sieveIterable } from '../../src/stream.js'
import { parseToolCalls, ToolsieveError, type SieveEvent } from '../../src/index.js'
import { chunkBy, chunkSizes, document } from '../properties/generator.js'
import { ANSWER, awkward, counterIds, merged, readableOf } from './stream-helpers.js'

async function* from<T>(chunks: readonly T[], log: string[] = []): AsyncGenerator<T> {
  try {
    for (const chunk of chunks) yield chunk
    log.push('done')
  } finally {
    log.push('closed')
  }
}

async function collect(iterable: AsyncIterable<SieveEvent>): Promise<SieveEvent[]> {
  const out: SieveEvent[] = []
  for await (const e of iterable) out.push(e)
  return out
}

describe('sieveIterable', () => {
  it('should support awkward chunks, giving what parseToolCalls gives for the whole text', async () => {
    const events = await collect(sieveIterable(from(awkward(ANSWER)), { generateId: counterIds() }))
    const whole = parseToolCalls(ANSWER, { generateId: counterIds() })
    expect(events.filter((e) => e.type === 'tool-call').map(({ type: _, ...call }) => call)).toEqual(whole.calls)
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(whole.text)
  })

  it('should support any chunking, giving the same events merged (property)', async () => {
    await fc.assert(
      fc.asyncProperty(document(8), chunkSizes, async (text, sizes) => {
        const reference = merged(await collect(sieveIterable([text], { generateId: counterIds() })))
        expect(merged(await collect(sieveIterable(from(chunkBy(text, sizes)), { generateId: counterIds() })))).toEqual(reference)
      }),
      { numRuns: 150 },
    )
  })

  it('should support a ReadableStream of strings and a plain array as the source', async () => {
    const fromStream = await collect(sieveIterable(readableOf(awkward(ANSWER)), { generateId: counterIds() }))
    const fromArray = await collect(sieveIterable(awkward(ANSWER), { generateId: counterIds() }))
    expect(merged(fromStream)).toEqual(merged(fromArray))
    expect(fromArray.some((e) => e.type === 'tool-call')).toBe(true)
  })

  it('should support the end of the source: held text and the end diagnostics come last', async () => {
    const events = await collect(sieveIterable(from(['Hi <｜DSML｜tool_calls>', '<｜DSML｜invoke name="x">'])))
    const last = events[events.length - 1]
    expect(last).toMatchObject({ type: 'diagnostic', code: 'unterminated-block' })
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('Hi <｜DSML｜tool_calls><｜DSML｜invoke name="x">')
  })

  it('should support break: leaving the loop closes the source', async () => {
    const log: string[] = []
    for await (const e of sieveIterable(from(['one ', 'two ', 'three'], log))) {
      expect(e).toEqual({ type: 'text', text: 'one ' })
      break
    }
    expect(log).toEqual(['closed'])
  })

  it('should support return(): it closes the source too', async () => {
    const log: string[] = []
    const it = sieveIterable(from(['one ', 'two '], log))
    expect(await it.next()).toEqual({ done: false, value: { type: 'text', text: 'one ' } })
    expect(await it.return!(undefined)).toEqual({ done: true, value: undefined })
    expect(log).toEqual(['closed'])
    expect(await it.next()).toEqual({ done: true, value: undefined })
  })

  it('should support null chunks, which add nothing', async () => {
    expect(merged(await collect(sieveIterable(from(['a', null, 'b']))))).toEqual([{ type: 'text', text: 'ab' }])
  })

  it('should not support a chunk that is not a string: invalid-chunk, and the source is closed', async () => {
    const log: string[] = []
    const error = await collect(sieveIterable(from(['a', 42 as never, 'b'], log))).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ToolsieveError)
    expect((error as ToolsieveError).code).toBe('invalid-chunk')
    expect(log).toEqual(['closed'])
  })

  it('should support a source that throws: what the sieve held comes first, as text and no call, then the error', async () => {
    const broken = new Error('socket hang up')
    const cut = '<｜DSML｜tool_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="p">v</｜DSML｜parameter></｜DSML｜invoke>'
    async function* failing(): AsyncGenerator<string> {
      yield 'hello '
      yield cut
      yield ' <｜DSML｜too'
      throw broken
    }
    const out: SieveEvent[] = []
    const error = await (async () => {
      for await (const e of sieveIterable(failing())) out.push(e)
    })().then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBe(broken)
    expect(out.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(`hello ${cut} <｜DSML｜too`)
    expect(out.some((e) => e.type === 'tool-call')).toBe(false)
  })

  it('should support a chunk that is not a string after held text: the held text, then invalid-chunk', async () => {
    const out: SieveEvent[] = []
    const error = await (async () => {
      for await (const e of sieveIterable(from(['hello <｜DSML｜too', 42 as never]))) out.push(e)
    })().then(
      () => null,
      (e: unknown) => e,
    )
    expect((error as ToolsieveError).code).toBe('invalid-chunk')
    expect(out.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('hello <｜DSML｜too')
  })

  it('should support throw() from the consumer at a yield: the error is its own, nothing more is given', async () => {
    const it = sieveIterable(from(['a', 'b <｜DSML｜too', 'c']))
    expect((await it.next()).value).toMatchObject({ type: 'text', text: 'a' })
    const mine = new Error('mine')
    await expect(it.throw!(mine)).rejects.toBe(mine)
    expect(await it.next()).toEqual({ done: true, value: undefined })
  })

  it('should not support bad options or a source that is not iterable: thrown when called, before any next()', () => {
    expect(() => sieveIterable(from([]), { onInvalid: 'drop' as never })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'onInvalid' }))
    expect(() => sieveIterable(42 as never)).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'source' }))
    expect(() => sieveIterable(null as never)).toThrow(ToolsieveError)
  })
})
