/**
 * Streaming behaviour 8: the capture limit. When one capture grows past
 * `captureLimit` UTF-16 units: one `capture-limit` diagnostic, the opener's
 * tag-start (`<tool_calls`, `<｜DSML｜tool_calls`, `<invoke`) is released as
 * text and scanning resumes right after it, so a valid block later inside the
 * released text can still be found.
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, diagnostics, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const captureLimit = 200

function xmlBlock(name: string, value: string): string {
  return `<tool_calls><invoke name="${name}"><parameter name="content">${value}</parameter></invoke></tool_calls>`
}
function dsmlBlock(name: string, value: string): string {
  return `<｜DSML｜tool_calls><｜DSML｜invoke name="${name}"><｜DSML｜parameter name="content">${value}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>`
}

describe('capture limit', () => {
  it('should support a block within the limit', () => {
    const input = 'Intro. ' + xmlBlock('a', 'x'.repeat(50))
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([{ name: 'a', input: { content: 'x'.repeat(50) } }])
    expect(codes(events)).toEqual([])
  })

  it('should support a block of exactly the limit', () => {
    const value = 'x'.repeat(captureLimit - xmlBlock('a', '').length)
    const input = xmlBlock('a', value)
    expect(input.length).toBe(captureLimit)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([{ name: 'a', input: { content: value } }])
    expect(codes(events)).toEqual([])
  })

  it('should not support a block one unit over the limit (released opener, then the bare-invoke repair)', () => {
    const value = 'x'.repeat(captureLimit + 1 - xmlBlock('a', '').length)
    const input = xmlBlock('a', value)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(codes(events)).toEqual(['capture-limit'])
    expect(diagnostics(events)[0]?.span.start).toBe(0)
    // Scanning resumed after `<tool_calls`: `>` is text, and the rest is a bare invoke closed by a wrapper closer.
    expect(textOf(events)).toBe('<tool_calls>')
    expect(calls(events)).toEqual([{ name: 'a', input: { content: value } }])
  })

  it('should not support a block whose value is past the limit (text, one diagnostic per capture)', () => {
    const input = 'Intro. ' + xmlBlock('a', 'x'.repeat(300)) + ' outro'
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    // The wrapper capture, then the bare-invoke capture that starts right after the released `<tool_calls`.
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
    const spans = diagnostics(events).map((d) => d.span)
    expect(spans.map((s) => s.start)).toEqual([7, 7 + '<tool_calls>'.length])
    for (const span of spans) {
      expect(span.end - span.start).toBeGreaterThan(captureLimit)
      expect(span.end).toBeLessThanOrEqual(input.length)
    }
  })

  it('should not support a DSML block past the limit (the DSML tag-start is released)', () => {
    const input = dsmlBlock('a', 'y'.repeat(300))
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
    expect(diagnostics(events).map((d) => d.span.start)).toEqual([0, '<｜DSML｜tool_calls>'.length])
  })

  it('should support a valid block later inside the released text', () => {
    const small = xmlBlock('small', 'src/a.ts')
    const input = xmlBlock('big', `<![CDATA[${'y'.repeat(250)}${small}]]>`) + '\nend'
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([{ name: 'small', input: { content: 'src/a.ts' } }])
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
    expect(textOf(events)).toBe(input.replace(small, ''))
  })

  it('should not support reporting an unterminated block once its captures went past the limit', () => {
    const input = '<tool_calls><invoke name="a"><parameter name="content">' + 'z'.repeat(400)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(textOf(events)).toBe(input)
    // Both captures (wrapper, then the bare invoke) overflow before the end: nothing is open at the end.
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
  })

  it('should support the default limit (256 KiB) keeping large values', () => {
    const value = 'x'.repeat(300)
    const input = xmlBlock('a', value)
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { content: value } }])
    expect(codes(events)).toEqual([])
  })

  it('should support a limit on each capture, not on the whole stream', () => {
    const input = Array.from({ length: 5 }, (_, i) => xmlBlock(`c${i}`, 'v'.repeat(100))).join('\n')
    expect(input.length).toBeGreaterThan(captureLimit * 2)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events).map((c) => c.name)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4'])
    expect(codes(events)).toEqual([])
  })

  it('should support a hold that a fence opener takes past the limit the same whether the run arrives whole or cut', () => {
    // found by `npm run fuzz` (seed 82): the tag held after "`" was judged on the run token when the run came
    // whole, but not when a chunk end cut the run and the carried run was decided later
    const tag = '<tool_calls>'
    const head = '`' + tag + ' and more words after the tag here '
    const input = head + '\n```\n' + xmlBlock('a', 'v') + '\n```\n'
    const limit = head.length + 1
    const events = expectChunkInvariant(input, { captureLimit: limit })
    expect(codes(events)[0]).toBe('capture-limit')
    expect(textOf(events)).toBe(input)
  })

  it('should support the limit at the end of the stream the same way when the last closer could still have grown', () => {
    // found by `npm run fuzz` (seed 98): a held `</|DSML|parameter| ` at the end went into the capture unlexed, so the
    // capture passed the limit without a diagnostic at one character per chunk, and with one in a single chunk
    const input = '<|DSML|tool_calls| <|DSML|invoke name="search"| <|DSML|parameter name="path"|你好，世界</|DSML|parameter| '
    const events = expectChunkInvariant(input, { captureLimit: 64 })
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
    expect(textOf(events)).toBe(input)
  })
})
