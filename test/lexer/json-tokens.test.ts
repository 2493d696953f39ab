/**
 * The `jsonBlock` mode's tokens (`src/lexer/json-tokens.ts`), white-box: the
 * JSON scanner as Chevrotain custom matchers, its state in the run's
 * context and in each token's payload. The behaviour of such blocks is
 * specified in `test/dialects/read-json-end.test.ts` and
 * `read-anchored.test.ts`; this is how the lexer cuts their text.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { extendGrammar } from '../../src/grammar/load.js'
import { initialScan, phases } from '../../src/lexer/json-scan.js'
import type { JsonPayload } from '../../src/lexer/json-tokens.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { streamStart } from '../../src/lexer/lines.js'
import { modes } from '../../src/lexer/modes.js'

// Apertus' layout: an opener, a JSON array, a closer the model may leave out
const lexer = compileLexer(extendGrammar(defaultGrammar, { blocks: { open: [], close: [], json: { open: ['<|tools_prefix|>'], close: ['<|tools_suffix|>'] } } }))

function lex(text: string, mode: string, final = false, scan = initialScan()) {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final, lineState: streamStart, lines: new LineCursor(streamStart), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: mode === modes.jsonBlock ? { scan, before: 128 } : null, captureLimit: 1000, afterBlock: false }
  return lexer.tokenize(text, mode as never, ctx).map((t) => ({ name: t.tokenType.name, image: t.image, part: lexer.infoByIdx[t.tokenTypeIdx]!.json, scan: (t.payload as JsonPayload | undefined)?.scan }))
}

describe('the jsonBlock tokens', () => {
  it('should support a block in one run: the opener starts the scanner, the value, its end, a closer, then nothing is lexed', () => {
    const tokens = lex('a <|tools_prefix|>[{"name": "f"}]<|tools_suffix|> b', modes.prose)
    expect(tokens.map((t) => [t.part ?? t.name, t.image])).toEqual([
      ['prose.Text', 'a '], [expect.stringContaining('wrapper.open'), '<|tools_prefix|>'],
      ['end', '[{"name": "f"}]'], ['close', '<|tools_suffix|>'], ['halt.Rest', ' b'],
    ])
    expect(tokens[2]!.scan).toMatchObject({ phase: phases.after, stack: '' })
  })

  it('should support a value that goes on past the text: one Value token, the scanner inside the string', () => {
    const tokens = lex('[{"na', modes.jsonBlock)
    expect(tokens.map((t) => [t.part, t.image])).toEqual([['value', '[{"na']])
    expect(tokens[0]!.scan).toMatchObject({ phase: phases.value, stack: '[{', str: 1 })
  })

  it('should support a closer\'s start at the end of the text: held (Incomplete), unless the stream ends', () => {
    const after = { ...initialScan(), phase: phases.after }
    expect(lex('<|tools_su', modes.jsonBlock, false, after).map((t) => [t.name, t.image])).toEqual([['jsonBlock.Incomplete', '<|tools_su']])
    expect(lex('<|tools_su', modes.jsonBlock, true, after).map((t) => t.part)).toEqual(['after', undefined])
  })

  it('should not support a mention or a broken value as a block: an empty Mention, a Broken token with its reason', () => {
    expect(lex(' token', modes.jsonBlock).map((t) => [t.part ?? t.name, t.image])).toEqual([['mention', ''], ['halt.Rest', ' token']])
    const broken = lex('[{"a": 1]} x', modes.jsonBlock)
    expect(broken.map((t) => [t.part ?? t.name, t.image])).toEqual([['broken', '[{"a": 1]'], ['halt.Rest', '} x']])
  })
})
