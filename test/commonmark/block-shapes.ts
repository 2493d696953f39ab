/**
 * Documents for the oracle's block decisions around the lines that decide
 * indented code: thematic breaks, setext underlines, HTML blocks (kinds 1
 * to 5) closed on their line or later, fences, headings, block quotes with a break, list
 * markers inside fences and HTML blocks; then a line four columns in (or a
 * line with a block mid-line), with `\n`, `\r\n` or `\r` line endings, or
 * all three in one document.
 */
import fc from 'fast-check'
import { SPELLINGS } from '../helpers/blocks.js'
import { validBlock } from '../properties/generator.js'

const text = fc.constantFrom('Text', 'alpha beta', '中文', 'x `a` y', 'Use ` then', 'a <code> b', '1 < 2')
// (`-` alone after no paragraph is an empty list item: with the list markers below)
const rule = fc.constantFrom('***', '---', '___', ' * * *', '- - -', '_ _ _  ', '**', '--', 'Title\n-', 'Title\n=', '===', '= =', '---x', '***x', 'Title\n---  ')
// (a closing tag alone at a line start opens an HTML block of kind 7, which the guard does not model: closers follow text)
const html = fc.constantFrom('<!-- note -->', '<!--', 'a -->', '-->', '<pre>', 'a </pre>', '<pre>x</pre>', '<script>', 'x </script>', '<!-->', '<textarea>', '</textarea> z',
  // kinds 3 to 5: a processing instruction, a declaration, a CDATA section (and look-alikes that open none)
  '<?x?>', '<?php', 'a ?>', '<?>', '<!DOCTYPE html>', '<!ELEMENT x', 'y >', '<![CDATA[x]]>', '<![CDATA[', ']]> z', '<!1>', '<![cdata[x]]>')
const fence = fc.constantFrom('```', '~~~', '````', '```js', '~~~ x')
/** List markers inside closed fences and HTML blocks (`\n` stands for the document's line ending). */
const codeWithMarker = fc.constantFrom('```\n- item\n```', '~~~\n* x\n~~~', '<!--\n- x\n-->', '<pre>\n1. x\n</pre>', '````\n+ y\n````', '<!-- a\n10) b -->', '<?x\n- y\n?>', '<![CDATA[\n* z\n]]>')
/** List markers outside code (the guard then leaves indented lines alone: see {@link shapeWithBlock}). */
const marker = fc.constantFrom('- item', '* x', '1. x', '+ y', '-', '10) z', '- - x', '=', '-')
const quote = fc.constantFrom('> ***', '> ---', '> x', '>', '> ```', '>  ***', '> ___')
const other = fc.constantFrom('', '', ' ', '# Title', '## x ##', '    code', '\tcode')

/**
 * One line of the document (or a closed fence or HTML block with a list
 * marker inside), before the block's line. With `lists`, also list markers
 * outside code: the guard's list rule errs towards live calls (inside a list
 * it does not tell an item's paragraph from indented code), so those
 * documents are checked in one direction only.
 */
export const shapeLine = (lists: boolean) =>
  fc.oneof(
    { arbitrary: text, weight: 3 },
    { arbitrary: rule, weight: 2 },
    { arbitrary: html, weight: 2 },
    { arbitrary: fence, weight: 2 },
    { arbitrary: codeWithMarker, weight: 2 },
    { arbitrary: lists ? marker : text, weight: 2 },
    { arbitrary: quote, weight: 1 },
    { arbitrary: other, weight: 2 },
  )

/** Line endings of one kind each, in turn, for {@link mixed} documents. */
const kinds = ['\n', '\r\n', '\r']

/**
 * `mixed` as an ending: each line ending of the document is LF, CRLF or CR
 * in turn (from a random first one), so every pair of kinds meets.
 */
export const mixed = 'mixed'

/** A document of lines with one valid block (on one line) after them, and lines after it; the block's offset. */
export const shapeWithBlock = (endings: readonly string[] = ['\n', '\r\n', '\r'], lists = false) =>
  fc
    .tuple(
      fc.array(shapeLine(lists), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('    ', '\t', '  ', 'x ', '     '),
      validBlock(SPELLINGS, true, ['']),
      fc.array(shapeLine(lists), { maxLength: 3 }),
      fc.constantFrom(...endings),
      fc.nat({ max: 2 }),
    )
    .map(([before, lead, b, after, ending, turn]) => {
      let k = turn
      const next = () => (ending === mixed ? kinds[k++ % 3]! : ending)
      const lines = (ls: string[]) => ls.join('\n').replace(/\n/g, next)
      const head = lines(before) + next() + lead
      return { text: head + b.markup + (after.length > 0 ? next() + lines(after) : ''), blockStart: head.length, eol: ending }
    })
