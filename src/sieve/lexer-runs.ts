/**
 * Lexer runs (docs/DESIGN.md, "Undecided tails"): the text the fast path cannot
 * prove is lexed from the saved mode and context, a window at a time, and
 * each token goes to the driver's token walk. A token may send the run back
 * (a hold released at a paragraph's end, a capture over its limit): the run
 * restarts there, and the text after its window waits.
 */
import type { IToken } from 'chevrotain'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { LexContext, LineState, RunCarry } from '../lexer/context.js'
import type { JsonRun } from '../lexer/json-scan.js'
import type { ModeName } from '../lexer/modes.js'
import type { GuardSettings } from '../lexer/markdown.js'
import { candidateOver, LineCursor, type HeldCandidate } from '../lexer/line-cursor.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { TokenMemo } from '../lexer/token-memo.js'
import type { SieveStats } from '../types.js'
import type { Holds } from './holds.js'
import { windowSize, type DriverState, type Restart } from './state.js'

/** The first window after a restart (see `run`). */
const restartWindow = 64

/** What the lexer runs need from the driver. */
export interface RunHost {
  readonly s: Readonly<DriverState>
  readonly lexer: CompiledLexer
  readonly stats: SieveStats
  readonly guard: GuardSettings
  /** Tokens of short texts, remembered (`lexer/token-memo.ts`). */
  readonly memo: TokenMemo
  /** `stats().maxHeldTail`: the longest undecided tail held outside a capture. */
  noteHeldTail(): void
  readonly holds: Holds
  /**
   * The context of the lexer run whose tokens are being handled (its carry
   * is the last run part's); null while recalled tokens are
   * (`applyTokens`, `apply.ts`).
   */
  ctxNow: LexContext | null
  /** The key a raw value's closer must spell for a run starting now (see `LexContext.rawOpener`). */
  rawOpener(): string
  /** The scanner's state for a run starting now inside a block that ends with its JSON, or null (see `LexContext.json`). */
  jsonRun(): JsonRun | null
  /** The sieve's capture limit (see `LexContext.captureLimit`). */
  readonly captureLimit: number
  /**
   * The boundary before `text`, a chunk's or a window's alike: the pending tail is part of `text` now, and a run
   * carried over that ended right at the boundary is decided before lexing on. Returns the restart a hold makes
   * of that run, if any.
   */
  boundary(text: string, final: boolean): Restart | null
  /** A run (or window) starts from `r`'s mode and Markdown state. */
  enterRun(r: Restart): void
  /** The run's text ended in an undecided tail, `image`; `candidate`: it is a backtick run held in an open HTML candidate. */
  held(image: string, candidate: HeldCandidate | null): void
  /** The run's tokens were walked up to stream offset `pos`, where the line state is `lineState` and `carry` is the run cut by the end. */
  ranTo(pos: number, lineState: LineState, carry: RunCarry | null): void
  /** Handle one token; returns where to restart lexing if the rest of this text was lexed under a wrong assumption. */
  token(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null
}

/** The driver's lexer runs: a chunk the fast path cannot take, the stream's end, and every restart a token makes. */
export class LexerRuns {
  /** The window size (`DriverOptions.windowSize`). */
  private readonly window: number
  /** The first window after a restart: {@link restartWindow}, or the window size if smaller. */
  private readonly afterRestart: number

  constructor(private readonly d: RunHost, window = windowSize) {
    this.window = window
    this.afterRestart = Math.min(restartWindow, window)
  }

  /** The run is over a tag's span: its tokens are worth remembering (`TokenMemo`); other runs' texts seldom recur. */
  private span = false

  /** Lex the pending tail and `chunk`, in windows; `span`: `chunk` is a tag's span (`tag-spans.ts`). */
  lexChunk(chunk: string, span = false): void {
    const s = this.d.s
    const size = this.window
    this.span = span
    for (let i = 0; i < chunk.length; i += size) {
      const piece = chunk.length <= size ? chunk : chunk.slice(i, i + size)
      this.lexWindow(s.pending + piece, false)
    }
    this.span = false
  }

  /** Lex `text`, which starts at stream offset `s.pos` (the pending tail included): a window of a chunk, or the stream's last text. */
  lexWindow(text: string, final: boolean): void {
    const s = this.d.s
    const r = this.d.boundary(text, final)
    if (r !== null) return this.run(r, final)
    // nothing left to lex (the stream ended right after a run): the decision above was all there was
    if (text === '' && s.carry === null) return
    this.run({ text, base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: s.carry }, final)
  }

  /**
   * One run over `text` (the pending tail in it) from the driver's position
   * and `mode`, in no windows, its tokens for the driver to walk
   * (`json-reading.ts`): a block that ends with its JSON (`json`), whose
   * run stops at the block's end, or a message's start (`atStart`), whose
   * run stops where it decides for text.
   */
  tokens(text: string, mode: ModeName): IToken[] {
    const s = this.d.s
    const r: Restart = { text, base: s.pos, mode, md: s.md, lineState: s.lineState, carry: null }
    const tokens = this.lex(text, r.mode, this.context(r, false, -1))
    // the block's end (or the start's decision for text) pushed `halt`: its one token is the text after it, which the
    // driver reads again, unlexed
    const last = tokens[tokens.length - 1]
    if (last !== undefined && this.d.lexer.infoByIdx[last.tokenTypeIdx]!.category === 'Halt') this.d.stats.charsLexed -= last.image.length
    return tokens
  }

  /** The context a run from `r` starts in. */
  private context(r: Restart, final: boolean, noHold: number): LexContext {
    const md = r.md
    // a literal, not a spread: object spread costs microseconds per call on Node 20 and this runs per chunk
    return { levels: md.levels.slice(), holdDepth: md.holdDepth, fenceCh: md.fenceCh, fenceLen: md.fenceLen, fenceDepth: md.fenceDepth, fenceIndent: md.fenceIndent, final, lineState: r.lineState, lines: new LineCursor(r.lineState), carry: r.carry, noHoldBefore: noHold, startAt: r.startAt ?? -1, rawOpener: this.d.rawOpener(), rawNext: null, json: this.d.jsonRun(), captureLimit: this.d.captureLimit, afterBlock: this.d.s.started === 'separator' }
  }

  /** The lexer's tokens for `text` from `mode` (remembered for a tag's span), counted. */
  private lex(text: string, mode: ModeName, ctx: LexContext): IToken[] {
    const tokens = this.span ? this.d.memo.tokenize(text, mode, ctx) : this.d.lexer.tokenize(text, mode, ctx)
    this.d.ctxNow = ctx
    this.d.stats.lexerRuns++
    this.d.stats.charsLexed += text.length
    this.d.stats.tokens += tokens.length
    return tokens
  }

  /** Lex from `first` on, a window at a time, following every restart a token makes. `final`: the stream ends with this text. */
  run(first: Restart, final: boolean): void {
    const s = this.d.s
    let r: Restart | null = first
    // what follows the current text, the nearest last: a restart inside a window covers the rest of that window,
    // and the text after the window waits here unjoined (appending it to the restart copied the whole remainder
    // again at every restart: quadratic in a megabyte pushed whole with hundreds of them)
    const after: string[] = []
    // how much of the next text is the tail the last window held: a window takes that and then its own size, so
    // each one moves on however long the tail
    let held = 0
    // the size of the next window: a restart lexes from where it restarts, and a text with a restart every few
    // characters (a hold released at every paragraph end) re-lexed the rest of a 16 KiB window at each, several
    // hundred times its length; after a restart the windows start small and double while no restart comes, so
    // what a restart throws away is at most what was lexed since the last one
    let grow = this.window
    while (r !== null) {
      const base = r.base
      // A restart can carry a whole capture back (up to the capture limit): lex it a window at a time, like
      // pushed text, so a restart from inside it re-lexes at most a window, not everything after it.
      let text: string = r.text
      let later: string | null = null
      const size = held + grow
      held = 0
      if (text.length > size) {
        later = text.slice(size)
        text = text.slice(0, size)
      }
      const last = final && later === null && after.length === 0
      this.d.enterRun(r)
      const carry0 = r.carry
      const noHold = s.noHoldUntil > base ? s.noHoldUntil - base : -1
      const ctx = this.context(r, last, noHold)
      const tokens = this.lex(text, r.mode, ctx)
      const startLine = r.lineState
      r = null
      let consumed = text.length
      for (const tok of tokens) {
        const info = this.d.lexer.infoByIdx[tok.tokenTypeIdx]!
        if (info.category === 'Incomplete') {
          consumed = tok.startOffset
          this.d.held(tok.image, info.candidateHold === true ? candidateOver(ctx.lines.stateAt(text, consumed), tok.image, ctx.lines.heldRun) : null)
          break
        }
        r = this.d.token(tok, info, text, base, startLine, carry0)
        if (r !== null) break
      }
      if (r !== null) {
        // the restart covers the rest of this window; the text past it follows
        if (later !== null) after.push(later)
        grow = this.afterRestart
        continue
      }
      this.d.ranTo(base + consumed, ctx.lines.stateAt(text, consumed), ctx.carry)
      if (later === null && after.length > 0) later = after.pop()!
      if (later !== null) {
        // the next window is the held tail and `take` characters of `later` (its cut takes no more): only those are
        // joined to the tail, and the rest waits in `after`, as that cut would have left it. Joined whole, the tail
        // and `later` were one string that the cut copied whole (V8 flattens a joined string it slices): with a
        // restart every few characters the windows stay small, and a megabyte of `[TOOL_CALLS]` mentions pushed
        // at once copied the rest of the push at every window, quadratic
        const take = Math.min(2 * grow, this.window)
        let rest: string | null = null
        if (later.length > take) {
          rest = later.slice(take)
          later = later.slice(0, take)
        }
        const next: string = s.pending + later
        // a window's end is a boundary like a chunk's: a run it cut that ends right there is decided first
        r = this.d.boundary(next, false)
        if (r !== null) {
          // a restart covers the text it was handed (`RunHost.boundary`): the rest of `later` with it, as before
          if (rest !== null) r = { ...r, text: r.text + rest }
          grow = this.afterRestart
          continue
        }
        if (rest !== null) after.push(rest)
        grow = take
        r = { text: next, base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: s.carry }
        held = next.length - later.length
        continue
      }
      this.d.noteHeldTail()
    }
  }
}
