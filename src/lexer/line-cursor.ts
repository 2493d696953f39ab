/**
 * The lexer run's view of the line state (`lines.ts`): a cursor that
 * advances from the last position asked for, the points where the lexer
 * ended an HTML candidate that the text alone would not have ended, and the
 * look-ahead that decides a backtick run standing in a candidate.
 */
import { DONE, candidateBits, candidateStep } from './inline-html.js'
import { next, scan, type Ahead, type LineState } from './lines.js'

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
  private readonly ahead: Ahead = { lt: -1, lf: -1 }
  private kills: number[] | null = null

  constructor(private readonly initial: LineState) {
    this.state = initial
  }

  stateAt(text: string, pos: number): LineState {
    if (pos < this.at) {
      this.at = 0
      this.state = this.initial
      this.ahead.lt = this.ahead.lf = -1
      // a kill at the text's start (a held tag there, `tokens-html.ts`) holds from the start on
      if (this.kills !== null && this.kills[0] === 0) this.state &= ~candidateBits
    }
    if (this.kills !== null) {
      for (const k of this.kills) {
        if (k <= this.at || k > pos) continue
        this.state = scan(this.state, text, this.at, k, this.ahead) & ~candidateBits
        this.at = k
      }
    }
    if (pos > this.at) this.state = scan(this.state, text, this.at, pos, this.ahead)
    this.at = pos
    return this.state
  }

  /** From `pos` on, the HTML candidate live there is none. */
  kill(text: string, pos: number): void {
    const kills = (this.kills ??= [])
    if (kills.length > 0 && kills[kills.length - 1]! >= pos) return
    this.stateAt(text, pos)
    kills.push(pos)
    this.state &= ~candidateBits
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
      const c = text.charCodeAt(at)
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
 * A backtick run the lexer held in an open candidate (`candidateHold`), read
 * on a chunk at a time without the lexer: each character is stepped once,
 * and the lexer sees the held text again only when the candidate ends or
 * the look-ahead is used up (1-char chunks would otherwise lex up to 256
 * characters per character).
 */
export class HeldCandidate {
  constructor(
    private state: LineState,
    private read: number,
  ) {}

  /** The look-ahead from the run's start `start` over the held text once; null when it ends within it. */
  static over(start: LineState, held: string): HeldCandidate | null {
    const h = new HeldCandidate(start, 0)
    return h.extend(held) ? h : null
  }

  /** True while the candidate stays open within the look-ahead after `chunk` (hold it too); false once the lexer must decide. */
  extend(chunk: string): boolean {
    for (let i = 0; i < chunk.length; i++) {
      if (this.read >= candidateLookahead) return false
      this.state = next(this.state, chunk.charCodeAt(i))
      this.read++
      if ((this.state & candidateBits) === 0) return false
    }
    return this.read < candidateLookahead
  }
}
