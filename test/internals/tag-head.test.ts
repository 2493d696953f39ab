/**
 * White-box: `readTagHead` (src/parser/tag-attributes.ts), which
 * `streamArguments` uses to read a parameter's opening tag as it ends,
 * reads the attributes the block parser reads from the same tokens, and
 * refuses what the parser refuses. Both fill one `TagAttributes`.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { IToken } from 'chevrotain'
import { defaultGrammar } from '../../src/grammar/default.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { midLine } from '../../src/lexer/lines.js'
import { modes } from '../../src/lexer/modes.js'
import { categoryOf } from '../../src/lexer/token-instance.js'
import { parseBlock } from '../../src/parser/block-parser.js'
import { readTagHead } from '../../src/parser/tag-attributes.js'

const lexer = compileLexer(defaultGrammar)

function lexed(text: string): IToken[] {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final: true, lineState: midLine, lines: new LineCursor(midLine), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
  return lexer.tokenize(text, modes.prose, ctx)
}

/** The parameter tag's attributes read both ways: by the parser in a block, and by role from its tokens. */
function bothWays(head: string): { parsed: Array<[string, string]> | null; read: Array<[string, string]> | null } {
  const tokens = lexed(`<tool_calls><invoke name="f"><parameter${head}>v</parameter></invoke></tool_calls>`)
  const block = parseBlock(lexer, tokens)
  const parsed = block === null || block.invokes.length !== 1 || block.invokes[0]!.params.length !== 1 ? null : [...block.invokes[0]!.params[0]!.attrs]
  const from = tokens.findIndex((t) => categoryOf(lexer, t) === 'ParamOpen')
  let to = from
  while (to < tokens.length && categoryOf(lexer, tokens[to]!) !== 'TagEnd') to++
  const attrs = from < 0 || to >= tokens.length ? null : readTagHead(lexer, tokens, from, to + 1, 'ParamOpen')
  return { parsed, read: attrs === null ? null : [...attrs] }
}

describe('a parameter tag read by role', () => {
  it.each([
    [' name="path" string="true"'],
    [" name='p'  string=\"true\"  "],
    [' NAME="Upper" String="false"'],
    [' name="first" name="second"'],
    [' name="" name="filled"'],
    [' name = "spaced"'],
    [' name=bare string=true'],
    ['=f string="true"'],
    [' lone name="x"'],
    [' name="a>b"'],
    [''],
  ])('should read %j as the block parser does', (head) => {
    const { parsed, read } = bothWays(head)
    expect(parsed).not.toBeNull()
    expect(read).toEqual(parsed)
  })

  it('should read any attribute spelling as the block parser does', () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '  ', '\n', '=', ' = ', '"', "'", 'name', 'NAME', 'string', 'true', 'x'),
      fc.string({ unit: fc.constantFrom('a', 'B', ' ', '=', '"', "'", '-', '_', 'é'), maxLength: 6 }),
    )
    let compared = 0
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const head = ' ' + pieces.join('')
        const { parsed, read } = bothWays(head)
        // where the parser takes the block, the tag read by role is the same; a head the parser refuses
        // may lex into a tag that is no parameter's (a quote never closed): then neither reads it
        if (parsed === null) return
        compared++
        expect(read).toEqual(parsed)
      }),
      { numRuns: 2000 },
    )
    // most spellings make a tag the parser takes: the property compared them, it did not skip them
    expect(compared).toBeGreaterThan(500)
  })

  it('should not read tokens that are not one parameter tag', () => {
    const tokens = lexed('<tool_calls><invoke name="f"><parameter name="p">v</parameter></invoke></tool_calls>')
    const open = tokens.findIndex((t) => categoryOf(lexer, t) === 'ParamOpen')
    const invoke = tokens.findIndex((t) => categoryOf(lexer, t) === 'InvokeOpen')
    let end = open
    while (categoryOf(lexer, tokens[end]!) !== 'TagEnd') end++
    expect(readTagHead(lexer, tokens, open, end + 1, 'ParamOpen')).not.toBeNull()
    // an invoke's tag where a parameter's is asked for, a tag without its end, a tag and what follows it
    expect(readTagHead(lexer, tokens, invoke, open, 'ParamOpen')).toBeNull()
    expect(readTagHead(lexer, tokens, open, end, 'ParamOpen')).toBeNull()
    expect(readTagHead(lexer, tokens, open, end + 2, 'ParamOpen')).toBeNull()
  })
})
