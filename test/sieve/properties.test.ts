/**
 * Property tests: random documents built from the pieces real answers are made
 * of give the same events under any chunking, and every character leaves
 * exactly once. Documents of plain prose and valid blocks give exactly the
 * calls they were built from. Arbitrary strings never make the sieve throw.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { calls, codes, expectConservation, runSieve, textOf } from '../helpers/chunking.js'
import { CLOSED_SPELLINGS, DRIFT, SPELLINGS, buildBlock, type CallSpec, type Spelling } from '../helpers/blocks.js'

const numRuns = 200
const ALL_SPELLINGS = [...SPELLINGS, ...DRIFT]

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.constantFrom('read_file', 'list_dir', 'search', 'run_tests'),
  params: fc.dictionary(fc.constantFrom('path', 'pattern', 'note'), fc.constantFrom('src/a.ts', 'README.md', 'hello world', '你好，世界', 'a < b > c'), {
    maxKeys: 2,
  }),
})
const specs = fc.array(callSpec, { minLength: 1, maxLength: 3 })
const sep = fc.constantFrom('\n', '', '\n\n  ')

/** A valid block in any spelling, with its expected calls. */
const validBlock = (spellings: readonly Spelling[]) =>
  fc.tuple(fc.constantFrom(...spellings), specs, sep).map(([s, cs, sp]) => buildBlock(s, cs, sp))

const prose = fc.constantFrom(
  'Hello there. ',
  '好的，我来看看这个文件。',
  'Numbers: 1 < 2 and 3 > 2. ',
  'pipes a|b ｜ c ',
  'emoji 😀 and 中文. ',
  'DSML is the format. ',
  '\n',
  '\n\n',
  ' \t\n',
  '\r\n',
)

const markupPiece = fc.oneof(
  prose,
  validBlock(ALL_SPELLINGS).map((b) => b.markup),
  // fenced examples, with the opener at line start
  fc
    .tuple(fc.constantFrom('```', '~~~', '````'), fc.constantFrom('', 'xml', 'markdown'), validBlock(SPELLINGS))
    .map(([f, info, b]) => `\n${f}${info}\n${b.markup}\n${f}\n`),
  // inline code spans and lone backtick runs
  validBlock(SPELLINGS).map((b) => '`' + b.markup + '`'),
  fc.constantFrom('`', '``', 'Use `ls` now. ', ' ``a ` b`` '),
  // mentions
  fc.constantFrom('Use <tool_calls> to open. ', '</tool_calls>', '<｜DSML｜tool_calls> ', 'the <invoke> tag ', '<function_calls>, '),
  // broken blocks: malformed, or cut off anywhere
  fc.constantFrom('<tool_calls><invoke></invoke></tool_calls>', '<tool_calls><invoke name="a"><parameter>x</parameter></invoke></tool_calls>'),
  fc.tuple(validBlock(ALL_SPELLINGS), fc.nat()).map(([b, n]) => b.markup.slice(0, n % (b.markup.length + 1))),
  // CDATA inside a value, and in prose
  fc.constantFrom(
    '<tool_calls><invoke name="w"><parameter name="c"><![CDATA[</parameter></tool_calls> ` ```]]></parameter></invoke></tool_calls>',
    'prose <![CDATA[ x ]]> ',
    '<tool_calls><invoke name="w"><parameter name="c"><!-- </invoke> --></parameter></invoke></tool_calls>',
  ),
  // tags with junk where attributes go
  fc.constantFrom('<tool_calls><invoke a.b>', '<｜DSML｜invoke Hello there. ', '<tool_calls><invoke name="a"><parameter p.q>', '<invoke name="a" x=>'),
  // partial tag prefixes
  fc.constantFrom('<', '<|DS', '＜ＤＳＭＬ＜', '<<<<<', '</', '<tool_ca', '|', '>'),
)

const document = fc.array(markupPiece, { maxLength: 12 }).map((pieces) => pieces.join(''))

/** Chunks `input` with sizes cycled from `sizes`. */
function chunkBy(input: string, sizes: number[]): string[] {
  const chunks: string[] = []
  for (let i = 0, k = 0; i < input.length; k++) {
    const size = sizes[k % sizes.length] ?? 1
    chunks.push(input.slice(i, i + size))
    i += size
  }
  return chunks
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 })

describe('properties', () => {
  it('should support chunk invariance and conservation on random documents', () => {
    fc.assert(
      fc.property(document, chunkSizes, fc.nat(), (input, sizes, at) => {
        const reference = runSieve(input, [input])
        expectConservation(input, reference)
        expect(runSieve(input, chunkBy(input, sizes))).toEqual(reference)
        const split = input.length === 0 ? 0 : at % input.length
        expect(runSieve(input, [input.slice(0, split), input.slice(split)])).toEqual(reference)
      }),
      { numRuns },
    )
  })

  it('should support chunk invariance one unit at a time on short random documents', () => {
    fc.assert(
      fc.property(fc.array(markupPiece, { maxLength: 4 }), (pieces) => {
        const input = pieces.join('')
        const reference = runSieve(input, [input])
        expect(runSieve(input, [...Array(input.length).keys()].map((i) => input.charAt(i)))).toEqual(reference)
      }),
      { numRuns: 100 },
    )
  })

  it('should support exactly the built calls in documents of plain prose and valid blocks', () => {
    const plain = fc.constantFrom('Hello. ', '好的。', 'a|b ', '1 > 0 ', '\n', '\n\n', 'DSML ', ' ')
    const piece = fc.oneof(
      plain.map((text) => ({ text, calls: [] as { name: string; input: Record<string, string> }[] })),
      validBlock(CLOSED_SPELLINGS).map((b) => ({ text: '', markup: b.markup, calls: b.calls })),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const input = pieces.map((p) => ('markup' in p ? p.markup : p.text)).join('')
        const events = runSieve(input, [input])
        expect(calls(events)).toEqual(pieces.flatMap((p) => p.calls))
        expect(textOf(events)).toBe(pieces.map((p) => p.text).join(''))
        expect(codes(events)).toEqual([])
      }),
      { numRuns },
    )
  })

  it('should not support throwing on arbitrary strings (any code point, lone surrogates, NUL)', () => {
    const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))
    const fragment = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.string({ unit: loneSurrogate, maxLength: 4 }),
      fc.constantFrom('\u0000', '<', '＜', '`', '```\n', '~~~', '\n\n', '|', '｜', 'DSML', 'tool_calls', '>', '＞', '/', '"', '<![CDATA[', ']]>', '<!--', '-->'),
      markupPiece,
    )
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 16 }), chunkSizes, (pieces, sizes) => {
        const input = pieces.join('')
        const sieve = createSieve({ captureLimit: 64 })
        const chunks = chunkBy(input, sizes)
        for (const chunk of chunks) expect(() => sieve.push(chunk)).not.toThrow()
        expect(() => sieve.end()).not.toThrow()
        const reference = runSieve(input, [input], { captureLimit: 64 })
        expectConservation(input, reference)
        expect(runSieve(input, chunks, { captureLimit: 64 })).toEqual(reference)
      }),
      { numRuns },
    )
  })
})
