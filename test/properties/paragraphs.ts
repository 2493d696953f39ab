/**
 * Paragraphs built to send the sieve back: tags and blocks after backtick
 * runs of several lengths (most left unmatched), backticks inside autolinks
 * and HTML tags, list and quote markers, and every way a paragraph ends
 * (blank lines, fence lines, a voided fence opener, a heading). Holds halt
 * here again and again, meet the capture limit, and are lexed again; the
 * general document generator seldom stacks enough of them in one paragraph.
 * Three chunking bugs a review found this way are pinned in
 * `test/sieve/markdown-guard.test.ts`.
 */
import fc from 'fast-check'
import { SPELLINGS } from '../helpers/blocks.js'
import { document, validBlock } from './generator.js'

const block = validBlock(SPELLINGS, true, ['', '\n', ' '])
const tag = fc.oneof(
  { arbitrary: block.map((b) => b.markup), weight: 5 },
  { arbitrary: fc.constantFrom('<tool_calls>', '<｜DSML｜tool_calls>', '<|DSML|invoke name="x">', '<tool_calls', '<｜DSML｜tool', '</tool_calls>'), weight: 2 },
)
const run = fc.constantFrom('`', '``', '```', '````', '`````', '~~~')
const word = fc.constantFrom('a ', 'word ', ' ', '中文 ', 'x<y ', '<a href="`">', '<https://x.y/`>', '\n', '\n> ', '\n- ', '    ', '\t', '\\`')
const ending = fc.constantFrom('\n\n', '\n \n', '\n\t\n', '\n```\n', '\n```js\n', '\n~~~\n', '\n``` a`b\n', '\r\n\r\n', '\n\n\n', '', '\n# h\n', '\n> \n', '\n>\n')
const item = fc.oneof(
  { arbitrary: fc.tuple(run, fc.constantFrom(' ', '', 'x '), tag, fc.constantFrom(' ', '', ' y ')).map((p) => p.join('')), weight: 4 },
  { arbitrary: run, weight: 2 },
  { arbitrary: word, weight: 3 },
)
const paragraph = fc.tuple(fc.array(item, { minLength: 1, maxLength: 10 }), ending).map(([p, e]) => p.join('') + e)

/** One to four such paragraphs, sometimes followed by a small generated document. */
export const heldParagraphs: fc.Arbitrary<string> = fc
  .tuple(fc.array(paragraph, { minLength: 1, maxLength: 4 }), fc.option(document(4), { nil: undefined }))
  .map(([ps, d]) => ps.join('') + (d ?? ''))
