/**
 * Reading a line's prefix where a construct stands: block quote markers, a
 * list marker, indentation (`lineStartIndent`, `rawIndent`), whether the
 * next line keeps a fence's container (`keepsIndent`), and which line-start
 * prefixes the lexer holds at the end of a text until what follows decides.
 */
import { codeAt, codes, isAsciiDigit, isBulletMarker, isOrderedDelimiter } from './codes.js'
import { MAX_COLUMNS, columnsOf, isLineEnding, itemColumnIn, linePositions, markersOf, paragraphLine, positionOf, quotedOf, type LineState } from './lines.js'

/** Longest line prefix of block quote markers and spaces that the lexer holds at the end of a text (`> > > ` and a little indent). */
export const maxQuotePrefix = 8

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
  let i = pos - 1
  // the spaces right before the construct: more than 4 (a marker's own space and 3) are never a fence's indent
  while (i >= 0 && codeAt(text, i) === codes.space) i--
  const spaces = pos - 1 - i
  if (spaces > 4) return -1
  if (i >= 0 && isLineEnding(codeAt(text, i))) return spaces <= 3 ? spaces : -1
  if (spaces >= 1 && i >= 0) {
    // right after a list marker (`- `, `1. `): the item's first line; its content column is the construct's
    const w = listItemColumn(text, i, pos, initial)
    if (w >= 0) return here !== undefined && paragraphLine(here) ? -1 : w << 8
  }
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
  let quoted = false
  for (let i = offset, end = text.length; i < end; i++) {
    const c = codeAt(text, i)
    if (c === codes.greaterThan && quotes) quoted = true
    else if (c !== codes.space) return false
  }
  return quoted ? quotePrefix(text, offset, text.length, 0, 0, false) >= 0 : n <= 3
}

/** `text[offset..]` is (the start of) a list marker line's prefix: up to 3 spaces, a marker, up to 4 spaces. */
function listMarkerPrefix(text: string, offset: number): boolean {
  let i = offset
  while (i < text.length && codeAt(text, i) === codes.space && i - offset < 3) i++
  if (i === text.length) return false
  const c = codeAt(text, i)
  if (isBulletMarker(c)) i++
  else if (isAsciiDigit(c)) {
    const d = i
    while (i < text.length && isAsciiDigit(codeAt(text, i)) && i - d < 9) i++
    if (i < text.length && isOrderedDelimiter(codeAt(text, i))) i++
    else if (i < text.length) return false
  } else return false
  const afterMarker = i
  while (i < text.length && codeAt(text, i) === codes.space && i - afterMarker < 4) i++
  return i === text.length
}

/** Where a held line-start prefix begins at the end of `text` (see {@link heldLinePrefix}), or -1. */
export function heldPrefixStart(text: string, initial: LineState, quotes: boolean): number {
  let i = text.length
  while (i > 0 && text.length - i < maxQuotePrefix) {
    const c = codeAt(text, i - 1)
    if (c !== codes.space && !(quotes && (c === codes.greaterThan || isBulletMarker(c) || isAsciiDigit(c) || isOrderedDelimiter(c)))) break
    i--
  }
  return i < text.length && heldLinePrefix(text, i, initial, quotes) ? i : -1
}

export const indentOf = (at: number): number => at & 7
export const quoteDepthOf = (at: number): number => (at >> 3) & 31
/** For a construct right after a list marker: the item's content column (0: none). */
export const itemColumnOf = (at: number): number => at >> 8

/**
 * `text[i]` ends a list marker (`-`, `+`, `*`, or 1 to 9 digits and `.` or
 * `)`) that stands at most 3 columns into its line, with only spaces after
 * it up to `pos`: the column of `pos` (the item's content column), at most
 * {@link maxQuotePrefix}; else -1. The line starts in `text` or, at its
 * start, in a line state at column 0 (the lexer holds such a prefix at the
 * end of a text, so it is never split from what follows).
 */
function listItemColumn(text: string, i: number, pos: number, initial: LineState): number {
  const c = codeAt(text, i)
  let start = i
  if (isOrderedDelimiter(c)) {
    while (start > 0 && isAsciiDigit(codeAt(text, start - 1)) && i - start < 9) start--
    if (start === i) return -1
  } else if (!isBulletMarker(c)) return -1
  let k = start
  while (k > 0 && codeAt(text, k - 1) === codes.space && start - k < 3) k--
  if (k > 0 ? !isLineEnding(codeAt(text, k - 1)) : positionOf(initial) !== linePositions.start) return -1
  return pos - k <= maxQuotePrefix ? pos - k : -1
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
  return depth > 0 ? keepsQuotes(text, from, depth) : keepsIndent(text, from, column)
}

/**
 * Whether the line starting at `from` keeps `depth` block quote markers
 * (each after at most 3 spaces, within `maxQuotePrefix` characters); null
 * when the text ends before that is known.
 */
function keepsQuotes(text: string, from: number, depth: number): boolean | null {
  let seen = 0
  let cols = 0
  for (let i = from; i < text.length && i - from < maxQuotePrefix; i++) {
    const c = codeAt(text, i)
    if (c === codes.space) cols++
    else if (c === codes.greaterThan && cols <= 3) {
      if (++seen >= depth) return true
      cols = 0
      if (i + 1 < text.length && codeAt(text, i + 1) === codes.space) i++
    } else return false
  }
  return text.length - from >= maxQuotePrefix ? false : null
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
