/**
 * Random documents for the property tests, `scripts/fuzz.ts` and the
 * CommonMark oracle: built from the pieces real answers are made of (prose in
 * English and Chinese, ``` and ~~~ fences, code spans, mentions, valid and
 * broken blocks in every spelling). No vitest import: the fuzz script runs
 * these outside the test runner.
 */
import fc from 'fast-check'
import { DRIFT, SPELLINGS, buildBlock, type CallSpec, type Spelling } from '../helpers/blocks.js'

export const ALL_SPELLINGS: readonly Spelling[] = [...SPELLINGS, ...DRIFT]

/** Parameter values that decode to themselves as strings. */
export const PLAIN_VALUES = ['src/a.ts', 'README.md', 'hello world', '你好，世界', 'a < b > c'] as const
/** Plus values that value decoding may turn into something else (JSON, booleans, trimmed text). */
const ANY_VALUES = [...PLAIN_VALUES, '{"x": [1, 2]}', 'true', '  padded  ', '']

const callSpec = (values: readonly string[]): fc.Arbitrary<CallSpec> =>
  fc.record({
    name: fc.constantFrom('read_file', 'list_dir', 'search', 'run_tests'),
    params: fc.dictionary(fc.constantFrom('path', 'pattern', 'note'), fc.constantFrom(...values), { maxKeys: 2 }),
  })
const SEPARATORS = ['\n', '', '\n\n  ', ' ', '\r\n']

/**
 * A valid block in one of `spellings`, with the calls it holds: values from
 * {@link PLAIN_VALUES} when `plain`, tags separated by one of `separators`.
 */
export const validBlock = (spellings: readonly Spelling[] = ALL_SPELLINGS, plain = false, separators: readonly string[] = SEPARATORS) =>
  fc
    .tuple(fc.constantFrom(...spellings), fc.array(callSpec(plain ? PLAIN_VALUES : ANY_VALUES), { minLength: 1, maxLength: 3 }), fc.constantFrom(...separators))
    .map(([s, cs, sep]) => buildBlock(s, cs, sep))

export const prose = fc.constantFrom(
  'Hello there. ',
  'Let me read the file first. ',
  '好的，我来看看这个文件。',
  '这是一个例子：',
  'Numbers: 1 < 2 and 3 > 2. ',
  'pipes a|b ｜ c ',
  'emoji 😀 and 中文. ',
  'DSML is the format. ',
  '~ tilde ~~ ',
  '\n',
  '\n\n',
  ' \t\n',
  '\r\n',
)

export const mention = fc.constantFrom(
  'Use <tool_calls> to open. ',
  '</tool_calls>',
  '<｜DSML｜tool_calls> ',
  'the <invoke> tag ',
  '<function_calls>, ',
  'write `<｜DSML｜invoke name="x">` ',
  '＜ＤＳＭＬ＜tool_calls＞ is fullwidth ',
)

const fenceMarker = fc.constantFrom('```', '~~~', '````', '~~~~~')
const indent = fc.constantFrom('', '', ' ', '   ', '    ')
const info = fc.constantFrom('', 'xml', ' markdown', ' js {1,3}', ' a`b', ' ~x')

/** A fenced example: opener at line start, a body with markup, a closer (or none: unclosed to the end). */
export const fence = fc
  .tuple(indent, fenceMarker, info, fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), prose, mention), fc.constantFrom('same', 'longer', 'shorter', 'none', 'trailing'))
  .map(([ind, f, inf, body, close]) => {
    const closer = close === 'same' ? f : close === 'longer' ? f + f[0] : close === 'shorter' ? f.slice(1) : close === 'trailing' ? f + ' x' : ''
    return `\n${ind}${f}${inf}\n${body}\n${close === 'none' ? '' : ind + closer + '\n'}`
  })

/**
 * Indented code holding markup (four columns in, after a blank line: an
 * example), or the same indent where it is not code (after a paragraph line,
 * or in a list item), and list markers that make the guard leave indented
 * lines alone.
 */
export const indentedCode = fc
  .tuple(fc.constantFrom('\n\n', '\n', '\n\n- a\n\n', '\n\n1. a\n\nb\n\n'), fc.constantFrom('    ', '\t', '  \t', '      '), fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), mention, prose, codeSpanBody()), fc.boolean())
  .map(([before, ind, body, every]) => `${before}${ind}${every ? body.split('\n').join('\n' + ind) : body}\n`)

function codeSpanBody(): fc.Arbitrary<string> {
  return fc.constantFrom('`x` ', '```js', '`` a', '~~~')
}

/**
 * Raw HTML tags, autolinks and comments with backticks in them (literal:
 * CommonMark gives the tag precedence), and near misses whose backticks are
 * runs after all; some hold markup after them.
 */
export const inlineHtml = fc
  .tuple(
    fc.constantFrom('<a href="`">', "<span title='`x`'>", '<https://x.y/`z>', '<!-- ` -->', '<!-->`', '<a href="`"x>', '<a b=`c>', '<https:`>', '<a\nb="`">', '<a href="`\n\n">', '<x-y z="``">'),
    fc.constantFrom('`', '``', ' `', ''),
    fc.oneof(mention, validBlock(SPELLINGS).map((b) => b.markup), fc.constant('')),
    fc.constantFrom('`', '``', ''),
  )
  .map((p) => p.join(''))

/**
 * Fences in block quotes (`> ``` `): closed inside the quote, ended by the
 * quote (a line without its markers, a blank line), nested quotes, and a
 * line of only markers inside a paragraph with an open backtick.
 */
export const quotedFence = fc
  .tuple(
    fc.constantFrom('> ', '>', '  > ', '> > ', '>  '),
    fc.constantFrom('```', '~~~', '````'),
    fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), mention, fc.constant('code')),
    fc.constantFrom('close', 'unquoted', 'blank', 'outer', 'none'),
  )
  .map(([q, f, body, end]) => {
    const inner = body.split('\n').map((l) => q + l).join('\n')
    const tail = end === 'close' ? `\n${q}${f}\n` : end === 'unquoted' ? '\nnot quoted ' : end === 'blank' ? '\n\n' : end === 'outer' ? '\n> x\n' : ''
    return `\n${q}${f}\n${inner}${tail}`
  })

/**
 * Fences opened on a list marker's line (`- ```) with markup inside: closed
 * at the item's indent, ended by a line less indented, or with a blank line
 * inside; and list markers split from their fence by nothing.
 */
export const listFence = fc
  .tuple(
    fc.constantFrom('- ', '* ', '1. ', '10) ', '-   ', '  + '),
    fc.constantFrom('```', '~~~', '````'),
    fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), mention, fc.constant('code')),
    fc.constantFrom('close', 'dedent', 'blank', 'none', 'deeper'),
  )
  .map(([m, f, body, end]) => {
    const pad = ' '.repeat(m.length)
    const inner = body.split('\n').map((l) => pad + l).join('\n')
    const tail = end === 'close' ? `\n${pad}${f}\n` : end === 'dedent' ? '\nnot in the item ' : end === 'blank' ? `\n\n${pad}more\n${pad}${f}\n` : end === 'deeper' ? `\n${pad}  ${f}\n` : ''
    return `\n${m}${f}\n${inner}${tail}`
  })

/**
 * The HTML hiding places (`tokens-html.ts`): an inline comment, a comment
 * block at a line start, a `<pre>`/`<script>`/`<style>`/`<textarea>` block,
 * inline `<code>`; with markup inside, closed, left open, ended by a blank
 * line, or closed by another name (which still ends a raw block).
 */
export const htmlHiding = fc
  .tuple(
    fc.constantFrom('inline comment', 'comment block', 'raw block', 'code'),
    fc.constantFrom('<pre>', '<script type="x">', '<STYLE>', '<textarea>', '<pre><code>', '   <pre'),
    fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), mention, fc.constant(''), fc.constant('`')),
    fc.constantFrom('close', 'none', 'blank', 'other'),
  )
  .map(([kind, tag, body, end]) => {
    const gap = end === 'blank' ? '\n\n' : ''
    if (kind === 'inline comment') return `x <!-- ${body}${gap}${end === 'close' ? ' -->' : end === 'other' ? ' --' : ''} y`
    if (kind === 'code') return `x <code>${body}${gap}${end === 'close' ? '</code>' : end === 'other' ? '</cod' : ''} y`
    if (kind === 'comment block') return `\n<!--\n${body}${gap}\n${end === 'close' ? '-->' : end === 'other' ? '- ->' : ''}\n`
    const name = /<(\w+)/.exec(tag)![1]!.toLowerCase()
    return `\n${tag}\n${body}${gap}\n${end === 'close' ? `</${name}>` : end === 'other' ? '</style> ' : ''}\n`
  })

/** A code span left open across a line of only quote markers (a blank line in the quote). */
export const quotedBreak = fc.constantFrom('\n> a ` b\n>\n> ', '\n> `x\n> y` ', '\n`a\n> b` ', '\n> ``\n  >  \n')

/** Inline code spans around markup, and backtick runs that close nothing. */
export const codeSpan = fc.oneof(
  fc.tuple(fc.constantFrom('`', '``', '```'), fc.oneof(validBlock(SPELLINGS).map((b) => b.markup), mention, prose)).map(([r, body]) => r + body + r),
  fc.constantFrom('`', '``', 'Use `ls` now. ', ' ``a ` b`` ', '`` ` ``', 'x`y'),
)

/** Blocks that do not parse, or stop anywhere. */
export const brokenBlock = fc.oneof(
  fc.constantFrom(
    '<tool_calls><invoke></invoke></tool_calls>',
    '<tool_calls><invoke name="a"><parameter>x</parameter></invoke></tool_calls>',
    '<tool_calls><invoke a.b>',
    '<｜DSML｜invoke Hello there. ',
    '<tool_calls><invoke name="a"><parameter p.q>',
    '<invoke name="a" x=>',
    '<tool_calls><invoke name="w"><parameter name="c"><![CDATA[</parameter></tool_calls> ` ```]]></parameter></invoke></tool_calls>',
    '<tool_calls><invoke name="w"><parameter name="c"><!-- </invoke> --></parameter></invoke></tool_calls>',
    'prose <![CDATA[ x ]]> ',
    '<tool_calls><invoke name="a',
  ),
  fc.tuple(validBlock(), fc.nat()).map(([b, n]) => b.markup.slice(0, n % (b.markup.length + 1))),
)

export const partialTag = fc.constantFrom('<', '<|DS', '＜ＤＳＭＬ＜', '<<<<<', '</', '<tool_ca', '|', '>', '＞', '<｜DSML｜')

export const piece: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: prose, weight: 4 },
  { arbitrary: validBlock().map((b) => b.markup), weight: 3 },
  { arbitrary: fence, weight: 2 },
  { arbitrary: codeSpan, weight: 2 },
  { arbitrary: mention, weight: 2 },
  { arbitrary: brokenBlock, weight: 2 },
  { arbitrary: partialTag, weight: 1 },
  { arbitrary: indentedCode, weight: 1 },
  { arbitrary: inlineHtml, weight: 1 },
  { arbitrary: quotedFence, weight: 1 },
  { arbitrary: quotedBreak, weight: 1 },
  { arbitrary: listFence, weight: 1 },
  { arbitrary: htmlHiding, weight: 1 },
)

/** A document of up to `maxPieces` pieces. */
export const document = (maxPieces = 12): fc.Arbitrary<string> => fc.array(piece, { maxLength: maxPieces }).map((p) => p.join(''))

/** Arbitrary strings: any code unit (lone surrogates, NUL), graphemes, astral characters, construct characters. */
export const arbitraryText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 4 }),
      fc.constantFrom('\u0000', '\uffff', '\ud83d', '\ude00', '😀', '𠀀', '<', '＜', '`', '```\n', '~~~', '\n\n', '|', '｜', 'DSML', 'tool_calls', '>', '＞', '/', '"', '<![CDATA[', ']]>', '<!--', '-->'),
      piece,
    ),
    { maxLength: 16 },
  )
  .map((p) => p.join(''))

/** Chunk sizes, cycled over the input: 1..12 units, like model tokens. */
export const chunkSizes = fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 })

/** Cuts `input` with sizes cycled from `sizes`. */
export function chunkBy(input: string, sizes: readonly number[]): string[] {
  const chunks: string[] = []
  for (let i = 0, k = 0; i < input.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length] ?? 1)
    chunks.push(input.slice(i, i + size))
    i += size
  }
  return chunks
}

// ---- Markdown-only documents, for the CommonMark oracle ----

const word = fc.constantFrom('alpha ', 'beta', '中文 ', '例子', 'x ', '1 < 2 ', 'the <tool_calls> tag ', 'a|b ', '😀 ', '~ ')
const mdSpan = fc.tuple(fc.constantFrom('`', '``', '```', '````'), fc.constantFrom('a', ' b ', 'x ` y', '`', 'c `` d', '<tool_calls>', '中')).map(([r, body]) => r + body + r)
const mdRun = fc.constantFrom('`', '``', '```', '~~~')
const mdFenceLine = fc.tuple(fc.constantFrom('', ' ', '  ', '   '), fc.constantFrom('```', '~~~', '````', '~~~~', '``'), fc.constantFrom('', 'js', ' x y', ' a`b', ' ~', '  ')).map(([i, f, s]) => i + f + s)

/** Inline HTML and autolinks, never at line start (there `<a …>` or `<!--` would open an HTML block, which the guard does not model). */
const mdHtml = fc.constantFrom('<a href="`">', "<b c='`'>", '<https://x.y/`>', '<!-- `a` -->', '<a href="`"x>', '<a b=`c>', '<ftp:`x>').map((h) => 'x ' + h)

/** Inline pieces, for lines of a paragraph or a fence body. */
const inline = fc.oneof({ arbitrary: word, weight: 4 }, { arbitrary: mdSpan, weight: 2 }, { arbitrary: mdRun, weight: 1 }, { arbitrary: mdHtml, weight: 1 })
const textLine = fc.array(inline, { minLength: 1, maxLength: 6 }).map((p) => p.join(''))

/**
 * Lines the guard claims to understand: paragraphs, blank lines, fences (indent
 * up to 3, any length, info strings with and without backticks), lines four
 * columns in (indented code after a blank line, paragraph text after text).
 */
export const guardLine = fc.oneof(
  { arbitrary: textLine, weight: 5 },
  { arbitrary: mdFenceLine, weight: 2 },
  { arbitrary: fc.constantFrom('', ' ', '\t'), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom('    ', '\t', '  \t', '     '), textLine).map(([i, t]) => i + t), weight: 1 },
)

const mdRawHtml = fc.constantFrom('x <!-- ', ' --> ', 'x <code>', '</code> ', '<CODE class="a">', ' <!--> ', '`<code>`', '`<!--`', '</cod ')
const htmlInline = fc.oneof({ arbitrary: word, weight: 4 }, { arbitrary: mdSpan, weight: 1 }, { arbitrary: mdRun, weight: 1 }, { arbitrary: mdRawHtml, weight: 2 })
// (a closing tag alone at a line start would open an HTML block of kind 7, which the guard does not model: closers
// follow text)
const htmlStart = fc.constantFrom('<!--', '<!-- a', '<!-->', 'a -->', '<pre>', '<pre class="x">', 'a </pre>', '<script', 'x </script> z', '<STYLE>', 'a </style>', '<textarea>', 'b </textarea>', '<pre><code>', 'a </code></pre>',
  '<?x', 'a ?>', '<?x?>', '<!DOCTYPE html>', '<!ELEMENT x', 'y >', '<![CDATA[', 'a ]]>', '<![CDATA[x]]>')

/**
 * {@link guardLine}s and lines with raw HTML: inline comments and `<code>`
 * (opened and closed on other lines too), and the starts and ends of HTML
 * blocks of kind 1 to 5 (at most 3 spaces in; four is no block).
 */
export const htmlLine = fc.oneof(
  { arbitrary: guardLine, weight: 4 },
  { arbitrary: fc.array(htmlInline, { minLength: 1, maxLength: 6 }).map((p) => p.join('')), weight: 3 },
  { arbitrary: fc.tuple(fc.constantFrom('', '', ' ', '   ', '    '), htmlStart).map(([i, t]) => i + t), weight: 2 },
)

/** Lines of CommonMark blocks the guard does not model: headings, breaks, HTML, quotes, lists, indented code, escapes. */
export const blockLine = fc.oneof(
  guardLine,
  fc.tuple(fc.constantFrom('# ', '---', '***', '===', '<div>', '    ', '> ', '- ', '1. ', '\\`', '<a href="`">', '<https://x.y/`>'), textLine).map(([p, t]) => p + t),
  fc.tuple(fc.constantFrom('> ', '>', '> > ', '  >'), fc.oneof(mdFenceLine, textLine, fc.constant(''))).map(([p, t]) => p + t),
  fc.tuple(fc.constantFrom('- ', '1. ', '  ', '   ', '* '), fc.oneof(mdFenceLine, textLine)).map(([p, t]) => p + t),
)

/** A Markdown document of lines (no tool-call blocks): `lines` is {@link guardLine} or {@link blockLine}. */
export const markdownDocument = (lines: fc.Arbitrary<string>, maxLines = 10): fc.Arbitrary<string> =>
  fc.tuple(fc.array(lines, { maxLength: maxLines }), fc.boolean()).map(([ls, nl]) => ls.join('\n') + (nl ? '\n' : ''))

/**
 * A Markdown document with one valid block put in mid-line at a random
 * place (no blank line inside the block, so it never starts an HTML block).
 */
export const markdownWithBlock = (lines: fc.Arbitrary<string>): fc.Arbitrary<{ text: string; blockStart: number }> =>
  fc.tuple(markdownDocument(lines, 8), fc.nat(), validBlock(SPELLINGS, true, ['', '\n'])).map(([doc, at, b]) => {
    const k = at % (doc.length + 1)
    const before = doc.slice(0, k) + 'x '
    return { text: before + b.markup + ' y' + doc.slice(k), blockStart: before.length }
  })
