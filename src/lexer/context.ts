/**
 * The lexer context: what custom matchers need to know that a mode name
 * cannot say. The driver owns it between lexer runs and hands a copy in.
 */
import { codes } from './codes.js'
import { advanceLines, linePositions, positionOf, type LineCursor, type LineState } from './lines.js'

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
}

export function copyMarkdown(s: MarkdownState): MarkdownState {
  return { levels: s.levels.slice(), holdDepth: s.holdDepth, fenceCh: s.fenceCh, fenceLen: s.fenceLen }
}

export function freshMarkdown(): MarkdownState {
  return { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0 }
}

/** Line state just before `pos` in `text`, given the state at offset 0. */
export function lineStateBefore(text: string, pos: number, initial: LineState): LineState {
  return advanceLines(initial, text, 0, pos)
}

/**
 * Line position (start, blank or mid) just before `pos`. Scans back over
 * spaces only, so it is O(1) on ordinary text: the matchers' check.
 */
export function positionBefore(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  while (i >= 0) {
    const c = text.charCodeAt(i)
    if (c === codes.lineFeed) return i === pos - 1 ? lineStates.start : lineStates.blank
    if (c !== codes.space && c !== codes.tab && c !== codes.carriageReturn) return lineStates.mid
    i--
  }
  const at = positionOf(initial)
  if (pos === 0) return at
  return at === lineStates.mid ? lineStates.mid : lineStates.blank
}

/**
 * Indent of a construct starting at `pos` when it sits at line start after at
 * most 3 spaces; -1 otherwise.
 */
export function lineStartIndent(text: string, pos: number, initial: LineState): number {
  let i = pos - 1
  let n = 0
  while (i >= 0 && text.charCodeAt(i) === codes.space) {
    i--
    n++
    if (n > 3) return -1
  }
  if (i >= 0) return text.charCodeAt(i) === codes.lineFeed ? n : -1
  return positionOf(initial) === lineStates.start ? n : -1
}

/** Whether the line feed at `pos` ends a line that holds only spaces, tabs or CR. */
export function endsBlankLine(text: string, pos: number, initial: LineState): boolean {
  return positionBefore(text, pos, initial) !== lineStates.mid
}
