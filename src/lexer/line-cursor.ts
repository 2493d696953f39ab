/**
 * The lexer run's view of the line state (`lines.ts`): a cursor that
 * advances from the last position asked for, the points where the lexer
 * ended an HTML candidate that the text alone would not have ended, and the
 * look-ahead that decides a backtick run standing in a candidate.
 */
import { DONE, candidateBits, candidateStep } from './inline-html.js'
import { advanceLines, applyMark, next, type LineMark, type LineState } from './lines.js'
import { codeAt } from './codes.js'

/** Longest look past a backtick run for the end of the tag or autolink it stands in (past it: a run after all). */
export const candidateLookahead = 256

/**
 * A lexer run's view of the line state: advancing from the last position
 * asked for (tokens ask in order), so each run pays once for its text. The
 * lexer may also end an HTML candidate where the text alone would not
 * (`kill`: a run inside it closed a code span that began before its `<`);
 * the cursor keeps those points, so asking again from an earlier position
 * gives the same states.
 */
export class LineCursor {
  private at = 0
  private state: LineState
  /** The points where the lexer changed the state ({@link mark}), in order: a position and the change. */
  private marks: Array<{ pos: number; m: LineMark }> | null = null

  constructor(private readonly initial: LineState) {
    this.state = initial
  }

  /** Whether the lexer marked the state anywhere (`mark`, `kill`): the text alone may no longer give it. */
  get marked(): boolean {
    return this.marks !== null
  }

  stateAt(text: string, pos: number): LineState {
    if (pos < this.at) {
      this.at = 0
      this.state = this.initial
      // a mark at the text's start (a held tag there, `tokens-html.ts`) holds from the start on
      const first = this.marks?.[0]
      if (first !== undefined && first.pos === 0) this.state = applyMark(this.state, first.m)
    }
    if (this.marks !== null) {
      for (const { pos: k, m } of this.marks) {
        if (k <= this.at || k > pos) continue
        this.state = applyMark(advanceLines(this.state, text, this.at, k), m)
        this.at = k
      }
    }
    if (pos > this.at) this.state = advanceLines(this.state, text, this.at, pos)
    this.at = pos
    return this.state
  }

  /**
   * What the run the lexer last held in an open candidate (`candidateHold`)
   * would decide by its length alone, once it ends: for {@link HeldCandidate}.
   */
  heldRun: HeldRun | null = null

  /** From `pos` on, the HTML candidate live there is none. */
  kill(text: string, pos: number): void {
    this.mark(text, pos, { clear: candidateBits, set: 0 })
  }

  /**
   * At `pos` the state changes by `m` (a fence or an HTML block begins or
   * ends there, as the token ending at `pos` decided). Marks come in order;
   * a second one at the same place adds to the first.
   */
  mark(text: string, pos: number, m: LineMark): void {
    const marks = (this.marks ??= [])
    const last = marks[marks.length - 1]
    if (last !== undefined && last.pos > pos) return
    this.stateAt(text, pos)
    if (last !== undefined && last.pos === pos) {
      // applied on top of the state the first left: the same as one change that clears both and sets the later's last
      last.m = { clear: last.m.clear | m.clear, set: (last.m.set & ~m.clear) | m.set }
    } else marks.push({ pos, m })
    this.state = applyMark(this.state, m)
    if (this.look !== null) this.look.start = -1
  }

  /**
   * The look ahead of {@link fate}, kept for the next run inside the same
   * candidate: each character of a candidate is read once, however many
   * backticks stand in it (`<a title="` then 100,000 of them).
   */
  private look: { start: number; at: number; state: LineState; end: number; result: CandidateFate } | null = null

  /**
   * How the HTML tag or autolink candidate live at `from` (a backtick run)
   * ends: `done` (it completed: the run was part of it), `void` (it cannot
   * be one, or is still open {@link candidateLookahead} characters on: the
   * run is a run), or `open` (the text ended first, and more may come).
   */
  fate(text: string, from: number, final: boolean): CandidateFate {
    const ls = this.stateAt(text, from)
    const m = (this.look ??= { start: -1, at: -1, state: 0, end: -1, result: 'void' })
    let at: number
    let st: LineState
    if (m.start >= 0 && m.start <= from && from <= m.at && (m.end < 0 || from < m.end)) {
      if (m.end >= 0) return m.result
      at = m.at
      st = m.state
    } else {
      m.start = from
      m.end = -1
      at = from
      st = ls
    }
    const limit = Math.min(text.length, from + candidateLookahead)
    while (at < limit) {
      const c = codeAt(text, at)
      const before = st & candidateBits
      st = next(st, c)
      at++
      if ((st & candidateBits) === 0) {
        m.result = before !== 0 && candidateStep(before, c) === DONE ? 'done' : 'void'
        m.at = m.end = at
        m.state = st
        return m.result
      }
    }
    m.at = at
    m.state = st
    return from + candidateLookahead <= text.length || final ? 'void' : 'open'
  }
}

export type CandidateFate = 'done' | 'void' | 'open'

/**
 * A held backtick run's lengths that decide it without its candidate's end:
 * one that closes an open level (the span began before the `<`), or at a
 * line start, three or more (a fence opener's, read by the fence rules).
 */
export interface HeldRun {
  closes: readonly number[]
  lineStart: boolean
}

/**
 * A backtick run the lexer held in an open candidate (`candidateHold`), read
 * on a chunk at a time without the lexer: each character is stepped once,
 * and the lexer sees the held text again only when the candidate ends or
 * the look-ahead is used up (1-char chunks would otherwise lex up to 256
 * characters per character).
 */
export interface HeldCandidate {
  /** The line state reached after what was read. */
  state: LineState
  /** Characters read since the run's start. */
  read: number
  /** The held run's length so far, while it goes on (-1 once it ended). */
  runLength: number
  /** What decides the run by its length alone, once it ends. */
  run: HeldRun | null
}

/**
 * The look-ahead from the run's start `start` over the held text once; null
 * when it ends within it. `run`: what decides the run by its length alone.
 */
export function candidateOver(start: LineState, held: string, run: HeldRun | null = null): HeldCandidate | null {
  const h: HeldCandidate = { state: start, read: 0, runLength: 0, run: run === null ? null : { closes: [...run.closes], lineStart: run.lineStart } }
  return extendCandidate(h, held) ? h : null
}

/** True while the candidate `h` stays open within the look-ahead after `chunk` (hold it too); false once the lexer must decide. */
export function extendCandidate(h: HeldCandidate, chunk: string): boolean {
  for (let i = 0, end = chunk.length; i < end; i++) {
    if (h.read >= candidateLookahead) return false
    const c = codeAt(chunk, i)
    if (h.runLength >= 0) {
      if (c === 0x60) h.runLength++
      else {
        // the run ended: a length that decides it without the candidate goes to the lexer now, as it would have
        // gone had the chunk not cut the run (the lexer's fate asks the length first)
        const r = h.run
        if (r !== null && (r.closes.includes(h.runLength) || (r.lineStart && h.runLength >= 3))) return false
        h.runLength = -1
      }
    }
    h.state = next(h.state, c)
    h.read++
    if ((h.state & candidateBits) === 0) return false
  }
  return h.read < candidateLookahead
}
