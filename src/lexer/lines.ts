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
 * bits 2-4  columns of leading whitespace so far (since the last quote marker), saturating at 7;
 *           a tab counts 7: nothing after it on the line is a fence or a marker
 * bit 5     codeOk: the line before was blank or indented code (or there is none),
 *           so this line may be indented code: it interrupts no paragraph
 * bit 6     list: a line began with a list-marker character and no line since
 *           has closed every list; inside a list item, four columns of indent
 *           may be the item's own paragraph (`1. Step\n\n    text`), so
 *           indented code is not recognised while this is set
 * bit 7     code: this line is indented code (decided at its first non-blank character)
 * bits 8-16 what the line's start shows (a fence line, a heading, a list
 *           marker, a thematic break or setext underline): a kind (bits
 *           8-10, and bit 30 for the rule-like kinds), a count (the fence
 *           run, the `#`s, the digits; in the leading whitespace, the quote
 *           markers so far) and flags whose meaning depends on the kind
 *           (TILDE / CLEARS; a rule-like line's phase and ITEM)
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
 * indented code: any line starting (at most 3 columns in) with `-`, `+`,
 * `*` or a digit sets it; only a line at column 0 that starts with none of
 * them, after a blank line, clears it (such a line closes every list item).
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
const COLUMN_SHIFT = 2
const COLUMNS = 7 << COLUMN_SHIFT
const CODE_OK = 1 << 5
const LIST = 1 << 6
const CODE = 1 << 7

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
const isRule = (kind: number): boolean => (kind & RULE_PAGE) !== 0
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

export const columnsOf = (ls: LineState): number => (ls & COLUMNS) >> COLUMN_SHIFT
/** In a line's leading whitespace: how many block quote markers it had so far (saturating at 15). */
export const markersOf = (ls: LineState): number => ((ls & POSITION) === linePositions.mid ? 0 : (ls & COUNT) >> COUNT_SHIFT)
/** In a line's leading whitespace: whether the space right after the last marker may still be its own (one column in). */
export const quotedOf = (ls: LineState): boolean => (ls & QUOTED) !== 0

function lineFeed(ls: LineState): LineState {
  const kind = ls & KIND
  if (kind === IN_CODE) return linePositions.start | (ls & (CODE_OK | LIST)) | IN_CODE
  const fenceLine = kind === FENCE_LIKE && (ls & COUNT) >> COUNT_SHIFT >= 3
  const ok = (ls & POSITION) !== linePositions.mid || (ls & CODE) !== 0 || kind === NOT_PARAGRAPH || kind === HEADING_LIKE || fenceLine
  return linePositions.start | (ok ? CODE_OK : 0) | (ls & LIST)
}

const numberSign = 0x23

function firstContent(ls: LineState, c: number): LineState {
  const cols = (ls & COLUMNS) >> COLUMN_SHIFT
  const okBit = ls & CODE_OK
  if ((ls & KIND) === IN_CODE) return linePositions.mid | okBit | (ls & LIST) | IN_CODE
  const code = okBit !== 0 && (ls & (LIST | QUOTED)) === 0 && cols >= 4
  let list = ls & LIST
  let kind = 0
  if (!code && cols < 4) {
    const clears = cols === 0 && okBit !== 0
    if (c === codes.dash || c === 0x2a) kind = (c === codes.dash ? RULE_DASH : RULE_STAR) | (1 << R_COUNT_SHIFT) | (clears ? CLEARS : 0)
    else if (isBulletMarker(c)) kind = BULLET_LIKE | (clears ? CLEARS : 0)
    else if (isAsciiDigit(c)) kind = ORDERED_LIKE | (1 << COUNT_SHIFT) | (clears ? CLEARS : 0)
    else if (clears) list = 0
    if (c === underscore || c === equalsSign) kind = (c === underscore ? RULE_UNDERSCORE : RULE_EQUALS) | (1 << R_COUNT_SHIFT)
    if (c === codes.graveAccent) kind = FENCE_LIKE | (1 << COUNT_SHIFT)
    else if (c === codes.tilde) kind = FENCE_LIKE | TILDE | (1 << COUNT_SHIFT)
    else if (c === numberSign) kind = HEADING_LIKE | (1 << COUNT_SHIFT)
  }
  return linePositions.mid | okBit | list | (code ? CODE : 0) | kind
}

/** A list marker ends (`true`: it was one) on a line that began with a marker character. */
function marker(ls: LineState, keep: LineState, was: boolean): LineState {
  if (was) return keep | LIST | LIST_ITEM
  return (ls & CLEARS) !== 0 ? keep & ~LIST : keep
}

/** A character after the first of a rule-like line (see {@link RULE_DASH}), not its line feed. */
function ruleStep(ls: LineState, kind: number, c: number, keep: LineState): LineState {
  const n = (ls & R_COUNT) >> R_COUNT_SHIFT
  const phase = ls & R_PHASE
  if (c === codes.space || c === codes.tab || c === codes.carriageReturn) {
    const item = (kind === RULE_DASH || kind === RULE_STAR) && n === 1 && phase === 0 ? R_ITEM : 0
    return phase === 0 ? ls | R_SPACED | item : ls
  }
  if (c === ruleChar(kind)) {
    // `= =` is no underline, and `=` lines are nothing else
    if (kind === RULE_EQUALS && phase !== 0) return keep
    return (ls & ~(R_COUNT | R_PHASE)) | (Math.min(3, n + 1) << R_COUNT_SHIFT) | (phase === 0 ? 0 : R_GAP)
  }
  return marker(ls, keep, (ls & R_ITEM) !== 0)
}

/** The line feed of a rule-like line: what the line was (a line of the kinds {@link lineFeed} reads). */
function ruleEnd(ls: LineState, kind: number): LineState {
  const keep = ls & ~(KIND | COUNT | RUN_DONE | TILDE | CLEARS)
  const n = (ls & R_COUNT) >> R_COUNT_SHIFT
  // a thematic break: no paragraph line, and at column 0 after a blank line it closes every list
  if (n >= 3 && kind !== RULE_EQUALS) return ((ls & CLEARS) !== 0 ? keep & ~LIST : keep) | NOT_PARAGRAPH
  // a setext underline ends the paragraph before it as a heading (a line after a paragraph line has no CODE_OK)
  if ((kind === RULE_DASH || kind === RULE_EQUALS) && (ls & R_PHASE) !== R_GAP && (ls & CODE_OK) === 0) return keep | NOT_PARAGRAPH
  // a marker with its blank, or alone on its line: a list item
  return marker(ls, keep, (ls & R_ITEM) !== 0 || (n === 1 && kind !== RULE_UNDERSCORE && kind !== RULE_EQUALS))
}

/** A character after the first of a line that may be a fence line, a heading or a list item. */
function classify(ls: LineState, c: number): LineState {
  const kind = ls & KIND
  const n = (ls & COUNT) >> COUNT_SHIFT
  const keep = ls & ~(KIND | COUNT | RUN_DONE | TILDE | CLEARS)
  if (isRule(kind)) return ruleStep(ls, kind, c, keep)
  const blankAfter = c === codes.space || c === codes.tab || c === codes.lineFeed || c === codes.carriageReturn
  if (kind === BULLET_LIKE) return marker(ls, keep, blankAfter)
  if (kind === ORDERED_LIKE) {
    if ((ls & RUN_DONE) !== 0) return marker(ls, keep, blankAfter)
    if (isAsciiDigit(c)) return n >= 9 ? marker(ls, keep, false) : (ls & ~COUNT) | ((n + 1) << COUNT_SHIFT)
    return isOrderedDelimiter(c) ? ls | RUN_DONE : marker(ls, keep, false)
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
  const cols = (ls & COLUMNS) >> COLUMN_SHIFT
  // columns saturate at 7: enough for `lineStartIndent` to tell 3 after a marker's own space from 4
  if (c === codes.space) return (ls & ~(POSITION | COLUMNS)) | linePositions.blank | (Math.min(7, cols + 1) << COLUMN_SHIFT)
  // a tab: nothing after it on this line is a fence or a quote marker (the lexer's scans back stop there)
  if (c === codes.tab) return (ls & ~(POSITION | COLUMNS)) | linePositions.blank | (7 << COLUMN_SHIFT)
  // a block quote marker: leading whitespace as far as the line's blankness goes; columns count from it,
  // and the markers so far are counted where a line start's classification counts later (COUNT)
  if (c === codes.greaterThan && cols <= 3) {
    const depth = Math.min(15, ((ls & COUNT) >> COUNT_SHIFT) + 1)
    return (ls & ~(POSITION | COLUMNS | COUNT)) | linePositions.blank | QUOTED | (depth << COUNT_SHIFT)
  }
  return firstContent(ls, c)
}

const lf = codes.lineFeed
const cr = codes.carriageReturn
const lt = codes.lessThan

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
    // a marker alone on its line is an (empty) list item
    const kind = ls & KIND
    line = lineFeed(kind === BULLET_LIKE || kind === ORDERED_LIKE ? classify(ls, c) : isRule(kind) ? ruleEnd(ls, kind) : ls)
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
    if ((line & CODE) !== 0) return 0
  } else {
    // a list item or a heading interrupts the paragraph (a fence line too, but a backtick one may turn out
    // void, a paragraph line after all: it ends the tag at its line feed, once it is a fence)
    const before = ls & KIND
    const after = line & KIND
    // a marker's blank (`- `) ends the paragraph whatever the line turns out to be (an item, a break, an underline)
    const itemBefore = isRule(before) && (ls & R_ITEM) !== 0
    if (isRule(after) && (line & R_ITEM) !== 0 && !itemBefore) return 0
    if (after !== before && ((after === LIST_ITEM && !itemBefore) || (after === NOT_PARAGRAPH && before === HEADING_LIKE))) return 0
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
