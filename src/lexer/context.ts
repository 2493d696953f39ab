/**
 * The lexer context: what custom matchers need to know that a mode name
 * cannot say. The driver owns it between lexer runs and hands a copy in.
 */
import { codes } from './codes.js'
import { advanceLines, columnsOf, linePositions, markersOf, positionOf, quotedOf, type LineState } from './lines.js'
import type { LineCursor } from './line-cursor.js'

/**
 * Line positions (the low bits of a {@link LineState}): start is column 0
 * (stream start, or right after a line feed), where a fence may open; blank
 * means only spaces/tabs since the last line feed, so a line feed now ends a
 * blank line; mid means content was seen on this line.
 */
export const lineStates = linePositions
export type { LineState }

/** Markdown state a token may change; matchers attach a copy as the token's payload when they change it. */
export interface MarkdownState {
  /**
   * Lengths of backtick runs that opened a code span not yet closed, outermost
   * first. Level k only matters if levels 0..k-1 turn out to be literal
   * backticks (CommonMark: the first run that finds a same-length closer wins).
   */
  levels: number[]
  /**
   * While a tag is held after an unmatched backtick, how many levels were open
   * at the tag. A later run closing one of those proves the tag sat in a code
   * span; closing a deeper level proves nothing about it.
   */
  holdDepth: number
  /** The open fence: its character (` or ~) and run length; 0 when none. */
  fenceCh: number
  fenceLen: number
  /**
   * How many block quotes (`>`) the open fence's opener stood in: its lines
   * must keep them, its closer stands right after them (0: not in a quote).
   */
  fenceDepth: number
  /**
   * The content column of the list item whose marker line opened the fence
   * (`- ````: 2), or 0: its lines must be indented that far (or be blank),
   * its closer 0 to 3 columns past it.
   */
  fenceIndent: number
}

/**
 * A backtick or tilde run that reached the end of the text. Its meaning needs
 * its full length (a span closes only on the same length), so the chars go
 * out and the count is carried: the edge case is "``" + "`js" across chunks.
 */
export interface RunCarry {
  ch: number
  len: number
  /** Spaces before the run at line start, or -1 if the run is not at line start. */
  indent: number
  /** The mode the run started in. */
  mode: string
}

export interface LexContext extends MarkdownState {
  /** No more input after this text: undecided tails are decided as they stand. */
  final: boolean
  /** Line state at offset 0 of the text being lexed. */
  lineState: LineState
  /** The line state further on, for the indented-code token (made by the driver per run). */
  lines: LineCursor
  carry: RunCarry | null
  /**
   * Text offset before which a tag after an unmatched backtick is not held
   * but left as text: set when the same paragraph end has already sent the
   * driver back twice (a staircase of held tags would otherwise be re-lexed
   * once per tag). -1: no such region.
   */
  noHoldBefore: number
  /**
   * For a text that starts with a run re-lexed after its line's prefix went
   * out (`lineStartIndent` of the run where it stood), or -1: the run still
   * stands where it stood.
   */
  startAt: number
}

export function copyMarkdown(s: MarkdownState): MarkdownState {
  return { levels: s.levels.slice(), holdDepth: s.holdDepth, fenceCh: s.fenceCh, fenceLen: s.fenceLen, fenceDepth: s.fenceDepth, fenceIndent: s.fenceIndent }
}

export function freshMarkdown(): MarkdownState {
  return { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0 }
}

/** Line state just before `pos` in `text`, given the state at offset 0. */
export function lineStateBefore(text: string, pos: number, initial: LineState): LineState {
  return advanceLines(initial, text, 0, pos)
}

/**
 * Line position (start, blank or mid) just before `pos`: what the line
 * state (`lines.ts`) says there, read by scanning back over leading
 * whitespace and block quote markers only, so it is O(1) on ordinary text
 * (the matchers' check). A line of only markers is blank.
 */
export function positionBefore(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  let quoted = false
  while (i >= 0) {
    const c = text.charCodeAt(i)
    if (c === codes.lineFeed) {
      if (quoted) return markersOnly(text, i + 1, pos, 0) ? lineStates.blank : lineStates.mid
      return i === pos - 1 ? lineStates.start : lineStates.blank
    }
    if (c === codes.greaterThan) quoted = true
    else if (c !== codes.space && c !== codes.tab && c !== codes.carriageReturn) return lineStates.mid
    i--
  }
  const at = positionOf(initial)
  if (pos === 0) return at
  if (at === lineStates.mid) return lineStates.mid
  return !quoted || markersOnly(text, 0, pos, columnsOf(initial)) ? lineStates.blank : lineStates.mid
}

/**
 * `text[from, to)` (spaces, tabs, CR and `>`, from `cols` columns into the
 * line's leading whitespace) holds `>` only as block quote markers: each
 * at most 3 columns after the line start or the marker before it.
 */
function markersOnly(text: string, from: number, to: number, cols: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c === codes.space) cols = Math.min(4, cols + 1)
    else if (c === codes.tab || c === codes.carriageReturn) cols = 4
    else if (c === codes.greaterThan) {
      if (cols > 3) return false
      cols = 0
    }
  }
  return true
}

/** Longest line prefix of block quote markers and spaces that the lexer holds at the end of a text (`> > > ` and a little indent). */
export const maxQuotePrefix = 8

/**
 * Where a construct starting at `pos` stands in its line: -1 unless only
 * block quote markers (`>`, each after at most 3 spaces, with the one space
 * after it) and at most 3 spaces of indent precede it on its line; else the
 * quote depth and that indent, as `depth << 3 | indent` ({@link indentOf},
 * {@link quoteDepthOf}). Reads back to the line start in `text`, or on from
 * what the line state carried into it.
 */
export function lineStartIndent(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  // the spaces right before the construct: more than 4 (a marker's own space and 3) are never a fence's indent
  while (i >= 0 && text.charCodeAt(i) === codes.space) i--
  const spaces = pos - 1 - i
  if (spaces > 4) return -1
  if (i >= 0 && text.charCodeAt(i) === codes.lineFeed) return spaces <= 3 ? spaces : -1
  if (spaces >= 1 && i >= 0) {
    // right after a list marker (`- `, `1. `): the item's first line; its content column is the construct's
    const w = listItemColumn(text, i, pos, initial)
    if (w >= 0) return w << 8
  }
  let quoted = false
  while (i >= 0) {
    const c = text.charCodeAt(i)
    if (c === codes.greaterThan) quoted = true
    else if (c !== codes.space) break
    i--
  }
  const n = pos - 1 - i
  if (i >= 0) {
    if (text.charCodeAt(i) !== codes.lineFeed) return -1
    if (!quoted) return n <= 3 ? n : -1
    return quotePrefix(text, i + 1, pos, 0, 0, false)
  }
  if (positionOf(initial) === lineStates.mid) return -1
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
    if (text.charCodeAt(i) === codes.space) {
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
  if (offset > 0 ? text.charCodeAt(offset - 1) !== codes.lineFeed : positionOf(initial) !== lineStates.start) return false
  if (quotes && listMarkerPrefix(text, offset)) return true
  let quoted = false
  for (let i = offset; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === codes.greaterThan && quotes) quoted = true
    else if (c !== codes.space) return false
  }
  return quoted ? quotePrefix(text, offset, text.length, 0, 0, false) >= 0 : n <= 3
}

/** `text[offset..]` is (the start of) a list marker line's prefix: up to 3 spaces, a marker, up to 4 spaces. */
function listMarkerPrefix(text: string, offset: number): boolean {
  let i = offset
  while (i < text.length && text.charCodeAt(i) === codes.space && i - offset < 3) i++
  if (i === text.length) return false
  const c = text.charCodeAt(i)
  if (isBulletChar(c)) i++
  else if (isDigitChar(c)) {
    const d = i
    while (i < text.length && isDigitChar(text.charCodeAt(i)) && i - d < 9) i++
    if (i < text.length && (text.charCodeAt(i) === 0x2e || text.charCodeAt(i) === 0x29)) i++
    else if (i < text.length) return false
  } else return false
  const afterMarker = i
  while (i < text.length && text.charCodeAt(i) === codes.space && i - afterMarker < 4) i++
  return i === text.length
}

/** Where a held line-start prefix begins at the end of `text` (see {@link heldLinePrefix}), or -1. */
export function heldPrefixStart(text: string, initial: LineState, quotes: boolean): number {
  let i = text.length
  while (i > 0 && text.length - i < maxQuotePrefix) {
    const c = text.charCodeAt(i - 1)
    if (c !== codes.space && !(quotes && (c === codes.greaterThan || isBulletChar(c) || isDigitChar(c) || c === 0x2e || c === 0x29))) break
    i--
  }
  return i < text.length && heldLinePrefix(text, i, initial, quotes) ? i : -1
}

export const indentOf = (at: number): number => at & 7
export const quoteDepthOf = (at: number): number => (at >> 3) & 31
/** For a construct right after a list marker: the item's content column (0: none). */
export const itemColumnOf = (at: number): number => at >> 8

const isBulletChar = (c: number): boolean => c === codes.dash || c === 0x2b || c === 0x2a
const isDigitChar = (c: number): boolean => c >= 0x30 && c <= 0x39

/**
 * `text[i]` ends a list marker (`-`, `+`, `*`, or 1 to 9 digits and `.` or
 * `)`) that stands at most 3 columns into its line, with only spaces after
 * it up to `pos`: the column of `pos` (the item's content column), at most
 * {@link maxQuotePrefix}; else -1. The line starts in `text` or, at its
 * start, in a line state at column 0 (the lexer holds such a prefix at the
 * end of a text, so it is never split from what follows).
 */
function listItemColumn(text: string, i: number, pos: number, initial: LineState): number {
  const c = text.charCodeAt(i)
  let start = i
  if (c === 0x2e || c === 0x29) {
    while (start > 0 && isDigitChar(text.charCodeAt(start - 1)) && i - start < 9) start--
    if (start === i) return -1
  } else if (!isBulletChar(c)) return -1
  let k = start
  while (k > 0 && text.charCodeAt(k - 1) === codes.space && start - k < 3) k--
  if (k > 0 ? text.charCodeAt(k - 1) !== codes.lineFeed : positionOf(initial) !== lineStates.start) return -1
  return pos - k <= maxQuotePrefix ? pos - k : -1
}

/**
 * The indent of a construct at `pos` that only spaces precede on its line
 * (up to 7; -1 otherwise): a closer in a list item's fence stands past the
 * item's content column. Carried from the line state when the line began in
 * an earlier text.
 */
export function rawIndent(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  while (i >= 0 && text.charCodeAt(i) === codes.space) i--
  const n = pos - 1 - i
  if (i >= 0) return text.charCodeAt(i) === codes.lineFeed && n <= 7 ? n : -1
  if (positionOf(initial) === lineStates.mid || markersOf(initial) > 0 || quotedOf(initial)) return -1
  return Math.min(7, columnsOf(initial) + n)
}

/**
 * Whether the line starting at `from` keeps the indent `column` of a list
 * item's fence (or is blank); null when the text ends before that is known.
 */
export function keepsIndent(text: string, from: number, column: number): boolean | null {
  let cols = 0
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === codes.space) cols++
    else if (c === codes.tab) cols += 4 - (cols % 4)
    else return c === codes.lineFeed || c === codes.carriageReturn
    if (cols >= column) return true
  }
  return null
}

/** Whether the line feed at `pos` ends a line that holds only spaces, tabs or CR. */
export function endsBlankLine(text: string, pos: number, initial: LineState): boolean {
  return positionBefore(text, pos, initial) !== lineStates.mid
}
