/**
 * The playground's logic without a browser: the chunkings, the run (events,
 * pieces, the lossless check), the marks cut by diagnostics, and the form's
 * values read into options. The page test (page.test.ts) checks the DOM.
 */
import { describe, expect, it } from 'vitest'
import { cut, positiveInteger } from '../../playground/src/chunking.js'
import { dialects, grammarJson } from '../../playground/src/dialects.js'
import { blocks } from '../../playground/src/highlight.js'
import { run } from '../../playground/src/run.js'
import { sample } from '../../playground/src/sample.js'
import { decodeShared, encodeShared } from '../../playground/src/share.js'
import { FieldError, describeError, readChunking, readGrammar, readOptions, type Fields } from '../../playground/src/settings.js'
import { defaultGrammar, parseToolCalls, ToolsieveError } from '../../src/index.js'

const fields: Fields = {
  chunking: 'whole',
  size: '8',
  seed: '42',
  longest: '12',
  streamArguments: false,
  captureLimit: '',
  reasoning: true,
  startInReasoning: false,
  reasoningCalls: 'text',
  strict: false,
  onInvalid: 'emit',
  quoted: '',
  tools: '',
}

describe('chunkings', () => {
  const text = 'ab😀cdefghij'
  it('should support whole, fixed, one unit and token-sized cuts that join back to the text', () => {
    expect(cut(text, { kind: 'whole' })).toEqual([text])
    expect(cut(text, { kind: 'fixed', size: 4 })).toEqual(['ab\ud83d\ude00', 'cdef', 'ghij'])
    expect(cut(text, { kind: 'units' })).toHaveLength(text.length)
    const tokens = cut(text, { kind: 'tokens', seed: 7, longest: 3 })
    expect(tokens.join('')).toBe(text)
    expect(tokens.every((t) => t.length >= 1 && t.length <= 3)).toBe(true)
  })

  it('should support the same cuts for the same seed, other cuts for another', () => {
    const a = cut(sample, { kind: 'tokens', seed: 1, longest: 12 })
    expect(cut(sample, { kind: 'tokens', seed: 1, longest: 12 })).toEqual(a)
    expect(cut(sample, { kind: 'tokens', seed: 2, longest: 12 })).not.toEqual(a)
  })

  it('should not support a size that is not a whole number of at least 1', () => {
    expect(positiveInteger('3', 'Chunk size')).toBe(3)
    for (const bad of ['0', '-1', '2.5', '', 'x']) expect(() => positiveInteger(bad, 'Chunk size')).toThrow(/^Chunk size must be a whole number/)
    expect(() => readChunking({ ...fields, chunking: 'tokens', seed: 'x' })).toThrow(FieldError)
    expect(readChunking({ ...fields, chunking: 'fixed', size: '5' })).toEqual({ kind: 'fixed', size: 5 })
  })
})

describe('run', () => {
  it('should support the sample: reasoning, the fenced example as text, one call, every unit in one piece', () => {
    const expected = parseToolCalls(sample)
    for (const chunks of [[sample], cut(sample, { kind: 'units' }), cut(sample, { kind: 'tokens', seed: 5, longest: 12 })]) {
      const result = run(chunks, readOptions(fields, defaultGrammar))
      expect(result.lossless).toBe(true)
      expect(result.calls.map((c) => [c.name, c.input, c.span])).toEqual(expected.calls.map((c) => [c.name, c.input, c.span]))
      expect(result.text).toBe(expected.text)
      expect(result.reasoning).toBe(expected.reasoning)
      expect(result.pushes).toHaveLength(chunks.length + 1)
      expect(result.pieces.map((p) => p.kind)).toEqual(['reasoning-tag', 'reasoning', 'reasoning-tag', 'text', 'tool-call', 'text'])
      // the pieces tile the input
      expect(result.pieces[0]!.span.start).toBe(0)
      for (let i = 1; i < result.pieces.length; i++) expect(result.pieces[i]!.span.start).toBe(result.pieces[i - 1]!.span.end)
      expect(result.pieces.at(-1)!.span.end).toBe(sample.length)
    }
  })

  it('should support streamed arguments and strict errors among the events', () => {
    const broken = 'x <|DSML|tool_calls><|DSML|invoke name="a"></|DSML|tool_calls> y'
    const streamed = run([sample], readOptions({ ...fields, streamArguments: true }, defaultGrammar))
    expect(streamed.events.filter((e) => e.type === 'tool-call-start')).toHaveLength(1)
    const strict = run([broken], readOptions({ ...fields, strict: true }, defaultGrammar))
    expect(strict.problems.map((p) => [p.type, p.code])).toEqual([['error', 'malformed-block']])
    expect(strict.lossless).toBe(true)
  })
})

describe('marks', () => {
  it('should support a problem cut into the pieces it covers, and a call kept whole', () => {
    const pieces = [
      { kind: 'text' as const, span: { start: 0, end: 10 } },
      { kind: 'tool-call' as const, span: { start: 10, end: 20 }, call: 0 },
      { kind: 'text' as const, span: { start: 20, end: 30 } },
    ]
    const out = blocks(pieces, [{ span: { start: 5, end: 25 } }, { span: { start: 12, end: 12 } }])
    expect(out.flatMap((b) => b.stretches).every((s) => !s.cut)).toBe(true)
    expect(out.map((b) => b.stretches.map((s) => [s.start, s.end, s.problems]))).toEqual([
      [
        [0, 5, []],
        [5, 10, [0]],
      ],
      [
        [10, 12, [0]],
        [12, 20, [0]],
      ],
      [
        [20, 25, [0]],
        [25, 30, []],
      ],
    ])
  })

  it("should support the pushes' edges as cuts, marked where a push began", () => {
    const pieces = [
      { kind: 'text' as const, span: { start: 0, end: 10 } },
      { kind: 'tool-call' as const, span: { start: 10, end: 20 }, call: 0 },
    ]
    const out = blocks(pieces, [], [4, 10, 15])
    expect(out.map((b) => b.stretches.map((s) => [s.start, s.end, s.cut]))).toEqual([
      [
        [0, 4, false],
        [4, 10, true],
      ],
      [
        [10, 15, true],
        [15, 20, true],
      ],
    ])
  })
})

describe('settings', () => {
  it('should support the default dialect as JSON the library validates back', () => {
    expect(dialects.map((d) => d.label)).toEqual(['deepseek (default)'])
    expect(readGrammar(grammarJson(defaultGrammar))).toEqual(defaultGrammar)
  })

  it("should not support a grammar that is not JSON or not valid, with the library's error", () => {
    expect(() => readGrammar('{')).toThrow(FieldError)
    const invalid = JSON.stringify({ ...JSON.parse(grammarJson(defaultGrammar)), frames: 3 })
    let error: unknown
    try {
      readGrammar(invalid)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ToolsieveError)
    expect(describeError(error)).toBe('GrammarError (invalid-grammar): frames: must be an array, got number 3')
  })

  it('should support the options as a user passes them, leaving their checks to the library', () => {
    const options = readOptions({ ...fields, captureLimit: '100', quoted: 'q', tools: '["read_file"]', onInvalid: 'reject' }, defaultGrammar)
    expect(options).toMatchObject({ captureLimit: 100, quoted: ['q'], tools: ['read_file'], onInvalid: 'reject' })
    expect(() => run(['x'], readOptions({ ...fields, captureLimit: 'lots' }, defaultGrammar))).toThrow(ToolsieveError)
    expect(() => readOptions({ ...fields, tools: '[' }, defaultGrammar)).toThrow(/^Tools is not JSON/)
  })
})

describe('links', () => {
  it('should support the input and settings round-tripped through a fragment, any Unicode', () => {
    const state = { input: `${sample}😀 \u0000`, dialect: 'deepseek', grammar: '{"name":"x"}', fields: { ...fields, chunking: 'units' } }
    const hash = encodeShared(state)
    expect(hash).toMatch(/^#s=[A-Za-z0-9_-]+$/)
    expect(decodeShared(hash)).toEqual(state)
  })

  it('should not support a damaged or foreign fragment: the page starts as usual', () => {
    for (const hash of ['', '#top', '#s=', '#s=@@@', `#s=${btoa('[1]')}`, `#s=${btoa('{"input":1,"dialect":"d","fields":{}}')}`, encodeShared({ input: 'x', dialect: 'd', fields: {} }).slice(0, -3)]) {
      expect(decodeShared(hash), hash).toBeUndefined()
    }
  })
})
