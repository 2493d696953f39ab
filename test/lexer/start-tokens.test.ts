/**
 * The `messageStart` mode's tokens (`src/lexer/start-tokens.ts`), white-box:
 * the decision at a message's start, in a grammar with blocks anchored there,
 * as Chevrotain custom matchers. The behaviour is specified in
 * `test/dialects/read-anchored.test.ts`; this is how the lexer cuts the text.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { extendGrammar } from '../../src/grammar/load.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { streamStart } from '../../src/lexer/lines.js'
import { modes } from '../../src/lexer/modes.js'
import { decideStart } from '../../src/lexer/start-tokens.js'

// Llama 3.1's layout: `<|python_tag|>` or nothing before a JSON object at the message start, `; ` between calls
const anchored = { open: ['<|python_tag|>'], values: ['object' as const], separator: [';'] }
const lexer = compileLexer(extendGrammar(defaultGrammar, { blocks: { open: [], close: [], json: { open: [], anchored } } }))

function lex(text: string, afterBlock = false, final = false) {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final, lineState: streamStart, lines: new LineCursor(streamStart), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: 1000, afterBlock }
  return lexer.tokenize(text, modes.messageStart, ctx).map((t) => [lexer.infoByIdx[t.tokenTypeIdx]!.json ?? t.tokenType.name, t.image])
}

describe('the messageStart tokens', () => {
  it('should support blanks, then an opener: the opener leads into the block, read in the same run', () => {
    expect(lex('\n  <|python_tag|>{"name": "f"} x')).toEqual([
      ['messageStart.Blank', '\n  '], ['jsonBlock.AnchorOpen', '<|python_tag|>'], ['end', '{"name": "f"}'], ['halt.Rest', ' x'],
    ])
  })

  it('should support a value with no opener: an empty opener before its bracket', () => {
    expect(lex('{"name": "f"}')).toEqual([['jsonBlock.AnchorOpen', ''], ['end', '{"name": "f"}']])
  })

  it('should support a separator after a block: it and its blanks are the next opener', () => {
    expect(lex(' ;  {"a": 1}', true)).toEqual([['messageStart.Blank', ' '], ['jsonBlock.AnchorOpen', ';  '], ['end', '{"a": 1}']])
    expect(lex(' {"a": 1}', true)).toEqual([['messageStart.Blank', ' '], ['messageStart.Prose>halt', ''], ['halt.Rest', '{"a": 1}']])
  })

  it('should support an opener\'s start at the end of the text: held, the last line\'s blanks with it, unless the stream ends', () => {
    expect(lex('\n <|python_')).toEqual([['messageStart.Blank', '\n'], ['messageStart.Incomplete', ' <|python_']])
    expect(lex('\n <|python_', false, true)).toEqual([['messageStart.Blank', '\n'], ['messageStart.Prose>halt', ''], ['halt.Rest', ' <|python_']])
  })

  it('should not support a block after text or indented code: the message opens with text, an empty Prose', () => {
    expect(lex('Hi {"a": 1}')).toEqual([['messageStart.Prose>halt', ''], ['halt.Rest', 'Hi {"a": 1}']])
    expect(lex('    {"a": 1}')).toEqual([['messageStart.Prose>halt', ''], ['halt.Rest', '    {"a": 1}']])
  })

  it('should give the same decision from any offset it leaves blanks at', () => {
    for (const text of ['  \n \t{', '\n\n   <|python_tag|>x', ' '.repeat(130) + '{', '\n ;', '\n ; {']) {
      for (const between of [false, true]) {
        const d = decideStart(text, 0, anchored, between)
        expect(decideStart(text, d.at, anchored, between)).toEqual(d)
      }
    }
  })
})
