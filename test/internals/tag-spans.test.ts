/**
 * White-box: a tag's span (`src/sieve/tag-spans.ts`) is how far the fast
 * path hands the lexer a tag to lex as a chunk of its own. Where it falls
 * cannot change what is read (a span's end is a chunk edge, and every
 * chunking reads the same: the property tests), only how fast: in the
 * common shapes it ends exactly where the lexer's tag token ends, so the
 * text after it is the fast path's again.
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
const spans = fastPathTables(lexer).spans

function lexed(mode: ModeName, text: string): IToken[] {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final: false, lineState: midLine, lines: new LineCursor(midLine), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
  return lexer.tokenize(text, mode, ctx)
}

/** Where the lexer's tokens of `text` end, each. */
const ends = (ts: IToken[]): number[] => ts.map((t) => t.startOffset + t.image.length)

describe('tag spans', () => {
  it.each<[string, ModeName, string, string]>([
    ['a DSML parameter opener, up to its value', modes.invokeBody, '<｜DSML｜parameter name="path">docs/README.md</｜', 'docs/README.md</｜'],
    ['two attributes, single quotes, spaces before the tag end', modes.invokeBody, "<parameter name='p'  string=\"true\"  >x<", 'x<'],
    ['an invoke opener, then its body', modes.wrapperBody, '<｜DSML｜invoke name="grep">\n<｜DS', '\n<｜DS'],
    ['an invoke opener and the parameter opener after it', modes.wrapperBody, '<invoke name="grep">\n  <parameter name="p">x', 'x'],
    ['attributes from a tag mode on', modes.tagParameter, ' name="p">value</', 'value</'],
    ['the fullwidth spelling', modes.invokeBody, '＜ＤＳＭＬ＜parameter name="x"＞v＜／', 'v＜／'],
    ['a block\'s opener in prose', modes.prose, '<｜DSML｜tool_calls>\n<｜DSML｜inv', '\n<｜DSML｜inv'],
    ['a closer in a value', modes.value, '</｜DSML｜parameter>\nnext', '\nnext'],
    ['a closer and the closers after it, blanks between', modes.value, '</｜DSML｜parameter>\n</｜DSML｜invoke></｜DSML｜tool_calls>\n\nDone.', '\n\nDone.'],
    ['a closer between tags', modes.invokeBody, '</invoke>\n', '\n'],
    ['a closer mentioned in prose', modes.prose, '</tool_calls> is the end', ' is the end'],
    ['an opener mentioned in prose, with no tag end: the name and the character that decides it', modes.prose, '<｜DSML｜parameter tag, always', 'tag, always'],
    ['the end of CDATA, and the closer after it', modes.cdata, ']]></parameter> x', ' x'],
  ])('should support %s: it ends where the lexer\'s tag token does', (_, mode, text, rest) => {
    const span = spans.span(mode, text)
    expect(text.slice(span)).toBe(rest)
    // a token of the lexer's own ends there (a mention's name is decided by the character after it)
    const boundary = rest === 'tag, always' ? span - 1 : span
    expect(ends(lexed(mode, text))).toContain(boundary)
  })

  it("should support random attribute lists: a span ends at one of the lexer's token ends, in the tags' common shapes", () => {
    const piece = fc.constantFrom(' ', '  ', '\t', '\n', 'name', 'string', '=', '"v"', "'a b'", '"x>y"', '>', '＞', '<', 'x', '!', '`', '"')
    const body = fc.constantFrom('', 'src/a.rs', '\n', '\n  ', ' ', '<', '</parameter>', '\n<')
    let bounded = 0
    fc.assert(
      fc.property(fc.constantFrom<ModeName>(modes.tagInvoke, modes.tagParameter, modes.invokeBody, modes.wrapperBody, modes.prose), fc.array(piece, { maxLength: 8 }), body, (mode, pieces, after) => {
        const opener = mode === modes.invokeBody ? '<parameter' : mode === modes.wrapperBody ? '<invoke' : mode === modes.prose ? '<tool_calls' : ''
        const text = opener + pieces.join('') + after
        const span = spans.span(mode, text)
        if (span < 0) return
        expect(span).toBeGreaterThan(0)
        expect(span).toBeLessThanOrEqual(text.length)
        // quotes, line breaks and stray characters in the tag: the lexer's to read however they fall
        if (/["'`\n!<]/.test(text.slice(opener.length, span))) return
        bounded++
        const lex = lexed(mode, text)
        // a span the lexer does not end a token at holds only a name it needs the next character to decide
        if (!ends(lex).includes(span)) expect(ends(lex)).toContain(span - 1)
      }),
      { numRuns: 3000, seed: 7 },
    )
    // the shapes it bounds came up often enough to mean something
    expect(bounded).toBeGreaterThan(300)
  })

  it.each<[string, ModeName, string]>([
    ['a tag whose end the text does not reach, in a tag mode', modes.tagInvoke, ' name="p" '],
    ['text that starts no tag', modes.invokeBody, 'x <'],
    ['a tag start the text leaves undecided', modes.value, '</｜DSML｜para'],
  ])('should not support %s: the lexer takes all of it', (_, mode, text) => {
    expect(spans.span(mode, text)).toBe(-1)
  })
})
