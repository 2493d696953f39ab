/**
 * The lexer context: what custom matchers need to know that a mode name
 * cannot say. The driver owns it between lexer runs and hands a copy in.
 */
import { codeAt, codes, isNameChar } from './codes.js'
import { advanceLines, columnsOf, linePositions, positionOf, streamStart, type LineState } from './lines.js'
import { LineCursor } from './line-cursor.js'
import type { JsonRun } from './json-scan.js'

// where a construct stands in its line's prefix: read by the same matchers that read this context
export * from './line-prefix.js'

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
   * Text offset before which a tag is not held (after an unmatched backtick,
   * or in a fence opener's info string) but left as text: set when the same
   * paragraph end sends the driver back a second time (a staircase of held
   * tags would otherwise be re-lexed once per tag; see `Holds.halted`). -1:
   * no such region.
   */
  noHoldBefore: number
  /**
   * For a text that starts with a run re-lexed after its line's prefix went
   * out (`lineStartIndent` of the run where it stood), or -1: the run still
   * stands where it stood.
   */
  startAt: number
  /**
   * In a `rawValue`, the opener it belongs to as {@link tagKey} gives it
   * (`<｜dsml｜parameter`): a closer ends the value only when it spells
   * the same tag (`</｜DSML｜parameter>`, not `</|DSML|parameter>`). '' elsewhere.
   */
  rawOpener: string
  /**
   * What the first `string` attribute of the parameter tag being lexed
   * says (its whole `Attr` token): true, its end switches to `rawValue` in
   * the same run; null, none seen yet. A tag a window cuts is left to the
   * driver, which checks the tag's tokens.
   */
  rawNext: boolean | null
  /**
   * In a block that ends with its JSON (mode `jsonBlock`): its scanner's
   * state, a copy the matchers move (`json-tokens.ts`), and how many
   * characters may come before the value. null elsewhere.
   */
  json: JsonRun | null
  /** The sieve's capture limit: a JSON block's opener bounds what may come before its value by it (`jsonBefore`). */
  captureLimit: number
  /** At a message's start (mode `messageStart`), right after a block anchored there: a separator must come before the next value (`DriverState.started`). */
  afterBlock: boolean
}

/**
 * A tag's spelling reduced to what an opener and its closer share: lower
 * case, no `/` or `／`, and nothing after the local name (the tag end,
 * trailing bars). `<｜DSML｜parameter` and `</｜DSML｜parameter>` have the
 * same key; `</|DSML|parameter>` and `</ ｜DSML｜parameter>` do not.
 * Char codes and slices, not a regex test and a string built per character:
 * the lexer asks this at every parameter tag and raw closer.
 */
export function tagKey(image: string): string {
  // a block's parameter tags are spelled alike, and its openers and closers alternate: the last two answers are kept
  if (image === lastTags[0]) return lastKeys[0]!
  if (image === lastTags[1]) return lastKeys[1]!
  let end = image.length
  while (end > 0 && !isNameChar(codeAt(image, end - 1))) end--
  let out = ''
  let from = 0
  for (let i = 0; i < end; i++) {
    const c = codeAt(image, i)
    if (c !== 0x2f && c !== 0xff0f) continue
    out += image.slice(from, i)
    from = i + 1
  }
  out += image.slice(from, end)
  const key = out.toLowerCase()
  // the older answer makes way
  newest = 1 - newest
  lastTags[newest] = image
  lastKeys[newest] = key
  return key
}

/** `tagKey`'s last two images and their keys (the empty image's key is empty); `newest`: the slot written last. */
const lastTags = ['', '']
const lastKeys = ['', '']
let newest = 0

export function copyMarkdown(s: MarkdownState): MarkdownState {
  return { levels: s.levels.slice(), holdDepth: s.holdDepth, fenceCh: s.fenceCh, fenceLen: s.fenceLen, fenceDepth: s.fenceDepth, fenceIndent: s.fenceIndent }
}

/** Whether `a` and `b` are the same Markdown state, field by field. */
export function sameMarkdown(a: MarkdownState, b: MarkdownState): boolean {
  if (a.holdDepth !== b.holdDepth || a.fenceCh !== b.fenceCh || a.fenceLen !== b.fenceLen || a.fenceDepth !== b.fenceDepth || a.fenceIndent !== b.fenceIndent || a.levels.length !== b.levels.length) return false
  for (let i = 0; i < a.levels.length; i++) if (a.levels[i] !== b.levels[i]) return false
  return true
}

export function freshMarkdown(): MarkdownState {
  return { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0 }
}

/** A run's context at a stream's start, with nothing carried, held or captured. */
export function freshContext(final: boolean): LexContext {
  return { ...freshMarkdown(), final, lineState: streamStart, lines: new LineCursor(streamStart), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
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
    const c = codeAt(text, i)
    if (c === codes.lineFeed || c === codes.carriageReturn) {
      if (quoted) return markersOnly(text, i + 1, pos, 0) ? linePositions.blank : linePositions.mid
      return i === pos - 1 ? linePositions.start : linePositions.blank
    }
    if (c === codes.greaterThan) quoted = true
    else if (c !== codes.space && c !== codes.tab) return linePositions.mid
    i--
  }
  const at = positionOf(initial)
  if (pos === 0) return at
  if (at === linePositions.mid) return linePositions.mid
  return !quoted || markersOnly(text, 0, pos, columnsOf(initial)) ? linePositions.blank : linePositions.mid
}

/**
 * `text[from, to)` (spaces, tabs and `>`, from `cols` columns into the
 * line's leading whitespace) holds `>` only as block quote markers: each
 * at most 3 columns after the line start or the marker before it.
 */
function markersOnly(text: string, from: number, to: number, cols: number): boolean {
  for (let i = from; i < to; i++) {
    const c = codeAt(text, i)
    if (c === codes.space) cols = Math.min(4, cols + 1)
    else if (c === codes.tab) cols = 4
    else if (c === codes.greaterThan) {
      if (cols > 3) return false
      cols = 0
    }
  }
  return true
}
