/**
 * The streaming driver: the sieve's state (`DriverState`) and what it is
 * read with, and the entry the sieve calls: `push`, `end`, `abort`,
 * `recover`. A chunk is read in `feed.ts` (by the fast path's answers,
 * applied in `apply.ts`, or a lexer run, `lexer-runs.ts`; by the JSON
 * scanner in `json-reading.ts`), and every token goes once through the
 * token walk (`walk.ts`), which decides what leaves as text, what is held
 * and what is captured and parsed: the one writer of the sieve's state.
 * Its other methods are the hooks those readings call (`RunHost`, `FeedHost`).
 * `README.md` here draws a chunk's life.
 */
import type { IToken } from 'chevrotain'
import { tokenMemo, type TokenMemo } from '../lexer/token-memo.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { lineStateBefore, tagKey, type LexContext, type LineState, type RunCarry } from '../lexer/context.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { ModeName } from '../lexer/modes.js'
import { CaptureRules, tagModeRole } from '../lexer/structure.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { AnchoredBlocks } from '../grammar/types.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { committed, lastParamOpen, type DriverCore } from './capture.js'
import { KeptTokens } from './kept-tokens.js'
import { Emitter } from './emitter.js'
import { Deferral } from './deferral.js'
import { FastPath } from './fast-path.js'
import { fastPathTables } from './fast-path-tables.js'
import { Holds } from './holds.js'
import { flushRun, type Capture, type DriverOptions, type DriverState, type Hold, type Restart } from './state.js'
import { LexerRuns, type RunHost } from './lexer-runs.js'
import { reasoningDone, splitReasoning } from './reasoning.js'
import { CallStream } from './call-stream.js'
import type { HeldCandidate } from '../lexer/line-cursor.js'
import { settleAtBoundary } from './boundary.js'
import type { TailState } from '../lexer/tail.js'
import { ReasoningCalls } from './reasoning-calls.js'
import { releaseHeld, startOver } from './abort.js'
import { endStream } from './stream-end.js'
import { jsonRunOf } from './json-block.js'
import type { JsonRun } from '../lexer/json-scan.js'
import { feed, type FeedHost } from './feed.js'
import { walkToken } from './walk.js'
import { enterAnswer, enterRun, holdTail, ranTo } from './chunk-edge.js'

/**
 * What was held when a push began: the capture's token array, its text run
 * and the arrays of that run, the hold, each with how much of it was there
 * (see `Driver.atPush`).
 */
interface AtPush {
  chunk: string | null
  tokens: IToken[] | null
  tokenCount: number
  run: Capture['run']
  runBlocks: number
  runParts: string[] | null
  runPartCount: number
  hold: Hold | null
  parts: number
  pending: string
  reasoning: string
}

export class Driver implements DriverCore, RunHost, FeedHost {
  readonly out = new Emitter()
  readonly stats: SieveStats = { charsLexed: 0, tokens: 0, blocksParsed: 0, lexerRuns: 0, maxHeldTail: 0 }
  readonly guard: GuardSettings
  /** See {@link RunHost.memo}. */
  readonly memo: TokenMemo
  /** See {@link RunHost.ctxNow}. */
  ctxNow: LexContext | null = null
  /**
   * The last {@link tail} known, for the pending text and mode it was for; null: work it out from them. Every
   * write of `pending` sets or clears it (`knownTail`), so a later pending that happens to spell the same never
   * meets it: a reading that stepped a tail on from an earlier one can stand elsewhere than one started afresh.
   */
  private tailMemo: { pending: string; mode: ModeName; tail: TailState | null } | null = null
  readonly fast: FastPath
  readonly deferral: Deferral
  readonly holds: Holds
  readonly runs: LexerRuns
  readonly rules = new CaptureRules()
  /** See {@link WalkHost.kept}. */
  readonly kept = new KeptTokens()
  /** See {@link DriverCore.calls}. */
  readonly calls: CallStream | null
  /** With `reasoningCalls: 'call'`: where the reasoning goes, to be sieved for calls; null: it is reasoning as it comes. */
  private readonly reasoningSink: ReasoningCalls | null

  /** Where the pending tail stands in the delimiters it may become (`lexer/tail.ts`): a function of the pending text and the mode. */
  get tail(): TailState | null {
    const s = this.s
    if (s.pending === '') return null
    const m = this.tailMemo
    if (m !== null && m.pending === s.pending && m.mode === s.mode) return m.tail
    const tail = this.lexer.tails.get(s.mode)?.start(s.pending) ?? null
    this.tailMemo = { pending: s.pending, mode: s.mode, tail }
    return tail
  }

  /** `pending` was just written: `tail` as the reading that wrote it found it (undefined: not known, work it out). */
  knownTail(tail: TailState | null | undefined): void {
    this.tailMemo = tail === undefined ? null : { pending: this.s.pending, mode: this.s.mode, tail }
  }

  /** The grammar's blocks anchored at the message start (`JsonBlocks.anchored`), if any: asked at every turn of `feed`. */
  readonly anchored: AnchoredBlocks | undefined

  constructor(readonly lexer: CompiledLexer, readonly opts: DriverOptions, public s: DriverState) {
    this.anchored = lexer.grammar.blocks?.json?.anchored
    const md = lexer.grammar.markdown
    this.guard = { fences: md?.fences !== false, codeSpans: md?.codeSpans !== false }
    this.memo = tokenMemo(lexer)
    this.fast = new FastPath(this)
    const tables = fastPathTables(lexer)
    this.deferral = new Deferral(tables, opts.streamArguments)
    this.holds = new Holds(this)
    this.runs = new LexerRuns(this, opts.windowSize)
    this.calls = opts.streamArguments ? new CallStream(lexer, opts, this.out, this) : null
    this.reasoningSink = opts.reasoningCalls ? new ReasoningCalls((inner) => new Driver(lexer, { ...opts, reasoningCalls: false }, inner), this.out, s) : null
    // resumed from a checkpoint: what was pushed and given out before it, so that a recovery releases the right text
    const answer = reasoningDone(s.reasoning)
    const decided = answer ? s.pos : s.reasoning.pos
    this.pushed = decided + (answer ? s.pending.length : s.reasoning.held.length)
    this.out.emitted = s.capture?.start ?? s.hold?.start ?? decided
  }

  /** Characters pushed so far, this chunk included. */
  private pushed = 0
  /**
   * What was held when this push began, and the chunk: what a recovery
   * releases is the part not yet given out. References and counts, never
   * copies (a push only appends to what it holds): this is set per chunk.
   */
  private readonly atPush: AtPush = {
    chunk: null, tokens: null, tokenCount: 0, run: null, runBlocks: 0, runParts: null, runPartCount: 0, hold: null, parts: 0, pending: '', reasoning: '',
  }

  push(chunk: string): void {
    this.pushChunk(chunk)
    // the push went through: nothing to recover, and a block it completed is not kept alive by this record
    this.forgetPush()
  }

  private forgetPush(): void {
    // the tokens a capture kept are held by it while it is open, and by nothing else once it is over
    if (this.s.capture === null) this.kept.forget()
    const p = this.atPush
    p.chunk = null
    p.tokens = null
    p.run = null
    p.runParts = null
    p.hold = null
    p.pending = ''
    p.reasoning = ''
  }

  private pushChunk(chunk: string): void {
    const s = this.s
    if (chunk.length === 0) return
    this.pushed += chunk.length
    const p = this.atPush
    const cap = s.capture
    p.chunk = chunk
    p.tokens = cap === null ? null : cap.tokens
    p.tokenCount = cap === null ? 0 : cap.tokens.length
    const run = cap === null ? null : cap.run
    p.run = run
    p.runBlocks = run === null ? 0 : run.blocks.length
    p.runParts = run === null ? null : run.parts
    p.runPartCount = run === null ? 0 : run.parts.length
    p.hold = s.hold
    p.parts = s.hold === null ? 0 : s.hold.parts.length
    p.pending = s.pending
    // the reasoning's held part (a closer's prefix, `</thi`; blanks before a `<think>`) comes before the chunk: a
    // push that fails while it is held must release it too
    p.reasoning = s.reasoning.phase === 'done' ? '' : s.reasoning.held
    if (s.reasoning.phase !== 'done') {
      chunk = splitReasoning(s.reasoning, this.opts.reasoningTags, chunk, this.reasoningSink ?? this.out)
      // the answer starts where the reasoning ended: its spans are offsets in the whole stream
      enterAnswer(s)
      if (chunk.length === 0) return
    }
    feed(this, chunk)
    const now = s.capture
    if (this.calls !== null && now !== null && !now.overflow) {
      // the value text the fast path gathered becomes a token now, so that it can stream
      flushRun(now)
      this.calls.observe(now, committed(now))
    }
  }

  /** See {@link RunHost.boundary}. */
  boundary(text: string, final: boolean): Restart | null {
    return settleAtBoundary(this, text, final)
  }

  /** See {@link RunHost.enterRun}. */
  enterRun(r: Restart): void {
    enterRun(this.s, r)
  }

  /** See {@link RunHost.held}. */
  held(image: string, candidate: HeldCandidate | null): void {
    holdTail(this, image, candidate)
  }

  /** See {@link RunHost.ranTo}. */
  ranTo(pos: number, lineState: LineState, carry: RunCarry | null): void {
    ranTo(this.s, pos, lineState, carry)
  }

  /** See {@link RunHost.noteHeldTail}. */
  noteHeldTail(): void {
    const s = this.s
    if (s.capture === null && s.pending.length > this.stats.maxHeldTail) this.stats.maxHeldTail = s.pending.length
  }

  /** See {@link RunHost.token}: the token walk (`walk.ts`). */
  token(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null {
    return walkToken(this, tok, info, text, base, startLine, carry0)
  }

  /** See {@link RunHost.jsonRun}. */
  jsonRun(): JsonRun | null {
    return jsonRunOf(this)
  }

  /** See {@link RunHost.captureLimit}. */
  get captureLimit(): number {
    return this.opts.captureLimit
  }

  /** See {@link RunHost.rawOpener}: in a raw value its opener's; inside a parameter tag (a run starts mid-tag) the tag's. */
  rawOpener(): string {
    const s = this.s
    if (s.raw !== null) return s.raw
    const cap = s.capture
    if (cap === null || tagModeRole.get(s.mode) !== 'parameter') return ''
    const i = lastParamOpen(this, cap.tokens)
    return i < 0 ? '' : tagKey(cap.tokens[i]!.image)
  }

  /**
   * The line state at `offset` of `text`, which starts in `startLine`: from
   * the lexer run's cursor when `text` is that run's (it knows where the
   * lexer ended an HTML candidate), else from the text alone.
   */
  lineAt(text: string, offset: number, startLine: LineState): LineState {
    return this.ctxNow === null ? lineStateBefore(text, offset, startLine) : this.ctxNow.lines.stateAt(text, offset)
  }

  diagnostic(code: DiagnosticCode, message: string, start: number, end: number): void {
    this.out.event({ type: 'diagnostic', code, message, span: { start, end } })
  }

  /** The stream is over (`Sieve.end`): what is held is decided (`stream-end.ts`). */
  end(): void {
    this.forgetPush()
    endStream(this, this.reasoningSink)
    this.kept.forget()
  }

  /**
   * The stream broke off (`Sieve.abort`): everything held goes out as it
   * was held (`abort.ts`), no call is made from it, and the state is left
   * holding nothing, so that a checkpoint taken now resumes in prose.
   */
  abort(): void {
    this.forgetPush()
    releaseHeld(this, this.reasoningSink)
    this.kept.forget()
    startOver(this, this.pushed)
    this.knownTail(null)
  }

  /**
   * Last resort after an internal error: everything not yet given out —
   * what was held and the unread rest of the chunk — goes out as text, and
   * the sieve starts over in prose, so the caller's stream keeps flowing.
   */
  recover(e: unknown): void {
    const s = this.s
    const missing = this.pushed - this.out.emitted
    const p = this.atPush
    // the text held when the push began and the chunk, or (end() failed) what is held now: its last `missing` characters
    let all = ''
    if (missing > 0 && p.chunk !== null) {
      // the run may have been made a token since, or folded (its parts joined into a block, a new parts array
      // begun): the arrays it had then still hold what it held
      const held = p.run === null ? '' : p.run.blocks.slice(0, p.runBlocks).join('') + p.runParts!.slice(0, p.runPartCount).join('')
      all = [...(p.tokens?.slice(0, p.tokenCount).map((t) => t.image) ?? []), held, ...(p.hold?.parts.slice(0, p.parts) ?? []), p.pending, p.reasoning, p.chunk].join('')
    } else if (missing > 0) {
      if (s.capture !== null) flushRun(s.capture)
      const reasoning = s.reasoning.phase === 'done' ? '' : s.reasoning.held
      all = [...(s.capture?.tokens.map((t) => t.image) ?? []), ...(s.hold?.parts ?? []), s.pending, reasoning].join('')
    }
    const text = all.length > missing ? all.slice(all.length - missing) : all
    const start = this.out.emitted
    this.calls?.finish('internal-error')
    this.out.text(text)
    this.diagnostic('internal-error', `toolsieve hit an internal error and released what it had not given out as text: ${String((e as Error)?.message ?? e)}`, start, start + text.length)
    startOver(this, this.pushed)
    this.forgetPush()
  }

}