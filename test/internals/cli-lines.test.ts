/**
 * The command line's line reader (src/cli/source.ts `lines`), which the
 * JSONL and SSE inputs of parse and bench share:
 * CR, LF and CRLF line ends in SSE mode (a CRLF split between two reads is
 * one end), LF only for JSONL, and a bound past which a line is dropped as
 * read and reported. Every case runs whole, one unit at a time, and split at
 * every point.
 */
import { describe, expect, it } from 'vitest'
import { LineTooLong, lines, MAX_LINE, type LineOptions } from '../../src/cli/source.js'

async function* from(pieces: readonly string[]): AsyncGenerator<string> {
  yield* pieces
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

/** The input whole, one unit at a time, and in two at every split point. */
function chunkings(text: string): string[][] {
  const out: string[][] = [[text], [...text].flatMap((c) => (c.length === 2 ? [c[0]!, c[1]!] : [c]))]
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)])
  return out
}

async function expectLines(text: string, options: LineOptions, expected: (string | LineTooLong)[]): Promise<void> {
  for (const pieces of chunkings(text)) expect(await collect(lines(from(pieces), options)), JSON.stringify(pieces)).toEqual(expected)
}

describe('lines: SSE mode (cr)', () => {
  it('should support LF, CR and CRLF line ends, mixed', async () => {
    await expectLines('a\nb\rc\r\nd\r\re', { cr: true }, ['a', 'b', 'c', 'd', '', 'e'])
  })

  it('should support a CRLF split between two reads as one line end', async () => {
    expect(await collect(lines(from(['data: x\r', '\ndata: y\r', '\n\r', '\n']), { cr: true }))).toEqual(['data: x', 'data: y', ''])
  })

  it('should not support a CR at a read\'s end eating a later LF: only the next unit read', async () => {
    expect(await collect(lines(from(['a\r', '', '\nb\n']), { cr: true }))).toEqual(['a', 'b'])
    expect(await collect(lines(from(['a\r', 'b\n\n']), { cr: true }))).toEqual(['a', 'b', ''])
  })
})

describe('lines: JSONL mode', () => {
  it('should support LF and CRLF; a lone CR stays inside the line', async () => {
    await expectLines('{"a":1}\r\n{"b":\r2}\n{"c":3}', {}, ['{"a":1}', '{"b":\r2}', '{"c":3}'])
  })
})

describe('lines: the bound', () => {
  it('should not support a line past the bound: reported with its length, the next lines intact', async () => {
    await expectLines('short\n' + 'x'.repeat(12) + '\nok', { limit: 10 }, ['short', new LineTooLong(12), 'ok'])
    await expectLines('ab\r' + 'y'.repeat(11) + '\r\nz', { cr: true, limit: 10 }, ['ab', new LineTooLong(11), 'z'])
  })

  it('should support a line exactly at the bound', async () => {
    await expectLines('x'.repeat(10) + '\n', { limit: 10 }, ['x'.repeat(10)])
  })

  it('should not support a last line past the bound with no line end', async () => {
    expect(await collect(lines(from(['a\n', 'b'.repeat(6), 'b'.repeat(6)]), { limit: 10 }))).toEqual(['a', new LineTooLong(12)])
  })

  it('should support the default bound: the longest string V8 can build', () => {
    expect(MAX_LINE).toBeGreaterThan(2 ** 28)
    expect(() => 'x'.repeat(MAX_LINE + 1)).toThrow(RangeError)
  })
})
