/**
 * The capture limit. When one capture grows past `captureLimit` UTF-16
 * units: one `capture-limit` diagnostic, and the whole block is text — what
 * was captured goes out, and the rest of the block follows as text up to its
 * closer (with bounded memory), so nothing inside it ever becomes a call.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
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

  it('should not support a block one unit over the limit (the whole block is text)', () => {
    const value = 'x'.repeat(captureLimit + 1 - xmlBlock('a', '').length)
    const input = xmlBlock('a', value)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(codes(events)).toEqual(['capture-limit'])
    expect(diagnostics(events)[0]?.span).toEqual({ start: 0, end: captureLimit + 1 })
    expect(textOf(events)).toBe(input)
    expect(calls(events)).toEqual([])
  })

  it('should not support a block whose value is past the limit (text, one diagnostic)', () => {
    const input = 'Intro. ' + xmlBlock('a', 'x'.repeat(300)) + ' outro'
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(diagnostics(events).map((d) => [d.code, d.span])).toEqual([['capture-limit', { start: 7, end: 7 + captureLimit + 1 }]])
  })

  it('should not support a DSML block past the limit', () => {
    const input = dsmlBlock('a', 'y'.repeat(300))
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it('should not support the later invokes of a block past the limit (the whole block is text)', () => {
    const invokes = Array.from({ length: 8 }, (_, i) => `<invoke name="f${i}"><parameter name="x">v${i}</parameter></invoke>\n`).join('')
    const input = '<tool_calls>\n' + invokes + '</tool_calls> after'
    const events = expectChunkInvariant(input, { captureLimit: 100 })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it('should not support a block inside a value past the limit, even in CDATA or a string value', () => {
    const small = xmlBlock('small', 'src/a.ts')
    for (const input of [
      xmlBlock('big', `<![CDATA[${'y'.repeat(250)}${small}]]>`),
      `<｜DSML｜tool_calls><｜DSML｜invoke name="big"><｜DSML｜parameter name="c" string="true">${'y'.repeat(250)}${small}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>`,
    ]) {
      const events = expectChunkInvariant(input + '\nend', { captureLimit })
      expect(calls(events)).toEqual([])
      expect(codes(events)).toEqual(['capture-limit'])
      expect(textOf(events)).toBe(input + '\nend')
    }
  })

  it('should support a block after the closer of a block past the limit', () => {
    const input = xmlBlock('big', 'y'.repeat(300)) + '\n' + xmlBlock('next', 'v')
    const events = expectChunkInvariant(input, { captureLimit })
    expect(calls(events)).toEqual([{ name: 'next', input: { content: 'v' } }])
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it('should not support anything after a block past the limit that never closes (the rest of the stream is text)', () => {
    const input = '<tool_calls><invoke name="a"><parameter name="content">' + 'z'.repeat(400) + '</parameter></invoke>\n' + xmlBlock('b', 'v')
    const events = expectChunkInvariant(input.replace(/<\/tool_calls>$/, ''), { captureLimit })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it('should support a capture past the limit holding bounded memory however long its value', () => {
    const sieve = createSieve({ captureLimit })
    sieve.push('<tool_calls><invoke name="a"><parameter name="content">')
    let out = 0
    for (let i = 0; i < 2000; i++) for (const e of sieve.push('0123456789<b>' + i)) if (e.type === 'text') out += e.text.length
    expect(JSON.stringify(sieve.checkpoint()).length).toBeLessThan(4 * captureLimit)
    expect(out).toBeGreaterThan(2000 * 13)
  })

  it('should not support reporting an unterminated block once it went past the limit', () => {
    const input = '<tool_calls><invoke name="a"><parameter name="content">' + 'z'.repeat(400)
    const events = expectChunkInvariant(input, { captureLimit })
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['capture-limit'])
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
    expect(codes(events)).toEqual(['capture-limit'])
    expect(textOf(events)).toBe(input)
  })

  it('should support a tag\'s attribute text over the limit leaving after its tag, pushed as one chunk over 1 KiB', () => {
    // the capture over the limit keeps the open tag's tokens until its end; a long attribute chunk read by the fast
    // path went out at once, before the tag it belongs to
    const head = `<tool_calls><invoke name="a"><parameter name="x">${'v'.repeat(2100)}</parameter></invoke><invoke name="`
    const name = 'n'.repeat(1100)
    const tail = '"></invoke></tool_calls> after'
    const input = head + name + tail
    for (const opts of [{ captureLimit: 2000 }, { captureLimit: 2000, streamArguments: true }]) {
      const sieve = createSieve(opts)
      const events = [...sieve.push(head), ...sieve.push(name), ...sieve.push(tail), ...sieve.end()]
      expect(textOf(events)).toBe(input)
      expect(codes(events)).toEqual(['capture-limit'])
    }
    expect(textOf(expectChunkInvariant(input, { captureLimit: 2000 }))).toBe(input)
  })

  it('should support a tag longer than the limit by itself leaving in order, its attribute text pushed in large chunks', () => {
    const head = `<tool_calls><invoke name="a"><parameter name="x">${'v'.repeat(300)}</parameter></invoke><invoke name="`
    const input = head + 'n'.repeat(1500) + '"><parameter name="y">z</parameter></invoke></tool_calls> after'
    const sieve = createSieve({ captureLimit })
    const events = [...sieve.push(head)]
    for (let i = head.length; i < input.length; i += 1100) events.push(...sieve.push(input.slice(i, i + 1100)))
    events.push(...sieve.end())
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['capture-limit'])
    expect(textOf(expectChunkInvariant(input, { captureLimit }))).toBe(input)
  })
})
