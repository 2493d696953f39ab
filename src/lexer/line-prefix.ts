/**
 * Reading a line's prefix where a construct stands: block quote markers, a
 * list marker, indentation (`lineStartIndent`, `rawIndent`), whether the
 * next line keeps a fence's container (`keepsIndent`), and which line-start
 * prefixes the lexer holds at the end of a text until what follows decides.
 */
import { codeAt, codes, isAsciiDigit, isBulletMarker, isOrderedDelimiter } from './codes.js'
import { MAX_COLUMNS, blankWidth, columnsOf, isLineEnding, itemColumnIn, linePositions, markersOf, paragraphLine, positionOf, quotedOf, type LineState } from './lines.js'

/**
 * Longest line prefix that the lexer holds at the end of a text: block quote
 * markers and spaces (`> > > ` and a little indent, {@link quoteMarkersPrefix}),
 * or list markers and their blanks (`   1.    `, `- - `).
 */
export const maxQuotePrefix = 16
/** Longest prefix of block quote markers and spaces read as such (held, or kept by a fence's next line). */
const quoteMarkersPrefix = 8

/**
 * Where a construct starting at `pos` stands in its line: -1 unless only
 * block quote markers (`>`, each after at most 3 spaces, with the one space
 * after it) and at most 3 spaces of indent precede it on its line; else the
 * quote depth and that indent, as `depth << 3 | indent` ({@link indentOf},
 * {@link quoteDepthOf}). Reads back to the line start in `text`, or on from
 * what the line state carried into it. `here`, the line state at `pos`,
 * tells a list marker that is no item (it may not interrupt the paragraph
 * before it: `Intro.\n2. ```` is paragraph text) from one that is.
 */
export function lineStartIndent(text: string, pos: number, initial: LineState, here?: LineState): number {
  if (here !== undefined) {
    // four or more columns in, only blanks before it: the list item's whose content column the line keeps, at most 3
    // columns past it (`10. Run this:`, then a fence four columns in); nearer the margin the rules below read it
    const item = itemColumnIn(here)
    const cols = columnsOf(here)
    if (item > 0 && cols >= 4 && cols < MAX_COLUMNS && cols >= item && cols - item <= 3) return item << 8
  }
  // right after a list marker (`- `, `1. `, `- - `): the item's first line; its content column is the construct's
  const w = listItemPrefix(text, pos, initial)
  if (w >= 0) return here !== undefined && paragraphLine(here) ? -1 : w
  let i = pos - 1
  // the spaces right before the construct: more than 4 (a marker's own space and 3) are never a fence's indent
  while (i >= 0 && codeAt(text, i) === codes.space) i--
  const spaces = pos - 1 - i
  if (spaces > 4) return -1
  if (i >= 0 && isLineEnding(codeAt(text, i))) return spaces <= 3 ? spaces : -1
  let quoted = false
  while (i >= 0) {
    const c = codeAt(text, i)
    if (c === codes.greaterThan) quoted = true
    else if (c !== codes.space) break
    i--
  }
  const n = pos - 1 - i
  if (i >= 0) {
    if (!isLineEnding(codeAt(text, i))) return -1
    if (!quoted) return n <= 3 ? n : -1
    return quotePrefix(text, i + 1, pos, 0, 0, false)
  }
  if (positionOf(initial) === linePositions.mid) return -1
  // the line began in an earlier text: go on from its markers and columns (after a marker, its own space is no indent)
  const marked = quotedOf(initial)
  const cols = columnsOf(initial)
  return quotePrefix(text, 0, pos, markersOf(initial), marked && cols > 0 ? cols - 1 : cols, marked && cols === 0)
}

/**
 * `lineStartIndent`'s value for a line's prefix `text[from, to)` of spaces
 * and `>`, read on from `depth` markers and `cols` columns (`own`: the
 * last marker's own space may still come), or -1.
 */
export function quotePrefix(text: string, from: number, to: number, depth: number, cols: number, own: boolean): number {
  for (let i = from; i < to; i++) {
    if (codeAt(text, i) === codes.space) {
      // the one space after a marker belongs to it
      if (own) own = false
      else cols++
    } else {
      // a `>` four columns in is no marker
      if (cols > 3) return -1
      depth = Math.min(15, depth + 1)
      cols = 0
      own = true
    }
  }
  return cols > 3 ? -1 : (depth << 3) | cols
}

/**
 * `text[offset..]` is a line-start prefix the lexer holds at the end of a
 * text until what follows decides (a fence may follow it): 1 to 3 spaces,
 * or with `quotes` also block quote markers (at most {@link maxQuotePrefix}).
 */
export function heldLinePrefix(text: string, offset: number, initial: LineState, quotes: boolean): boolean {
  const n = text.length - offset
  if (n < 1 || n > (quotes ? maxQuotePrefix : 3)) return false
  if (offset > 0 ? !isLineEnding(codeAt(text, offset - 1)) : positionOf(initial) !== linePositions.start) return false
  if (quotes && listMarkerPrefix(text, offset)) return true
  if (n > quoteMarkersPrefix) return false
  let quoted = false
  for (let i = offset, end = text.length; i < end; i++) {
    const c = codeAt(text, i)
    if (c === codes.greaterThan && quotes) quoted = true
    else if (c !== codes.space) return false
  }
  return quoted ? quotePrefix(text, offset, text.length, 0, 0, false) >= 0 : n <= 3
}

/**
 * `text[offset..]` is (the start of) a list marker line's prefix: up to 3
 * spaces, then markers, each with one to four columns of blanks after it
 * (see {@link itemPrefix}).
 */
function listMarkerPrefix(text: string, offset: number): boolean {
  let i = offset
  const end = text.length
  while (i < end && codeAt(text, i) === codes.space && i - offset < 3) i++
  if (i === end) return false
  let col = i - offset
  for (let marked = false; ; marked = true) {
    // a block quote opened in the item: its markers and spaces
    if (marked && codeAt(text, i) === codes.greaterThan) return quotePrefix(text, i, end, 0, 0, false) >= 0
    const m = markerEnd(text, i, end)
    if (m === end) return true
    if (m < 0) return false
    col += m - i
    i = m
    const start = col
    for (; i < end && isSpaceOrTab(codeAt(text, i)); i++) col += blankWidth(codeAt(text, i), col)
    if (col - start > 4) return false
    if (i === end) return true
    if (col === start) return false
  }
}

/** A space or a tab (`codes.isBlank` counts line endings too). */
const isSpaceOrTab = (c: number): boolean => c === codes.space || c === codes.tab

/**
 * Where a list marker starting at `i` ends (`-`, `+`, `*`, or 1 to 9 digits
 * and `.` or `)`): past it, `end` if the text ends within it, or -1.
 */
function markerEnd(text: string, i: number, end: number): number {
  const c = codeAt(text, i)
  if (isBulletMarker(c)) return i + 1
  if (!isAsciiDigit(c)) return -1
  const d = i
  while (i < end && isAsciiDigit(codeAt(text, i)) && i - d < 9) i++
  if (i === end) return end
  return isOrderedDelimiter(codeAt(text, i)) ? i + 1 : -1
}

/**
 * `text[from, to)` is a list marker line's prefix: up to 3 spaces, then one
 * or more markers, each with one to four columns of blanks after it (a tab
 * to its tab stop; a marker's content column is past them, where the next
 * marker may stand: `- - `, `1. - `), and maybe block quote markers opened
 * there (`- > `). `lineStartIndent`'s value at `to`: the innermost item's
 * content column ({@link itemColumnOf}) with the quote's depth and indent;
 * else -1 (five or more columns of blanks begin indented code, no fence).
 */
function itemPrefix(text: string, from: number, to: number): number {
  let i = from
  while (i < to && codeAt(text, i) === codes.space && i - from < 3) i++
  let col = i - from
  if (i === to) return -1
  for (let marked = false; i < to; marked = true) {
    if (marked && codeAt(text, i) === codes.greaterThan) {
      // a block quote in the item: the fence keeps both (see `keepsFence`)
      const q = quotePrefix(text, i, to, 0, 0, false)
      return q < 0 ? -1 : (col << 8) | q
    }
    const m = markerEnd(text, i, to)
    if (m < 0 || m === to) return -1
    col += m - i
    i = m
    const start = col
    for (; i < to && isSpaceOrTab(codeAt(text, i)); i++) col += blankWidth(codeAt(text, i), col)
    if (col === start || col - start > 4) return -1
  }
  return col << 8
}

/** Where a held line-start prefix begins at the end of `text` (see {@link heldLinePrefix}), or -1. */
export function heldPrefixStart(text: string, initial: LineState, quotes: boolean): number {
  let i = text.length
  while (i > 0 && text.length - i < maxQuotePrefix) {
    const c = codeAt(text, i - 1)
    if (c !== codes.space && !(quotes && (c === codes.greaterThan || c === codes.tab || isBulletMarker(c) || isAsciiDigit(c) || isOrderedDelimiter(c)))) break
    i--
  }
  return i < text.length && heldLinePrefix(text, i, initial, quotes) ? i : -1
}

export const indentOf = (at: number): number => at & 7
export const quoteDepthOf = (at: number): number => (at >> 3) & 31
/** For a construct right after a list marker: the item's content column (0: none). */
export const itemColumnOf = (at: number): number => at >> 8

/**
 * A construct at `pos` stands right after a list marker line's prefix (see
 * {@link itemPrefix}): `lineStartIndent`'s value there; else -1. The line starts in `text` (within {@link maxQuotePrefix} characters)
 * or, at its start, in a line state at column 0 (the lexer holds such a
 * prefix at the end of a text, so it is never split from what follows).
 */
function listItemPrefix(text: string, pos: number, initial: LineState): number {
  if (pos === 0) return -1
  const b = codeAt(text, pos - 1)
  if (!isSpaceOrTab(b) && b !== codes.greaterThan) return -1
  let k = pos - 1
  for (; k >= 0 && pos - k <= maxQuotePrefix; k--) {
    const c = codeAt(text, k)
    if (!isSpaceOrTab(c) && c !== codes.greaterThan && !isBulletMarker(c) && !isAsciiDigit(c) && !isOrderedDelimiter(c)) break
  }
  if (k >= 0 ? !isLineEnding(codeAt(text, k)) : positionOf(initial) !== linePositions.start) return -1
  return itemPrefix(text, k + 1, pos)
}

/**
 * The indent of a construct at `pos` that only spaces precede on its line
 * (less than the line state's saturated column count; -1 otherwise): a
 * closer in a list item's fence stands past the item's content column.
 * Carried from the line state when the line began in an earlier text.
 */
export function rawIndent(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  while (i >= 0 && codeAt(text, i) === codes.space) i--
  const n = pos - 1 - i
  if (i >= 0) return isLineEnding(codeAt(text, i)) && n < MAX_COLUMNS ? n : -1
  if (positionOf(initial) === linePositions.mid || markersOf(initial) > 0 || quotedOf(initial)) return -1
  const cols = columnsOf(initial) + n
  return cols < MAX_COLUMNS ? cols : -1
}

/**
 * Whether the line starting at `from` keeps an open fence's container: its
 * `depth` block quote markers, or else its list item's content `column`;
 * null when the text ends before that is known.
 */
export function keepsFence(text: string, from: number, depth: number, column: number): boolean | null {
  if (depth === 0) return keepsIndent(text, from, column)
  // a quote opened on a list item's marker line (`- > `): the item's columns of spaces, then its markers
  const item = quotedItemOf(depth)
  for (let i = from; i < from + item; i++) {
    if (i >= text.length) return null
    if (codeAt(text, i) !== codes.space) return false
  }
  return keepsQuotes(text, from + item, depth & quoteDepthMask)
}

const quoteDepthMask = 31
/** A fence's quote depth that also names the list item it stands in (`- > `; 0: none): the item's content column in the bits above. */
export const quotedItemOf = (fenceDepth: number): number => fenceDepth >> 5
export const withQuotedItem = (depth: number, column: number): number => depth | (column << 5)
export const fenceQuoteDepth = (fenceDepth: number): number => fenceDepth & quoteDepthMask

/**
 * Whether the line starting at `from` keeps `depth` block quote markers
 * (each after at most 3 spaces, within `quoteMarkersPrefix` characters); null
 * when the text ends before that is known.
 */
function keepsQuotes(text: string, from: number, depth: number): boolean | null {
  let seen = 0
  let cols = 0
  for (let i = from; i < text.length && i - from < quoteMarkersPrefix; i++) {
    const c = codeAt(text, i)
    if (c === codes.space) cols++
    else if (c === codes.greaterThan && cols <= 3) {
      if (++seen >= depth) return true
      cols = 0
      if (i + 1 < text.length && codeAt(text, i + 1) === codes.space) i++
    } else return false
  }
  return text.length - from >= quoteMarkersPrefix ? false : null
}

/**
 * Whether the line starting at `from` keeps the indent `column` of a list
 * item's fence (or is blank); null when the text ends before that is known.
 */
function keepsIndent(text: string, from: number, column: number): boolean | null {
  let cols = 0
  for (let i = from, end = text.length; i < end; i++) {
    const c = codeAt(text, i)
    if (c === codes.space) cols++
    else if (c === codes.tab) cols += 4 - (cols % 4)
    else return c === codes.lineFeed || c === codes.carriageReturn
    if (cols >= column) return true
  }
  return null
}
