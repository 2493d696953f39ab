/**
 * `categoryOf` (`src/lexer/token-instance.ts`): the one way to ask a token's
 * role, for the lexer's tokens and for the ones the sieve makes of a category
 * type itself (empty closers, a held tail's Incomplete).
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import { extendGrammar } from '../../src/grammar/load.js'
import { allCategories, type CategoryName } from '../../src/lexer/kinds.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { streamStart } from '../../src/lexer/lines.js'
import { modes } from '../../src/lexer/modes.js'
import { categoryOf, tokenOf } from '../../src/lexer/token-instance.js'

const lexer = compileLexer(defaultGrammar)

function lexed(text: string, by = lexer) {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final: true, lineState: streamStart, lines: new LineCursor(streamStart), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
  return by.tokenize(text, modes.prose, ctx)
}

describe('categoryOf', () => {
  it('should support the lexer\'s tokens: the category of their type', () => {
    const tokens = lexed('a <tool_calls><invoke name="f"><parameter name="p">1</parameter></invoke></tool_calls>')
    expect(tokens.map((t) => categoryOf(lexer, t))).toEqual(['Text', 'WrapperOpen', 'TagEnd', 'InvokeOpen', 'Attr', 'TagEnd', 'ParamOpen', 'Attr', 'TagEnd', 'ValueText', 'ParamClose', 'InvokeClose', 'WrapperClose'])
    for (const t of tokens) expect(categoryOf(lexer, t)).toBe(lexer.infoByIdx[t.tokenTypeIdx]!.category)
  })

  it('should support tokens made of a category type: the empty closers and a held tail', () => {
    for (const name of ['InvokeClose', 'WrapperClose', 'ParamClose', 'CDataText', 'CDataClose', 'Incomplete'] satisfies CategoryName[]) {
      expect(categoryOf(lexer, tokenOf(lexer.typeByName.get(name)!, '', NaN))).toBe(name)
    }
    for (const c of allCategories) expect(categoryOf(lexer, tokenOf(c, '', NaN))).toBe(c.name)
  })

  it('should not support a token of another lexer\'s type', () => {
    const other = compileLexer(extendGrammar(defaultGrammar, { wrapper: ['tool_use'] }))
    const [foreign] = lexed('<tool_use>', other)
    expect(categoryOf(other, foreign!)).toBe('WrapperOpen')
    expect(() => categoryOf(lexer, foreign!)).toThrow(/neither this lexer's nor a category/)
  })
})
