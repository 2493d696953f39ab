/**
 * White-box: the event-stream decoder of toolsieve/fetch. Every framing
 * (LF, CR, CRLF, mixed) cut at every split point gives the same events;
 * lines and events over the bound are refused, also when they drip in.
 */
import { describe, expect, it } from 'vitest'
import { SseDecoder, SseLimitError, sseFrame, type SseEvent } from '../../src/fetch/sse.js'

const doc = (e: string) => `: keep${e}event: error${e}id: 7${e}data: {"a":1}${e}data: two${e}${e}data:x${e}${e}retry: 10${e}data${e}${e}data: last`
const expected: SseEvent[] = [
  { kind: 'comment', line: ': keep' },
  { kind: 'data', data: '{"a":1}\ntwo', event: 'error', id: '7', retry: undefined },
  { kind: 'data', data: 'x', event: undefined, id: undefined, retry: undefined },
  { kind: 'data', data: '', event: undefined, id: undefined, retry: '10' },
  { kind: 'data', data: 'last', event: undefined, id: undefined, retry: undefined },
]

function decode(pieces: string[], limit?: number): SseEvent[] {
  const d = new SseDecoder(limit)
  const out: SseEvent[] = []
  for (const p of pieces) d.push(p, out)
  return d.end(out)
}

describe('SseDecoder', () => {
  for (const [name, e] of [['LF', '\n'], ['CR', '\r'], ['CRLF', '\r\n']] as const) {
    it(`should support ${name} framing, whole and cut at every split point (two and three pieces)`, () => {
      const text = doc(e)
      expect(decode([text])).toEqual(expected)
      for (let i = 0; i <= text.length; i++) {
        expect(decode([text.slice(0, i), text.slice(i)]), `split at ${i}`).toEqual(expected)
        for (let j = i; j <= Math.min(text.length, i + 3); j++) expect(decode([text.slice(0, i), text.slice(i, j), text.slice(j)])).toEqual(expected)
      }
      expect(decode([...text])).toEqual(expected)
    })
  }

  it('should support mixed line endings, and a CR then an empty piece then LF as one CRLF', () => {
    expect(decode(['data: a\r', '', '\ndata: b\n\r\n'])).toEqual([{ kind: 'data', data: 'a\nb', event: undefined, id: undefined, retry: undefined }])
  })

  it('should not support a line over the bound, whole or dripping in', () => {
    expect(() => decode(['data: ' + 'x'.repeat(100)], 50)).toThrow(SseLimitError)
    expect(() => decode([...('data: ' + 'x'.repeat(100))], 50)).toThrow(SseLimitError)
    expect(decode(['data: ' + 'x'.repeat(44) + '\n\n'], 50)).toHaveLength(1)
  })

  it('should not support an event whose data lines together are over the bound', () => {
    expect(() => decode(Array.from({ length: 10 }, () => 'data: ' + 'x'.repeat(20) + '\n'), 100)).toThrow(SseLimitError)
  })

  it('should support an event exactly at the bound, its name kept, CR-framed', () => {
    expect(decode(['event: error\rdata: 123456\rdata: 123456\r\r'], 13)).toEqual([{ kind: 'data', data: '123456\n123456', event: 'error', id: undefined, retry: undefined }])
  })

  it('should support writing a frame back: every line of the data on its own data line', () => {
    expect(sseFrame('a\r\nb\rc\nd', 'error')).toBe('event: error\ndata: a\ndata: b\ndata: c\ndata: d\n\n')
  })
})
