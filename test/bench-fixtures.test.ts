/**
 * The benchmark generators produce inputs the sieve handles correctly, so
 * `npm run bench:quick` never times a broken path. No timing here.
 */
import { describe, expect, it } from 'vitest'
import { parseToolCalls } from '../src/index.js'
import { stream as streamWith } from './helpers/stream.js'
import { fixedChunks, tokenChunks } from '../bench/chunks.js'
import { generateTranscript } from '../bench/generate.js'
import { generateParameterStream } from '../bench/parameter-stream.js'

const SEED = 7
const transcript = generateTranscript({ seed: SEED, size: 200 * 1024 })


const stream = (chunks: string[], captureLimit?: number) => streamWith(chunks, captureLimit === undefined ? {} : { captureLimit })

describe('bench generators', () => {
  it('should be deterministic for a seed', () => {
    const again = generateTranscript({ seed: SEED, size: 200 * 1024 })
    expect(again.text).toBe(transcript.text)
    expect(tokenChunks(transcript.text, 1)).toEqual(tokenChunks(transcript.text, 1))
  })

  it('should generate a mixed transcript with every spelling', () => {
    const { text } = transcript
    expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThanOrEqual(200 * 1024)
    expect(transcript.blocks).toBeGreaterThan(20)
    expect(transcript.calls.length).toBeGreaterThanOrEqual(transcript.blocks)
    for (const marker of ['<｜DSML｜tool_calls>', '<|DSML|tool_calls>', '<｜DSML｜function_calls>', '<｜DSML｜ calls>',
      '＜ＤＳＭＬ＜tool_calls＞', '＜｜ＤＳＭＬ｜tool_calls＞', '\n<tool_calls>', '\n<function_calls>', '```xml\n', '~~~\n',
      '`<tool_calls>`', '<![CDATA[', '我先']) {
      expect(text, marker).toContain(marker)
    }
    expect(transcript.calls.some((c) => (c.input.content ?? '').length >= 2000)).toBe(true)
  })

  it('should split token chunks of 1 to 12 characters that rebuild the text', () => {
    const chunks = tokenChunks(transcript.text, SEED)
    expect(chunks.join('')).toBe(transcript.text)
    expect(chunks.every((c) => c.length >= 1 && c.length <= 12)).toBe(true)
  })
})

describe('bench fixtures parse as their manifest says', () => {
  it('should support the transcript via parseToolCalls', () => {
    const result = parseToolCalls(transcript.text)
    expect(result.diagnostics).toEqual([])
    expect(result.sawToolCallSyntax).toBe(true)
    expect(result.calls.map((c) => ({ name: c.name, input: c.input }))).toEqual(transcript.calls)
  })

  it('should support the transcript streamed in token-sized chunks', () => {
    const { calls, codes, rebuilt } = stream(tokenChunks(transcript.text, SEED))
    expect(codes).toEqual([])
    expect(calls).toEqual(transcript.calls)
    expect(rebuilt).toBe(transcript.text)
  })

  it('should support the transcript streamed in 4-char chunks', () => {
    const { calls, codes } = stream(fixedChunks(transcript.text, 4))
    expect(codes).toEqual([])
    expect(calls).toEqual(transcript.calls)
  })

  it('should hold examples that look like calls but are not', () => {
    // Fenced examples and inline spans write `invoke name="` too; the manifest
    // excludes them, so the equalities above prove the Markdown guard held.
    const mentions = transcript.text.split('invoke name="').length - 1
    expect(mentions).toBeGreaterThan(transcript.calls.length)
  })

  for (const [length, cdata] of [[100_000, false], [100_000, true], [1, false], [300_000, false]] as const) {
    it(`should support one ${cdata ? 'CDATA' : 'plain'} parameter of ${length} chars`, () => {
      const fixture = generateParameterStream(length, { cdata })
      const captureLimit = length > 200_000 ? 4 * length : undefined
      const { calls, codes, rebuilt } = stream(fixedChunks(fixture.text, 4), captureLimit)
      expect(codes).toEqual([])
      expect(calls).toEqual(fixture.calls)
      expect(calls[0]?.input.content?.length).toBe(length)
      expect(rebuilt).toBe(fixture.text)
    })
  }

  it('should release an over-limit parameter as text with capture-limit', () => {
    const fixture = generateParameterStream(300_000)
    const { calls, codes, rebuilt } = stream(fixedChunks(fixture.text, 4096))
    expect(calls).toEqual([])
    expect(codes).toContain('capture-limit')
    expect(rebuilt).toBe(fixture.text)
  })
})
