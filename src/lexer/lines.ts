/**
 * The line state: where a position stands in its line, and what the
 * Markdown guard must remember of the lines before it to tell indented code
 * (CommonMark 4.4) from a paragraph. One number, so it travels wherever the
 * line position already travelled (driver state, holds, restarts,
 * checkpoints), and every piece of text advances it the same way, whether
 * the lexer or the fast path took it.
 *
 * ```
 * bits 0-1  position: start (column 0), blank (only spaces and tabs so far), mid, or
 *           start right after a CR (an LF there ends no second line)
 * bits 2-4, 7  the line's field: in the leading whitespace, its columns so far
 *           (since the last quote marker, bit 7 the high bit), saturating at 15;
 *           a tab counts 15: nothing after it on the line is a fence or a marker.
 *           Mid-line, with the list bit set, the item column (below); without
 *           it, bit 7 is code: this line is indented code (decided at its first
 *           non-blank character)
 * bit 5     codeOk: the line before was blank or indented code (or there is none),
 *           so this line may be indented code: it interrupts no paragraph
 * bit 6     list: a line was a list item and no line since has closed every
 *           list; inside a list item, four columns of indent may be the
 *           item's own paragraph (`1. Step\n\n    text`), so indented code
 *           is not recognised while this is set
 * bits 8-16 what the line's start shows (a fence line, a heading, a list
 *           marker, an item waiting for its content, a thematic break or
 *           setext underline): a kind (bits
 *           8-10, and bit 30 for the rule-like kinds), a count (the fence
 *           run, the `#`s, the digits; in the leading whitespace, the quote
 *           markers so far, or on a line without them the item column) and
 *           flags whose meaning depends on the kind
 *           (TILDE / CLEARS; a rule-like line's phase and ITEM); before
 *           the first content, bit 15 is LAZY: the line before was a
 *           paragraph line in a block quote
 * bit 17    quoted: block quote markers began the line; they count as leading
 *           whitespace, so a line of only markers is blank (ends a paragraph)
 * bits 18-29 an HTML tag or autolink being read (`inline-html.ts`)
 * bit 30    (the kind's page, above)
 * ```
 *
 * CODE_OK follows CommonMark 4.4: indented code cannot interrupt a
 * paragraph; after anything else (a blank line, a thematic break, an ATX or
 * setext heading, a fence line, the stream's start) a line four columns in
 * is code.
 *
 * The list bit errs towards live calls, as toolsieve did before it knew
 * indented code: any list item's line (a marker at most 3 columns in) sets
 * it; only a line at column 0 that starts with no marker character, after
 * a blank line, clears it (such a line closes every list item). A marker
 * right after a paragraph line, with no list open, is an item only if it
 * may interrupt that paragraph (CommonMark 5.2): a bullet, or the number 1,
 * with content on the line; else the line goes on the paragraph
 * (`14. The number of doors`), and sets nothing.
 *
 * The item column: where the content of the list item whose marker line
 * came last begins (CommonMark 5.2: after the marker and one to four columns
 * of blanks, a tab to its tab stop; one column past the marker when more
 * follow or none), 0 when unknown. It lets a fence stand four or more
 * columns in (`10. Run this:`, then a fence four columns in: the item's),
 * where the guard has no other way to tell it from an inline run. It lasts
 * while the lines keep it: blank, indented as far, or a lazy line of the
 * item's paragraph; a line indented less, or one with a quote marker, drops
 * it (the guard does not follow the outer item a nested one returns to).
 * An item holding no paragraph (an empty item, a heading) has no lazy
 * line: its line ending leaves CODE_OK set, as after any line that is no
 * paragraph's; and an empty item followed by a blank line is over
 * ({@link EMPTY_ITEM}). A marker line after quote markers sets none: its
 * item's column does not count from the margin.
 * A marker line sets it afresh, so while its start is read the field holds
 * the marker's indent and the column before (kept if the line is no item
 * and indented as far); past the marker's first blank, the marker's end,
 * with the blank columns counted in the kind's count.
 */
import { codeAt, codes, isAsciiDigit, isBulletMarker, isOrderedDelimiter } from './codes.js'
import { candidateBits, candidateStart, candidateStep } from './inline-html.js'

/**
 * Line positions (the low bits of a {@link LineState}): start is column 0
 * (stream start, or right after a line ending: CR, LF or CRLF), where a fence may open; blank
 * means only spaces/tabs since the last line ending, so a line feed now ends a
 * blank line; mid means content was seen on this line.
 */
export const linePositions = { start: 0, blank: 1, mid: 2 } as const
const POSITION = 3
/**
 * Column 0 right after a CR: the position's fourth value. A CR ends its line
 * at once (CommonMark reads CR, LF and CRLF alike as line endings); an LF
 * right after it is the same line ending, skipped. Kept in the state, so a
 * CR that ends one chunk and the LF that starts the next are one ending too.
 */
const AFTER_CR = 3
const CODE_OK = 1 << 5
const LIST = 1 << 6
const CODE = 1 << 7
/** The line's field (bits 2-4 and 7): its columns in the leading whitespace, the item column mid-line (list bit set). */
const FIELD = (7 << 2) | CODE
const fieldOf = (ls: LineState): number => ((ls >> 2) & 7) | ((ls >> 4) & 8)
const withField = (ls: LineState, v: number): LineState => (ls & ~FIELD) | ((v & 7) << 2) | ((v & 8) << 4)
/** Columns saturate here: a tab's count, and past any item column a fence may take. */
export const MAX_COLUMNS = 15

export type LineState = number

// What the current line is, as far as its start has shown (bits 8-16): a fence line or
// an ATX heading is no paragraph, so indented code may follow it (`` ``` ``, then `    code`);
// a list marker (`- `, `1. `) sets the list bit.
const KIND_SHIFT = 8
/** Bit 30 pages the kinds: with it set, bits 8-9 name the character of a rule-like line (see {@link RULE_DASH}). */
const RULE_PAGE = 1 << 30
const KIND = (7 << KIND_SHIFT) | RULE_PAGE
const FENCE_LIKE = 1 << KIND_SHIFT
const HEADING_LIKE = 2 << KIND_SHIFT
const NOT_PARAGRAPH = 3 << KIND_SHIFT
const BULLET_LIKE = 4 << KIND_SHIFT
const ORDERED_LIKE = 5 << KIND_SHIFT
/** A list marker confirmed (`- `, `1. `): the line is a list item's first line (its paragraph goes on after it). */
const LIST_ITEM = 6 << KIND_SHIFT
/**
 * Inside a fence or an HTML block (set and cleared by the lexer's tokens
 * that open and end them, `enterCode` / `leaveCode`): its lines are code,
 * so nothing on them is a list item, a heading or a break, and the kind
 * stays from line to line.
 */
const IN_CODE = 7 << KIND_SHIFT
/**
 * A line that began with `-`, `*`, `_` or `=` and so far holds only that
 * character and spaces or tabs: a thematic break (three or more of `-`,
 * `*`, `_`), a setext underline (`=` or `-`, no gap, after a paragraph
 * line), a list item (`- `, `* `, or the marker alone), or a paragraph line,
 * as its line feed decides. Its data: the count (1 to 3, saturating), the
 * phase (tight, a blank seen, a character after a blank) and ITEM (the
 * first character had a blank right after it: a list marker).
 */
const RULE_DASH = RULE_PAGE
const RULE_STAR = RULE_PAGE | (1 << KIND_SHIFT)
const RULE_UNDERSCORE = RULE_PAGE | (2 << KIND_SHIFT)
const RULE_EQUALS = RULE_PAGE | (3 << KIND_SHIFT)
const R_COUNT_SHIFT = 11
const R_COUNT = 3 << R_COUNT_SHIFT
const R_PHASE_SHIFT = 13
const R_PHASE = 3 << R_PHASE_SHIFT
const R_SPACED = 1 << R_PHASE_SHIFT
const R_GAP = 2 << R_PHASE_SHIFT
const R_ITEM = 1 << 15
const underscore = 0x5f
const equalsSign = 0x3d
const ruleChar = (kind: number): number => (kind === RULE_DASH ? codes.dash : kind === RULE_STAR ? 0x2a : kind === RULE_UNDERSCORE ? underscore : equalsSign)
/**
 * A list marker and its blank on a line that may only interrupt a paragraph
 * (see {@link interrupting}): an item needs content there, so the line's
 * next non-blank character makes it one; a line that ends first is the
 * paragraph's (an empty item cannot interrupt it). Its blanks are counted
 * as {@link ITEM_BLANKS} counts them.
 */
const ITEM_PENDING = RULE_PAGE | (4 << KIND_SHIFT)
const isRule = (kind: number): boolean => (kind & RULE_PAGE) !== 0 && kind !== ITEM_PENDING && kind !== ITEM_BLANKS && kind !== ITEM_FIRST
/** A list item's first line, mid-line: its marker confirmed (a bullet past its blank still may be a rule: not yet). */
const itemLine = (ls: LineState): boolean => (ls & KIND) === LIST_ITEM || (ls & KIND) === ITEM_FIRST || ((ls & KIND) === ITEM_BLANKS && (ls & BLANKS_RULE) === 0)
/** Kinds whose line is decided: mid-line, nothing more to read on it. */
const settled = (kind: number): boolean => kind === 0 || kind === NOT_PARAGRAPH || kind === LIST_ITEM || kind === IN_CODE
const COUNT_SHIFT = 11
const COUNT = 15 << COUNT_SHIFT
/** The fence run ended (its info string follows); for an ordered marker, its `.` or `)`. */
const RUN_DONE = 1 << 15
/** The fence line's run is of tildes (FENCE_LIKE only). */
const TILDE = 1 << 16
/** At column 0 after a blank line: unless this line is a list item, it closes every list (marker kinds only; shares TILDE's bit). */
const CLEARS = 1 << 16
/** A block quote marker (`>`) began this line: its rest is no indented code here (the guard reads quotes only for fences). */
const QUOTED = 1 << 17
/**
 * Before a line's first content (bit 15 is a kind's flag only after it):
 * the line before was a paragraph line in a block quote. A list marker on
 * a line without quote markers then starts a list, whatever its number:
 * the quote's paragraph is another container's, so the line is no lazy
 * continuation of it and interrupts nothing (commonmark.js and micromark
 * agree: `> a` then `2. ```` is an item holding a fence).
 */
const LAZY = 1 << 15
/** In the leading whitespace of a line without quote markers: the item column (see the header), where quotes keep their count. */
const ITEM_SHIFT = 11
const ITEM_COLUMN = 15 << ITEM_SHIFT
/**
 * A list marker confirmed by its first blank, on a line whose content has
 * not begun: the blank columns after the marker are counted (bits 11-13,
 * saturating at 5: past four, the content column is one past the marker),
 * the field holds the marker's end. A bullet that may still be a thematic
 * break (`- -`) or a setext underline (`-` and blanks) keeps its character
 * (bits 14-15, {@link BLANKS_RULE}) and CLEARS; once content comes the line
 * is a list item's first line ({@link LIST_ITEM}).
 */
const ITEM_BLANKS = RULE_PAGE | (5 << KIND_SHIFT)
const BLANKS_SHIFT = 11
const BLANKS = 7 << BLANKS_SHIFT
const BLANKS_RULE_SHIFT = 14
const BLANKS_RULE = 3 << BLANKS_RULE_SHIFT
/**
 * A list item's first content began with `#`: an ATX heading (the count
 * holds the `#`s) or paragraph text, as the next characters decide. A
 * heading holds no paragraph, so the line after it is no lazy line that
 * keeps the column.
 */
const ITEM_FIRST = RULE_PAGE | (6 << KIND_SHIFT)
/**
 * In the leading whitespace (bit 16, a kind's flag only mid-line): the line
 * before was an empty list item's. An item begins with at most one blank
 * line (CommonMark 5.2), so a blank line here ends it and drops its column.
 */
const EMPTY_ITEM = 1 << 16

/**
 * The line before was a paragraph's, and no list is open: a list item here
 * would interrupt that paragraph, which only a bullet or the number 1 with
 * content may (CommonMark 5.2). Inside a list a marker is taken as the next
 * item's, whatever its number (`1. a\n2. b`).
 */
const interrupting = (ls: LineState): boolean => (ls & (CODE_OK | LIST)) === 0
const digitOne = 0x31

/**
 * A change the lexer makes to the line state where the text alone cannot
 * tell: bits cleared, then bits set (`LineCursor.mark`).
 */
export interface LineMark {
  clear: number
  set: number
}

/** A fence's body or an HTML block begins (after the opener's line feed, or at a block's opening tag). */
export const enterCode: LineMark = { clear: KIND, set: IN_CODE }
/**
 * A fence or an HTML block ended with this line feed: the next line follows
 * no paragraph (so it may be indented code), and no HTML tag began in the
 * block goes on outside it.
 */
export const leaveCode: LineMark = { clear: KIND | candidateBits, set: CODE_OK }

export const applyMark = (ls: LineState, m: LineMark): LineState => (ls & ~m.clear) | m.set

/** A number a line state can be (a checkpoint's): bits 0-30 (bit 30 pages the rule-like kinds), every position value used. */
export const isLineState = (v: number): boolean => Number.isInteger(v) && v >= 0 && v < 2 ** 31

/** The start of a stream: column 0, no paragraph before it. */
export const streamStart: LineState = linePositions.start | CODE_OK
/**
 * Mid-line after text whose lines were not followed (a capture's inside):
 * the list bit set, so no indented code is assumed where a list might be.
 */
export const midLine: LineState = linePositions.mid | LIST

/** The position (start, blank or mid); right after a CR is the start. */
export const positionOf = (ls: LineState): number => {
  const p = ls & POSITION
  return p === AFTER_CR ? linePositions.start : p
}

/** Right after a CR: an LF here belongs to it (one line ending, CRLF). */
export const afterCarriageReturn = (ls: LineState): boolean => (ls & POSITION) === AFTER_CR

/** A line ending character: CR or LF (CRLF is one ending: see {@link afterCarriageReturn}). */
export const isLineEnding = (c: number): boolean => c === codes.lineFeed || c === codes.carriageReturn

/** Still in the line's leading whitespace, on a line that may be indented code: four columns in, it is. */
export function mayStartCode(ls: LineState): boolean {
  return (ls & POSITION) !== linePositions.mid && (ls & CODE_OK) !== 0 && (ls & (LIST | QUOTED)) === 0
}

export const columnsOf = (ls: LineState): number => fieldOf(ls)

/** On a line of indented code: past its first content, or in leading whitespace that reaches four columns where the line may be code. */
export function onCodeLine(ls: LineState): boolean {
  return (ls & POSITION) === linePositions.mid ? (ls & (CODE | LIST)) === CODE : mayStartCode(ls) && columnsOf(ls) >= 4
}
/** In a line's leading whitespace: how many block quote markers it had so far (saturating at 15). */
export const markersOf = (ls: LineState): number => ((ls & POSITION) === linePositions.mid || (ls & QUOTED) === 0 ? 0 : (ls & COUNT) >> COUNT_SHIFT)
/** In a line's leading whitespace: whether the space right after the last marker may still be its own (one column in). */
export const quotedOf = (ls: LineState): boolean => (ls & QUOTED) !== 0
/** In a line's leading whitespace: the item column (see the header) the line may keep, 0 if none. */
export const itemColumnIn = (ls: LineState): number => ((ls & POSITION) === linePositions.mid || (ls & QUOTED) !== 0 ? 0 : (ls & ITEM_COLUMN) >> ITEM_SHIFT)

/** The item column a line carries to its line ending: mid-line in the field (where the list bit is set), else in the leading whitespace's place. */
function itemColumnCarried(ls: LineState): number {
  if ((ls & POSITION) !== linePositions.mid) return itemColumnIn(ls)
  return (ls & LIST) !== 0 ? fieldOf(ls) : 0
}

/**
 * The line ending after `ls`; `empty`: the line was an empty list item's
 * (its marker alone), which holds no paragraph for the next line to go on.
 */
function lineFeed(ls: LineState, empty = false): LineState {
  const kind = ls & KIND
  const mid = (ls & POSITION) === linePositions.mid
  // an item opened on a line with quote markers lives in the quote: a line without them is a lazy line of the quote's
  // paragraph or ends the quote, never the item's; and a blank line after an empty item ends it
  const gone = mid ? (ls & QUOTED) !== 0 : (ls & EMPTY_ITEM) !== 0
  const item = gone ? 0 : itemColumnCarried(ls) << ITEM_SHIFT
  if (kind === IN_CODE) return linePositions.start | (ls & (CODE_OK | LIST)) | IN_CODE | item
  const fenceLine = kind === FENCE_LIKE && (ls & COUNT) >> COUNT_SHIFT >= 3
  const ok = !mid || empty || (ls & (CODE | LIST)) === CODE || kind === NOT_PARAGRAPH || kind === HEADING_LIKE || fenceLine
  return linePositions.start | (ok ? CODE_OK : 0) | (ls & LIST) | (!ok && (ls & QUOTED) !== 0 ? LAZY : 0) | item | (empty && item !== 0 ? EMPTY_ITEM : 0)
}

const numberSign = 0x23

/** Kinds of a line that may turn out a list marker's: its field holds the marker's indent and the item column before (see the header). */
const markerLike = (ls: LineState, kind: number): boolean =>
  kind === BULLET_LIKE || kind === ORDERED_LIKE || ((kind === RULE_DASH || kind === RULE_STAR) && (ls & R_ITEM) === 0)

function firstContent(ls: LineState, c: number): LineState {
  const cols = fieldOf(ls)
  const okBit = ls & CODE_OK
  const before = itemColumnIn(ls)
  // a line keeps the item column indented as far, or as a lazy line of the item's paragraph (paragraph text after one)
  const keeps = cols >= before
  if ((ls & KIND) === IN_CODE) return withField(linePositions.mid | okBit | (ls & LIST) | IN_CODE, keeps ? before : 0)
  const code = okBit !== 0 && (ls & (LIST | QUOTED)) === 0 && cols >= 4
  // after a quote's paragraph, on a line without its markers: nothing here would interrupt that paragraph (see LAZY)
  const lazy = (ls & (LAZY | QUOTED)) === LAZY
  let list = ls & LIST
  let kind = 0
  if (!code && cols < 4) {
    const clears = cols === 0 && okBit !== 0
    if (c === codes.dash || c === 0x2a) kind = (c === codes.dash ? RULE_DASH : RULE_STAR) | (1 << R_COUNT_SHIFT) | (clears ? CLEARS : 0)
    else if (isBulletMarker(c)) kind = BULLET_LIKE | (clears ? CLEARS : 0)
    else if (isAsciiDigit(c)) kind = c !== digitOne && !lazy && interrupting(ls) ? 0 : ORDERED_LIKE | (1 << COUNT_SHIFT) | (clears ? CLEARS : 0)
    else if (clears) list = 0
    if (c === underscore || c === equalsSign) kind = (c === underscore ? RULE_UNDERSCORE : RULE_EQUALS) | (1 << R_COUNT_SHIFT)
    if (c === codes.graveAccent) kind = FENCE_LIKE | (1 << COUNT_SHIFT)
    else if (c === codes.tilde) kind = FENCE_LIKE | TILDE | (1 << COUNT_SHIFT)
    else if (c === numberSign) kind = HEADING_LIKE | (1 << COUNT_SHIFT)
  }
  // a marker line may set the column afresh: its indent is kept for that, with the column before if the line keeps it
  // (a marker stands at most 3 columns in, so that column is 0, 2 or 3)
  const field = markerLike(kind, kind & KIND) ? cols | ((keeps ? before : 0) << 2) : keeps || (okBit === 0 && kind === 0 && list !== 0) ? before : 0
  // the line's quote markers are kept for its line ending (LAZY), and a lazy line goes on the quote's paragraph as if it
  // had them; on a lazy line CODE_OK stands for "no paragraph of this container before": the marker checks below read
  // it so, and the line ending computes it afresh
  // (a marker there starts a list that ends the quote: if it is an item, the lines after it are no lazy lines of the
  // quote, and its column counts from the margin; one that fails goes on the quote's paragraph, unquoted)
  const quoted = lazy ? (markerLike(kind, kind & KIND) ? CODE_OK : CODE_OK | QUOTED) : okBit | (ls & QUOTED)
  return withField(linePositions.mid | quoted | list | kind, field) | (code ? CODE : 0)
}

/** The item column a marker-like line keeps if it is no item (see {@link markerLike}). */
const columnBefore = (ls: LineState): number => fieldOf(ls) >> 2

/** A list marker ends (`true`: it was one) on a line that began with a marker character; `column`: the item's content column. */
function marker(ls: LineState, keep: LineState, was: boolean, column: number): LineState {
  if (was) return withField(keep, column > MAX_COLUMNS ? 0 : column) | LIST | LIST_ITEM
  return (ls & CLEARS) !== 0 ? withField(keep & ~LIST, 0) : withField(keep, columnBefore(ls))
}

/** An empty item's content column: one past its marker (CommonMark 5.2), which ends `width` past its indent. */
const emptyItem = (ls: LineState, width: number): number => (fieldOf(ls) & 3) + width + 1

/** Columns a blank at column `col` takes: a tab runs to the next tab stop. */
export const blankWidth = (c: number, col: number): number => (c === codes.tab ? 4 - (col % 4) : 1)

/**
 * The first blank `c` after a marker `width` wide (see {@link ITEM_BLANKS}): `kind` is ITEM_BLANKS or
 * ITEM_PENDING, `rule` the bullet's character code for a line that may still be a rule (0: none).
 */
function toBlanks(ls: LineState, keep: LineState, width: number, c: number, kind: number, rule: number): LineState {
  const end = (fieldOf(ls) & 3) + width
  return withField(keep, end) | kind | (blankWidth(c, end) << BLANKS_SHIFT) | (rule << BLANKS_RULE_SHIFT) | (ls & CLEARS)
}

/** The content column of an item whose marker's blanks end here (five or more columns: one past the marker). */
function contentColumn(ls: LineState): number {
  const blanks = (ls & BLANKS) >> BLANKS_SHIFT
  return fieldOf(ls) + (blanks <= 4 ? blanks : 1)
}

/** A character after a marker's first blank (ITEM_BLANKS or ITEM_PENDING). */
function blanksStep(ls: LineState, kind: number, c: number, keep: LineState): LineState {
  const blanks = (ls & BLANKS) >> BLANKS_SHIFT
  if (c === codes.space || c === codes.tab) return (ls & ~BLANKS) | (Math.min(5, blanks + blankWidth(c, fieldOf(ls) + blanks)) << BLANKS_SHIFT)
  const rule = (ls & BLANKS_RULE) >> BLANKS_RULE_SHIFT
  const ruleKind = rule === 1 ? RULE_DASH : RULE_STAR
  if (!isLineEnding(c)) {
    // a rule character after a bullet's blank: a thematic break, or an item holding one (the column is not followed)
    if (rule !== 0 && c === ruleChar(ruleKind)) return withField(keep, 0) | ruleKind | (2 << R_COUNT_SHIFT) | R_GAP | R_ITEM | (ls & CLEARS)
    if (c === numberSign) return withField(keep, contentColumn(ls)) | LIST | ITEM_FIRST | (1 << COUNT_SHIFT)
    return marker(ls, keep, true, contentColumn(ls))
  }
  if (kind === ITEM_PENDING) return withField(keep, 0)
  if (rule === 0) return marker(ls, keep, true, fieldOf(ls) + 1)
  // a bullet and blanks alone on the line: after a paragraph line a dash is a setext underline, else an item where one may be
  if (ruleKind === RULE_DASH && (ls & CODE_OK) === 0) return withField(keep, 0) | NOT_PARAGRAPH
  if (!interrupting(ls)) return marker(ls, keep, true, fieldOf(ls) + 1)
  return (ls & CLEARS) !== 0 ? withField(keep & ~LIST, 0) : withField(keep, 0)
}

/** A character after an item's first content (see {@link ITEM_FIRST}), `n` `#`s so far; the field holds the item column. */
function firstStep(ls: LineState, n: number, c: number, keep: LineState): LineState {
  const blank = c === codes.space || c === codes.tab || isLineEnding(c)
  if (c === numberSign && n < 6) return (ls & ~COUNT) | ((n + 1) << COUNT_SHIFT)
  return keep | LIST | (blank ? NOT_PARAGRAPH : LIST_ITEM)
}

/** The character `c` right after a bullet or an ordered marker's delimiter (`blank`: a space, a tab or a line ending), the marker `width` wide. */
function afterMarker(ls: LineState, keep: LineState, c: number, blank: boolean, width: number): LineState {
  // interrupting a paragraph, the item needs content: a line that ends here is the paragraph's
  if (!blank || isLineEnding(c)) return marker(ls, keep, blank && !interrupting(ls), emptyItem(ls, width))
  return toBlanks(ls, keep, width, c, interrupting(ls) ? ITEM_PENDING : ITEM_BLANKS, 0)
}

/** A character after the first of a rule-like line (see {@link RULE_DASH}), not its line feed. */
function ruleStep(ls: LineState, kind: number, c: number, keep: LineState): LineState {
  const n = (ls & R_COUNT) >> R_COUNT_SHIFT
  const phase = ls & R_PHASE
  if (c === codes.space || c === codes.tab || c === codes.carriageReturn) {
    // a bullet's first blank: a list marker, unless a rule character or the line's end follows (ITEM_BLANKS)
    if ((kind === RULE_DASH || kind === RULE_STAR) && n === 1 && phase === 0) return toBlanks(ls, keep, 1, c, ITEM_BLANKS, kind === RULE_DASH ? 1 : 2)
    return phase === 0 ? ls | R_SPACED : ls
  }
  if (c === ruleChar(kind)) {
    // `= =` is no underline, and `=` lines are nothing else
    if (kind === RULE_EQUALS && phase !== 0) return keep
    return (ls & ~(R_COUNT | R_PHASE)) | (Math.min(3, n + 1) << R_COUNT_SHIFT) | (phase === 0 ? 0 : R_GAP)
  }
  return ruleNoItem(ls, kind, keep, (ls & R_ITEM) !== 0)
}

/** A rule-like line's start ends as paragraph text or an item (`was`); an item here is past a rule character (its column not followed). */
function ruleNoItem(ls: LineState, kind: number, keep: LineState, was: boolean): LineState {
  if (markerLike(ls, kind)) return marker(ls, keep, was, emptyItem(ls, 1))
  if (was) return withField(keep, 0) | LIST | LIST_ITEM
  // past a bullet's blank the column before is gone; `_` and `=` lines hold the item column itself
  const column = (ls & R_ITEM) !== 0 ? 0 : fieldOf(ls)
  return (ls & CLEARS) !== 0 ? withField(keep & ~LIST, 0) : withField(keep, column)
}

/** The line feed of a rule-like line: what the line was (a line of the kinds {@link lineFeed} reads). */
function ruleEnd(ls: LineState, kind: number): LineState {
  const keep = ls & ~(KIND | COUNT | RUN_DONE | TILDE | CLEARS)
  const n = (ls & R_COUNT) >> R_COUNT_SHIFT
  // a thematic break: no paragraph line, and at column 0 after a blank line it closes every list
  if (n >= 3 && kind !== RULE_EQUALS) return ruleNoItem(ls, kind, keep, false) | NOT_PARAGRAPH
  // a setext underline ends the paragraph before it as a heading (a line after a paragraph line has no CODE_OK)
  if ((kind === RULE_DASH || kind === RULE_EQUALS) && (ls & R_PHASE) !== R_GAP && (ls & CODE_OK) === 0) return ruleNoItem(ls, kind, keep, false) | NOT_PARAGRAPH
  // a marker with its blank, or alone on its line: a list item; one that would interrupt a paragraph needs content
  // (`* *`: a rule character after the blank)
  const item = (ls & R_ITEM) !== 0 || (n === 1 && kind !== RULE_UNDERSCORE && kind !== RULE_EQUALS)
  return ruleNoItem(ls, kind, keep, item && (((ls & R_ITEM) !== 0 && n >= 2) || !interrupting(ls)))
}

/** A character after the first of a line that may be a fence line, a heading or a list item. */
function classify(ls: LineState, c: number): LineState {
  const kind = ls & KIND
  const n = (ls & COUNT) >> COUNT_SHIFT
  const keep = ls & ~(KIND | COUNT | RUN_DONE | TILDE | CLEARS)
  if (isRule(kind)) return ruleStep(ls, kind, c, keep)
  if (kind === ITEM_BLANKS || kind === ITEM_PENDING) return blanksStep(ls, kind, c, keep)
  if (kind === ITEM_FIRST) return firstStep(ls, n, c, keep)
  const blankAfter = c === codes.space || c === codes.tab || c === codes.lineFeed || c === codes.carriageReturn
  if (kind === BULLET_LIKE) return afterMarker(ls, keep, c, blankAfter, 1)
  if (kind === ORDERED_LIKE) {
    if ((ls & RUN_DONE) !== 0) return afterMarker(ls, keep, c, blankAfter, n + 1)
    // a second digit: interrupting a paragraph, only the number 1 may (its first digit was a 1)
    if (isAsciiDigit(c)) return n >= 9 || interrupting(ls) ? marker(ls, keep, false, 0) : (ls & ~COUNT) | ((n + 1) << COUNT_SHIFT)
    return isOrderedDelimiter(c) ? ls | RUN_DONE : marker(ls, keep, false, 0)
  }
  if (kind === HEADING_LIKE) {
    if (c === numberSign) return n >= 6 ? keep : keep | HEADING_LIKE | ((n + 1) << COUNT_SHIFT)
    return c === codes.space || c === codes.tab ? keep | NOT_PARAGRAPH : keep
  }
  const tilde = (ls & TILDE) !== 0
  if ((ls & RUN_DONE) === 0) {
    if (c === (tilde ? codes.tilde : codes.graveAccent)) return (ls & ~COUNT) | (Math.min(15, n + 1) << COUNT_SHIFT)
    if (n < 3) return keep
    // a tilde fence takes any info string; a backtick one is void if a backtick follows (CommonMark 4.5)
    return tilde ? keep | NOT_PARAGRAPH : ls | RUN_DONE
  }
  return c === codes.graveAccent ? keep : ls
}

/** One character of leading whitespace or content, from a position that is not mid-line. */
function step(ls: LineState, c: number): LineState {
  if (c === codes.lineFeed || c === codes.carriageReturn) return lineFeed(ls)
  const cols = fieldOf(ls)
  // columns saturate at 15: enough for `lineStartIndent` to tell 3 after a marker's own space from 4, and a fence
  // up to 3 columns past an item column (the lexer holds no longer indent, so a chunk may cut it)
  if (c === codes.space) return withField((ls & ~POSITION) | linePositions.blank, Math.min(MAX_COLUMNS, cols + 1))
  // a tab: nothing after it on this line is a fence or a quote marker (the lexer's scans back stop there)
  if (c === codes.tab) return withField((ls & ~POSITION) | linePositions.blank, MAX_COLUMNS)
  // a block quote marker: leading whitespace as far as the line's blankness goes; columns count from it,
  // and the markers so far are counted where a line start's classification counts later (COUNT; on a line
  // without them the item column stood there: the guard does not follow an item's column into a quote)
  if (c === codes.greaterThan && cols <= 3) {
    const depth = Math.min(15, markersOf(ls) + 1)
    return withField((ls & ~(POSITION | COUNT)) | linePositions.blank | QUOTED | (depth << COUNT_SHIFT), 0)
  }
  return firstContent(ls, c)
}

const lf = codes.lineFeed
const cr = codes.carriageReturn
const lt = codes.lessThan

/** What a line that ends now was, as far as its start goes (mid-line): a marker alone on its line is an (empty) list item, where one may be. */
function lineEnded(ls: LineState): LineState {
  const kind = ls & KIND
  return kind === BULLET_LIKE || kind === ORDERED_LIKE || kind === ITEM_PENDING || kind === ITEM_BLANKS || kind === ITEM_FIRST ? classify(ls, lf) : isRule(kind) ? ruleEnd(ls, kind) : ls
}

/** Sentinel of {@link walk}: indented code starts in the text. */
const CODE_STARTS = -1

/** One character, from any position: the line part, then the inline HTML candidate (`inline-html.ts`). */
export function next(ls: LineState, c: number): LineState {
  if ((ls & POSITION) === AFTER_CR) {
    // the LF of a CRLF: the line ended at its CR
    ls &= ~POSITION
    if (c === lf) return ls
  }
  const mid = (ls & POSITION) === linePositions.mid
  const eol = c === lf || c === cr
  let line: LineState
  if (!mid) line = step(ls, c)
  else if (!eol) line = settled(ls & KIND) ? ls : classify(ls, c)
  else {
    const ended = lineEnded(ls)
    // a marker that its line ending makes an item is an empty one (one with content was decided at its content)
    line = lineFeed(ended, (ls & KIND) !== LIST_ITEM && (ended & KIND) === LIST_ITEM)
  }
  if (c === cr) line |= AFTER_CR
  return (line & ~candidateBits) | candidateAfter(ls, line, eol, c, mid)
}

/**
 * The HTML candidate after `c` (`inline-html.ts`), given the line state
 * before and after it. A tag spans lines of one paragraph only: whatever
 * ends or interrupts the paragraph ends it (a blank line, a code line, a
 * fence line, a heading, a list item); block quote markers at a line start
 * are the quote's, not the tag's.
 */
function candidateAfter(ls: LineState, line: LineState, eol: boolean, c: number, mid: boolean): number {
  let h = ls & candidateBits
  if (eol) {
    // the line that ends was no paragraph line (blank, code, a fence, a heading): the next is no continuation
    if ((line & CODE_OK) !== 0) return 0
  } else if (!mid) {
    if ((line & POSITION) !== linePositions.mid) return c === codes.greaterThan ? h : h === 0 ? 0 : settle(candidateStep(h, c))
    if ((line & (CODE | LIST)) === CODE) return 0
  } else {
    // a list item or a heading interrupts the paragraph (a fence line too, but a backtick one may turn out
    // void, a paragraph line after all: it ends the tag at its line feed, once it is a fence)
    const before = ls & KIND
    const after = line & KIND
    // a marker's blank (`- `) ends the paragraph whatever the line turns out to be (an item, a break, an underline)
    const itemBefore = (isRule(before) && (ls & R_ITEM) !== 0) || before === ITEM_BLANKS
    if (((isRule(after) && (line & R_ITEM) !== 0) || after === ITEM_BLANKS) && !itemBefore) return 0
    // (an item that waited for content begins at that character, which may begin a tag of its own)
    if (after !== before && ((after === LIST_ITEM && !itemBefore) || (after === NOT_PARAGRAPH && before === HEADING_LIKE))) h = 0
  }
  if (h === 0 && c !== codes.lessThan) return 0
  return nextCandidate(h, c)
}

/** The candidate bits after `c`, mid-paragraph: a `<` that ends one candidate may begin the next. */
function nextCandidate(h: number, c: number): number {
  const n = candidateStep(h, c)
  return n < 0 ? (c === codes.lessThan ? candidateStart : 0) : n
}

const settle = (h: number): number => (h < 0 ? 0 : h)

/**
 * A line feed now ends a line that ends any paragraph before it: a blank
 * line, or a thematic break, a heading (ATX or a setext underline), a fence
 * line or indented code. A code span left open in the paragraph never closes.
 */
export function endsParagraph(ls: LineState): boolean {
  // a CR ends a line wherever it stands (an LF right after a CR would end none)
  return (next(ls, cr) & CODE_OK) !== 0
}

/** How far into a line {@link nextLineInterrupts} reads for a marker or a heading's `#`s and what follows them: past it, nothing interrupts. */
const interruptLook = 24

/**
 * Whether the line after the line ending at `at` of `text` (`ls`: the state
 * before that ending) interrupts the paragraph the ending leaves open, as
 * a list item or an ATX heading does (CommonMark 5.2, 4.2): its line ending
 * then ends the paragraph as a blank line's would, and a code span left
 * open there never closes (the next line's runs are its own). null: `text`
 * ends before that line's start shows (unless `final`: the stream's end
 * ends the line). Thematic breaks and setext underlines hold no run to
 * close a span, and their own line ending ends the paragraph
 * ({@link endsParagraph}); a fence line's run decides for itself
 * (`decideRun`).
 *
 * A bullet or the number 1 with content interrupts any paragraph. Another
 * marker (`2.`, an empty item) ends only an item's own paragraph, as the
 * next item's: after the item's first line (the list bit outlives some
 * lists, `1.` then a paragraph line), and at column 0 (of a block quote's
 * content), where no item's content column can hold it. One indented may
 * stand in the item, where it is paragraph text (`1. a` then `   2. b`);
 * the guard cannot tell, and goes on with the paragraph.
 */
export function nextLineInterrupts(ls: LineState, text: string, at: number, final: boolean): boolean | null {
  let s = next(ls, codeAt(text, at))
  let i = at + 1
  // the LF of a CRLF belongs to the ending
  if (i < text.length && codeAt(text, i) === lf && afterCarriageReturn(s)) s = next(s, codeAt(text, i++))
  const any = interruptsFrom(s & ~LIST, text, i, final, false)
  if (any === true || !itemLine(ls)) return any
  const sibling = interruptsFrom(s, text, i, final, true)
  return sibling === true ? true : any === null || sibling === null ? null : false
}

/** {@link nextLineInterrupts} on the line starting at `from` in state `s`; `sibling`: only a marker at column 0 counts. */
function interruptsFrom(s: LineState, text: string, from: number, final: boolean, sibling: boolean): boolean | null {
  let i = from
  for (; i < text.length && i - from < interruptLook; i++) {
    const c = codeAt(text, i)
    if (isLineEnding(c)) return interruptsAsEnded(s)
    const after = next(s, c)
    const was = s & KIND
    const kind = after & KIND
    // (after a quote marker its own space is its)
    if (sibling && positionOf(s) !== linePositions.mid && positionOf(after) === linePositions.mid && columnsOf(s) > ((s & QUOTED) !== 0 ? 1 : 0)) return false
    if (itemLine(after) || (was === HEADING_LIKE && kind === NOT_PARAGRAPH)) return true
    if (isRule(kind)) {
      const n = (after & R_COUNT) >> R_COUNT_SHIFT
      // a marker's blank, then a rule character: an item with content, or a thematic break
      if ((after & R_ITEM) !== 0) {
        if (n >= 2) return true
      } else if ((kind !== RULE_DASH && kind !== RULE_STAR) || n > 1 || (after & R_PHASE) !== 0) return false
      // (else a `-` or `*` alone so far, or with its blank: it may still be an item)
    } else if (positionOf(after) === linePositions.mid && kind !== BULLET_LIKE && kind !== ORDERED_LIKE && kind !== ITEM_PENDING && kind !== ITEM_BLANKS && kind !== HEADING_LIKE) return false
    s = after
  }
  if (i - from >= interruptLook) return false
  return final ? interruptsAsEnded(s) : null
}

/** The line {@link nextLineInterrupts} reads ends in state `ls`: `#`s alone are an empty heading, a marker alone an empty item (one only where an item may be). */
function interruptsAsEnded(ls: LineState): boolean {
  return (ls & KIND) === HEADING_LIKE || (lineEnded(ls) & KIND) === LIST_ITEM
}

/**
 * Mid-line on a line whose start showed paragraph text, no construct: a
 * list marker before this point was no item (one that may not interrupt
 * the paragraph before it, see {@link interrupting}).
 */
export const paragraphLine = (ls: LineState): boolean => (ls & KIND) === 0

/** Mid-line with nothing pending (no line start being classified, no HTML candidate): only a line ending or `<` counts. */
export function quiet(ls: LineState): boolean {
  return (ls & (POSITION | candidateBits)) === linePositions.mid && settled(ls & KIND)
}

/**
 * The line state after `text[from, to)`, given the state at `from`; with
 * `findCode`, {@link CODE_STARTS} if indented code starts in it. Mid-line on
 * an ordinary line nothing counts until the next line feed or `<`: a few
 * characters are read in a loop with a cheap test per character, a long
 * stretch by searches within the piece, each searched for again only once
 * the reading passes it (a search per line, not a step per character).
 */
function walk(ls: LineState, text: string, from: number, to: number, findCode: boolean): LineState {
  let i = from
  let nextLt = -1
  let nextLf = -1
  let nextCr = -1
  while (i < to) {
    if (quiet(ls)) {
      if (to - i > 64) {
        if (nextLt < i) nextLt = firstIn(text, '<', i, to)
        if (nextLf < i) nextLf = firstIn(text, '\n', i, to)
        if (nextCr < i) nextCr = firstIn(text, '\r', i, to)
        i = Math.min(nextLt, nextLf, nextCr)
      } else {
        while (i < to) {
          const c = codeAt(text, i)
          if (c === lf || c === lt || c === cr) break
          i++
        }
      }
      if (i >= to) return ls
    } else if ((ls & POSITION) === linePositions.mid && settled(ls & KIND)) {
      // inside an HTML candidate on a settled line (`<invoke name="a">` in prose): until a line ending only the
      // candidate's bits change, as `next` would change them
      const line = ls & ~candidateBits
      let h = ls & candidateBits
      for (; i < to && h !== 0; i++) {
        const c = codeAt(text, i)
        if (c === lf || c === cr) break
        h = nextCandidate(h, c)
      }
      ls = line | h
      // a line ending is `next`'s to read
      if (h === 0 || i >= to) continue
    }
    const c = codeAt(text, i)
    const after = next(ls, c)
    if (findCode && (c === codes.space || c === codes.tab) && mayStartCode(ls) && columnsOf(after) >= 4) return CODE_STARTS
    ls = after
    i++
  }
  return ls
}

/**
 * Where `ch` first stands in `text[from, to)`, or `to`: the engine's search
 * in that piece alone. A prose stretch of a chunk read whole is thousands of
 * characters, read a piece at a time: a search over the text from `from`
 * could run on to its end at every piece.
 */
function firstIn(text: string, ch: string, from: number, to: number): number {
  const k = text.substring(from, to).indexOf(ch)
  return k < 0 ? to : from + k
}

/** The line state after `text[from, to)`, given the state at `from`. */
export function advanceLines(ls: LineState, text: string, from: number, to: number): LineState {
  return walk(ls, text, from, to, false)
}

/**
 * The line state after `text[from, to)`, given the state at `from`, or -1
 * if indented code starts in it (where the lexer's indented-code token
 * would match). {@link advanceLines} without that check.
 */
export function advanceUnlessCode(ls: LineState, text: string, from: number, to: number): LineState {
  return walk(ls, text, from, to, true)
}
