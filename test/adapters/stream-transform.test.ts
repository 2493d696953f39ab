/** `toolsieve/stream`: `SieveStream`, the sieve as a WHATWG TransformStream. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { SieveStream } from '../../src/stream.js'
import { parseToolCalls, ToolsieveError, type SieveEvent } from '../../src/index.js'
import { chunkBy, chunkSizes, document } from '../properties/generator.js'
import { ANSWER, awkward, counterIds, drain, merged, readableOf } from './stream-helpers.js'

const through = (chunks: readonly unknown[], options = {}) => drain(readableOf(chunks).pipeThrough(new SieveStream({ generateId: counterIds(), ...options }) as unknown as TransformStream<unknown, SieveEvent>))

describe('SieveStream', () => {
  it('should support awkward chunks, giving what parseToolCalls gives for the whole text', async () => {
    const events = await through(awkward(ANSWER))
    const whole = parseToolCalls(ANSWER, { generateId: counterIds() })
    const calls = events.filter((e) => e.type === 'tool-call').map(({ type: _, ...call }) => call)
    expect(calls).toEqual(whole.calls)
    expect(calls.map((c) => [c.name, c.input])).toEqual([['read_file', { path: 'src/a.ts' }]])
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(whole.text)
  })

  it('should support any chunking, giving the same events merged (property)', async () => {
    await fc.assert(
      fc.asyncProperty(document(8), chunkSizes, async (text, sizes) => {
        const reference = merged(await through([text]))
        expect(merged(await through(chunkBy(text, sizes)))).toEqual(reference)
      }),
      { numRuns: 150 },
    )
  })

  it('should support the end of the stream: what the sieve held comes out once, from flush', async () => {
    const events = await through(['Hi <｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">'])
    expect(events.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(['unterminated-block'])
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('Hi <｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">')
  })

  it('should support null and undefined chunks, which add nothing', async () => {
    const events = await through(['a', null, undefined, 'b'])
    expect(merged(events)).toEqual([{ type: 'text', text: 'ab' }])
  })

  it('should support sieve options (tools: an unknown name is flagged)', async () => {
    const events = await through(awkward(ANSWER), { tools: ['list_dir'] })
    expect(events.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(['unknown-tool'])
  })

  it('should support backpressure: a slow reader pulls the source only as it reads', async () => {
    let pulled = 0
    const source = new ReadableStream<string>({
      pull(controller) {
        pulled++
        controller.enqueue(`word ${pulled} `)
      },
    })
    const reader = source.pipeThrough(new SieveStream()).getReader()
    await reader.read()
    // let the pipe run as far as it will without a read
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(pulled).toBeLessThan(10)
    await reader.cancel()
  })

  it('should support cancelling: the source is cancelled and nothing more is read', async () => {
    let onCancel: (reason: unknown) => void = () => {}
    const cancelled = new Promise((resolve) => (onCancel = resolve))
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('text before <｜DSML｜tool')
      },
      cancel: (reason) => onCancel(reason),
    })
    const reader = source.pipeThrough(new SieveStream()).getReader()
    expect(await reader.read()).toEqual({ done: false, value: { type: 'text', text: 'text before ' } })
    await reader.cancel('stop')
    // the pipe cancels the source with the reader's reason
    expect(await cancelled).toBe('stop')
  })

  it('should not support a chunk that is not a string: the stream errors with invalid-chunk', async () => {
    const error = await through(['a', new Uint8Array([0x61])]).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ToolsieveError)
    expect((error as ToolsieveError).code).toBe('invalid-chunk')
  })

  it('should not support bad options: the constructor throws', () => {
    expect(() => new SieveStream({ captureLimit: -1 })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'captureLimit' }))
    expect(() => new SieveStream('x' as never)).toThrow(expect.objectContaining({ code: 'invalid-option' }))
  })
})
