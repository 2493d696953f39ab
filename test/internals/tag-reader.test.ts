/**
 * White-box: the tag reader (`src/sieve/tag-reader.ts`) stands in for the lexer on a
 * deferred tag: wherever it reads, its tokens must be the lexer's, type and
 * image, up to where it stops; wherever the shape is not its own, it reads
 * nothing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { IToken } from 'chevrotain'
import { defaultGrammar } from '../../src/grammar/default.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { midLine } from '../../src/lexer/lines.js'
import { modes, type ModeName } from '../../src/lexer/modes.js'
import { fastPathTables } from '../../src/sieve/fast-path-tables.js'

const lexer = compileLexer(defaultGrammar)
const reader = fastPathTables(lexer).tagReader

function lexed(mode: ModeName, text: string): IToken[] {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final: false, lineState: midLine, lines: new LineCursor(midLine), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null }
  return lexer.tokenize(text, mode, ctx)
}

const shape = (ts: IToken[]) => ts.map((t) => [t.tokenType.name, t.image, t.startOffset])

describe('tag reader', () => {
  it.each<[string, ModeName, string, string]>([
    ['a DSML parameter, its value, the next tag start', modes.invokeBody, '<｜DSML｜parameter name="path">docs/README.md</｜', '</｜'],
    ['two attributes, single quotes, spaces before the tag end', modes.invokeBody, "<parameter name='p'  string=\"true\"  >x<", '<'],
    ['an invoke, a line break, the next tag start', modes.wrapperBody, '<｜DSML｜invoke name="grep">\n<｜DS', '<｜DS'],
    ['blank lines between tags', modes.wrapperBody, '<invoke name="a">\n  \n\t<', '<'],
    ['attributes from a tag mode on', modes.tagParameter, ' name="p">value</', '</'],
    ['the fullwidth spelling', modes.invokeBody, '＜ＤＳＭＬ＜parameter name="x"＞v＜／', '＜／'],
    ['blanks that end the text (the lexer holds them): read up to the tag end', modes.wrapperBody, '<invoke name="a">\n  ', '\n  '],
    ['a value to the end of the text', modes.invokeBody, '<parameter name="p">src/a', ''],
    ['a block\'s opener in prose, the line break after it', modes.prose, '<｜DSML｜tool_calls>\n<｜DSML｜inv', '<｜DSML｜inv'],
    ['spaces and a tab before the tag end, `=` with spaces', modes.tagInvoke, ' name = "a" \t>\n<', '<'],
  ])('should support %s: the lexer\'s tokens, up to where it stops', (_, mode, text, rest) => {
    const read = reader.read(mode, text)
    expect(read).not.toBeNull()
    expect(text.slice(read!.end)).toBe(rest)
    const lex = lexed(mode, text)
    expect(shape(read!.tokens)).toEqual(shape(lex.slice(0, read!.tokens.length)))
    // the lexer's next token starts where the reader stopped
    expect(lex[read!.tokens.length]?.startOffset ?? text.length).toBe(read!.end)
  })

  it('should support any attribute list it reads exactly as the lexer does (random tags)', () => {
    const piece = fc.constantFrom(' ', '  ', '\t', '\n', 'name', 'string', '=', '"v"', "'a b'", '"x>y"', '>', '＞', '<', 'x', '!', '`', '"')
    const body = fc.constantFrom('', 'src/a.rs', '\n', '\n  ', ' ', '<', '</parameter>', '\n<')
    let reads = 0
    fc.assert(
      fc.property(fc.constantFrom<ModeName>(modes.tagInvoke, modes.tagParameter, modes.invokeBody, modes.wrapperBody, modes.prose), fc.array(piece, { maxLength: 8 }), body, (mode, pieces, after) => {
        const opener = mode === modes.invokeBody ? '<parameter' : mode === modes.wrapperBody ? '<invoke' : mode === modes.prose ? '<tool_calls' : ''
        const text = opener + pieces.join('') + after
        const read = reader.read(mode, text)
        if (read === null) return
        reads++
        const lex = lexed(mode, text)
        expect(shape(read.tokens)).toEqual(shape(lex.slice(0, read.tokens.length)))
        expect(lex[read.tokens.length]?.startOffset ?? text.length).toBe(read.end)
      }),
      { numRuns: 3000, seed: 7 },
    )
    // the shapes it reads came up often enough to mean something
    expect(reads).toBeGreaterThan(300)
  })

  it.each<[string, ModeName, string]>([
    ['a line break inside a quoted value', modes.invokeBody, '<parameter name="p\nq">x<'],
    ['an unquoted value', modes.invokeBody, '<parameter name=p>x<'],
    ['a tag whose end the text does not reach', modes.invokeBody, '<parameter name="p" '],
    ['a parameter straight in the wrapper (it breaks the block)', modes.wrapperBody, '<parameter name="p">x<'],
    ['a stray character in the tag', modes.tagInvoke, ' name="a" !>'],
    ['a closing tag in prose (a mention: text)', modes.prose, '</tool_calls>\n'],
  ])('should not support %s: it reads nothing', (_, mode, text) => {
    expect(reader.read(mode, text)).toBeNull()
  })
})
