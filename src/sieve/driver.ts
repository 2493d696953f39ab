/**
 * The streaming driver: asks the fast path (`fast-path.ts`) how each chunk
 * reads and applies their answers (`apply`), or hands it to the deferral
 * (`deferral.ts`) or a lexer run (`lexer-runs.ts`), and walks every token
 * once (`token`, the token walk), deciding what leaves as text, what is
 * held and what is captured and parsed: the one writer of the sieve's
 * state. `README.md` here draws a chunk's life.
 */
import type { IToken } from 'chevrotain'
import { tokenOf, unplaced } from '../lexer/token-instance.js'
import { tokenMemo, type TokenMemo } from '../lexer/token-memo.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { freshMarkdown, lineStateBefore, tagKey, type LexContext, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import type { GuardSettings } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { tagModeRole } from '../lexer/structure.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { AnchoredBlocks } from '../grammar/types.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { committed, completeBlock, cutCdata, endCapture, lastParamOpen, passOverflow, releaseCapture, stringValueKey, type DriverCore } from './capture.js'
import { CaptureRules } from './capture-rules.js'
import { Emitter } from './emitter.js'
import { Deferral } from './deferral.js'
import { FastPath } from './fast-path.js'
import { fastPathTables } from './fast-path-tables.js'
import { Holds } from './holds.js'
import { appendRun, flushRun, initialState, type Capture, type DriverOptions, type DriverState, type Hold, type Restart } from './state.js'
import { LexerRuns, type RunHost } from './lexer-runs.js'
import { endReasoning, reasoningDone, splitReasoning } from './reasoning.js'
import { CallStream, initialCallStream } from './call-stream.js'
import type { Answer } from './answer.js'
import { extendCandidate, type HeldCandidate } from '../lexer/line-cursor.js'
import { settleAtBoundary } from './boundary.js'
import type { TailState } from '../lexer/tail.js'
import { ReasoningCalls } from './reasoning-calls.js'
import { releaseHeld } from './abort.js'
import { endJsonBlock, jsonBeforeOf, jsonCapture, jsonMention, jsonRunOf, jsonToken } from './json-block.js'
import type { JsonRun } from '../lexer/json-scan.js'
import type { JsonPart, JsonPayload } from '../lexer/json-tokens.js'
import { literalFrame } from '../lexer/tokens.js'
import { codeAt } from '../lexer/codes.js'

export class Driver implements DriverCore, RunHost {
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
  private readonly runs: LexerRuns
  private readonly rules = new CaptureRules()
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
  private knownTail(tail: TailState | null | undefined): void {
    this.tailMemo = tail === undefined ? null : { pending: this.s.pending, mode: this.s.mode, tail }
  }

  /** The grammar's blocks anchored at the message start (`JsonBlocks.anchored`), if any: asked at every turn of `feed`. */
  private readonly anchored: AnchoredBlocks | undefined

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
  private readonly atPush: { chunk: string | null; capture: Capture | null; tokens: number; runBlocks: number; runParts: number; hold: Hold | null; parts: number; pending: string; reasoning: string } = {
    chunk: null, capture: null, tokens: 0, runBlocks: 0, runParts: 0, hold: null, parts: 0, pending: '', reasoning: '',
  }

  push(chunk: string): void {
    const s = this.s
    if (chunk.length === 0) return
    this.pushed += chunk.length
    const p = this.atPush
    const cap = s.capture
    p.chunk = chunk
    p.capture = cap
    p.tokens = cap === null ? 0 : cap.tokens.length
    p.runBlocks = cap === null || cap.run === null ? 0 : cap.run.blocks.length
    p.runParts = cap === null || cap.run === null ? 0 : cap.run.parts.length
    p.hold = s.hold
    p.parts = s.hold === null ? 0 : s.hold.parts.length
    p.pending = s.pending
    // the reasoning's held part (a closer's prefix, `</thi`; blanks before a `<think>`) comes before the chunk: a
    // push that fails while it is held must release it too
    p.reasoning = s.reasoning.phase === 'done' ? '' : s.reasoning.held
    if (s.reasoning.phase !== 'done') {
      chunk = splitReasoning(s.reasoning, this.opts.reasoningTags, chunk, this.reasoningSink ?? this.out)
      // the answer starts where the reasoning ended: its spans are offsets in the whole stream
      if (reasoningDone(s.reasoning)) s.pos = s.reasoning.pos
      if (chunk.length === 0) return
    }
    this.feed(chunk)
    const now = s.capture
    if (this.calls !== null && now !== null && !now.overflow) {
      // the value text the fast path gathered becomes a token now, so that it can stream
      flushRun(now)
      this.calls.observe(now, committed(now))
    }
  }

  /**
   * The answer's next chunk (after any reasoning): its first reading goes by
   * what the last chunk left (a deferred tag, a carried run, a pending
   * tail); what a fast-path answer leaves of it is a chunk of its own,
   * read in this loop (4,000 fence lines in one chunk are 4,000 turns of
   * it, never as many stack frames) until the lexer takes the rest or
   * nothing is left.
   */
  private feed(chunk: string): void {
    let rest = this.s.mode === modes.jsonBlock ? this.json(chunk) : this.startsOpen() ? this.atStart(chunk) : this.begin(chunk)
    while (rest !== null) {
      // at the message's start, or right after a block there: a value may open a block
      if (this.startsOpen()) {
        rest = this.atStart(rest)
        continue
      }
      // inside a block that ends with its JSON: its own run, whose end hands the rest back here
      if (this.s.mode === modes.jsonBlock) {
        rest = this.json(rest)
        continue
      }
      // a tag's span was lexed before `rest`, and left something for it to decide with: read as a chunk's start is
      if (this.s.pending !== '' || this.s.carry !== null) {
        rest = this.begin(rest)
        continue
      }
      const a = this.fast.chunk(rest)
      if (a === null) return void this.lexed(rest)
      const next = this.apply(a, rest)
      // every answer of `chunk` reads something (plain text, a token, a held tail); should one not, the lexer
      // takes the rest rather than the loop asking again forever
      if (next === rest) return void this.lexed(rest)
      rest = next
    }
  }

  /**
   * The answer's start, in a grammar with blocks anchored there
   * (`JsonBlocks.anchored`): one lexer run in `messageStart`
   * (`lexer/start-tokens.ts`), its tokens walked here. Blanks go out as
   * text; an opener's start at the text's end waits in `pending`; a block's
   * opener leads into the block, whose tokens follow in the same run; else
   * the message opens with text. Returns what is left of the chunk to read,
   * or null: nothing.
   */
  private atStart(chunk: string): string | null {
    const s = this.s
    const text = s.pending + chunk
    if (text === '') return null
    s.pending = ''
    this.knownTail(null)
    // the message opens with text (most do), or waits for more: the matchers' own decision, without a run
    const d = this.fast.start(text)
    if (d !== null) {
      this.startBlanks(text.substring(0, d.at))
      if (d.kind === 'hold') {
        s.pending = text.substring(d.at)
        return null
      }
      s.started = true
      return text.substring(d.at)
    }
    const base = s.pos
    const startLine = s.lineState
    const tokens = this.runs.tokens(text, modes.messageStart)
    for (let k = 0; k < tokens.length; k++) {
      const tok = tokens[k]!
      const category = this.lexer.infoByIdx[tok.tokenTypeIdx]!.category
      if (category === 'Incomplete') {
        s.pending = tok.image
        return null
      }
      if (category === 'Text') {
        this.startBlanks(tok.image)
        continue
      }
      s.started = true
      // the message opens with text: prose reads on from here
      if (category === 'Halt') return text.substring(tok.startOffset) || null
      // a block's opener: the block's own tokens follow
      s.capture = jsonCapture(s.pos, tok, literalFrame, lineStateBefore(tok.image, tok.image.length, s.lineState))
      s.lineState = s.capture.lineState
      s.pos += tok.image.length
      s.mode = modes.jsonBlock
      s.sawSyntax = true
      return this.jsonTokens(tokens, k + 1, text, base, startLine)
    }
    return null
  }

  /** Blanks at a message's start: text, whatever follows them. */
  private startBlanks(blanks: string): void {
    if (blanks === '') return
    const s = this.s
    this.out.text(blanks)
    s.lineState = lineStateBefore(blanks, blanks.length, s.lineState)
    s.pos += blanks.length
  }

  /** Whether the reading stands where a value may open a block anchored at the message start (`DriverState.started`). */
  private startsOpen(): boolean {
    return this.anchored !== undefined && this.s.started !== true && this.s.mode === modes.prose
  }

  /**
   * `chunk` inside a block that ends with its JSON (the pending tail, a
   * closer's start, before it): the block's tokens as its matchers' step
   * reads them without a run (`FastPath.jsonStep`), then, from a mention or
   * a break, which it leaves to the lexer, one run with no windows; either
   * way walked here up to the block's end. Returns
   * what is left after the block, read as a chunk of its own (a block at the
   * message start may be followed by another), or null.
   */
  private json(chunk: string): string | null {
    const s = this.s
    const cap = s.capture!
    const text = s.pending + chunk
    s.pending = ''
    this.knownTail(null)
    const before = jsonBeforeOf(this, cap)
    let at = 0
    for (let step = this.fast.jsonStep(cap.json!, before, text, 0); step !== null; step = this.fast.jsonStep(cap.json!, before, text, at)) {
      // a closer's start at the text's end: it waits, as the lexer's Incomplete token would have it
      if (step.part === 'incomplete') {
        this.held(text.substring(at), null)
        return null
      }
      const over = jsonToken(this, step.part as Exclude<JsonPart, 'mention'>, text.substring(at, step.end), step.scan)
      at = step.end
      if (over) return text.substring(at)
      if (at === text.length) return null
    }
    const rest = text.substring(at)
    return this.jsonTokens(this.runs.tokens(rest, s.mode), 0, rest, s.pos, s.lineState)
  }

  /**
   * A JSON block's tokens from `tokens[from]` on, of a run over `text` from
   * stream offset `base` and line state `startLine`, walked up to the
   * block's end. Returns what is left after the block, or null.
   */
  private jsonTokens(tokens: readonly IToken[], from: number, text: string, base: number, startLine: LineState): string | null {
    for (let k = from; k < tokens.length; k++) {
      const tok = tokens[k]!
      const info = this.lexer.infoByIdx[tok.tokenTypeIdx]!
      if (info.category === 'Incomplete') {
        this.held(tok.image, null)
        return null
      }
      const r = this.jsonToken(tok, info, text, base, startLine)
      if (r === null) continue
      // a mention: what followed the opener is prose, lexed from there; else the block is over
      if (info.json === 'mention') {
        this.runs.run(r, false)
        return null
      }
      return r.text
    }
    return null
  }

  /** The first reading of `chunk`; returns what is left of it to read as a chunk of its own, or null: nothing. */
  private begin(chunk: string): string | null {
    const s = this.s
    if (s.capture !== null && s.carry === null && s.capture.length + s.pending.length + chunk.length <= this.opts.captureLimit) {
      // inside a tag's attributes: a chunk that cannot end or break the tag waits for one that can (see `deferral.ts`)
      const deferred = this.deferral.wait(s.mode, s.pending, s.deferred, chunk)
      if (deferred !== null) {
        s.pending += chunk
        s.deferred = deferred
        // deferred attribute text is no delimiter's prefix
        this.knownTail(null)
        return null
      }
      // the deferred tag can wait no longer: in its common shape it is read without the lexer
      if (s.deferred !== null && s.pending !== '') {
        const text = s.pending + chunk
        const a = this.fast.readTag(text)
        if (a !== null) return this.apply(a, text)
      }
    }
    // a carried run: a lexer run's boundary decides where it ends (`boundary.ts`). Outside captures and holds, one
    // that ended at the chunk's edge is decided there as a run's boundary would, and the chunk reads on as any
    // other; one that all of the chunk continues is carried on
    if (s.carry !== null) {
      if (s.hold !== null || s.capture !== null || s.pending !== '') return this.lexed(chunk)
      if (codeAt(chunk, 0) === s.carry.ch) return this.apply(this.fast.runGoesOn(chunk), chunk)
      settleAtBoundary(this, chunk, false)
    }
    if (s.pending === '') {
      const a = this.fast.chunk(chunk)
      return a === null ? this.lexed(chunk) : this.apply(a, chunk)
    }
    // a pending tail: the answers below read it and the chunk joined
    const text = s.pending + chunk
    const a = this.fast.extendTail(chunk, text)
    if (a !== null && a.then !== 'defer') return this.apply(a, text)
    if (a !== null && this.deferTag(a.deferMode!, text, a.end)) return null
    // the held candidate run's tag or autolink is still open after `chunk`: hold it too, without lexing
    const c = s.candidate
    if (c !== null && extendCandidate(c, chunk)) {
      s.pending = text
      this.knownTail(undefined)
      this.noteHeldTail()
      return null
    }
    // a tail the lexer held that the tail matcher cannot follow (line-start blanks or a list marker a fence might
    // have followed, a closer that spells another opener): the tail and the chunk are read as one chunk would be,
    // nothing pending, as the lexer reads them (a held tail is a chunk edge)
    if (c === null && s.deferred === null && this.tail === null) {
      // the fast path's chunk reading never reads `pending`; applying the answer clears it
      const b = this.fast.chunk(text)
      if (b !== null) return this.apply(b, text)
    }
    return this.lexed(chunk)
  }

  /** `chunk` goes to the lexer, with the pending tail: nothing is left. */
  private lexed(chunk: string): null {
    this.runs.lexChunk(chunk)
    return null
  }

  /**
   * Applies a fast-path answer for `text` (`answer.ts`): the one place
   * their readings change the sieve's state. Returns what is left of `text`
   * to read as a chunk of its own, or null: nothing (held, or lexed).
   */
  private apply(a: Answer, text: string): string | null {
    const s = this.s
    // the answer read the pending tail, if any, as the start of `text`
    s.pending = ''
    this.knownTail(undefined)
    if (a.release) {
      this.out.text(s.hold!.parts.join(''))
      s.hold = null
    }
    const n = a.plain
    if (n > 0) this.plain(n === text.length ? text : text.slice(0, n), a)
    s.lineState = a.line >= 0 ? a.line : lineStateBefore(text, n, s.lineState)
    s.pos += n
    s.carry = a.carry
    if (a.mode !== null) s.mode = a.mode
    if (a.md !== null) s.md = a.md
    if (a.then === 'held') {
      // what the lexer's Incomplete token would hold: a tag start (or line-start spaces) the chunk end leaves undecided
      s.pending = text.slice(n)
      this.knownTail(a.tail)
      this.noteHeldTail()
      return null
    }
    const after = n === 0 ? text : text.slice(n)
    if (a.tokens !== null) {
      this.applyTokens(a.tokens, a.end === after.length ? after : after.slice(0, a.end))
      return a.end === after.length ? null : after.slice(a.end)
    }
    if (a.then === 'lexer') {
      if (a.end === 0) return this.lexed(after)
      // a tag's span, lexed as a chunk of its own (its tokens are remembered, `TokenMemo`, even when it is all of
      // the text); what follows is the next (`feed` reads it as it reads a chunk)
      const pos = s.pos
      const whole = a.end >= after.length
      this.runs.lexChunk(whole ? after : after.slice(0, a.end), true)
      if (whole) return null
      // the lexer held all of the span: it needs what follows to decide
      return s.pos === pos ? this.lexed(after.slice(a.end)) : after.slice(a.end)
    }
    return after === '' ? null : after
  }

  /** Plain text where it stands: out, into the capture's value text (out, past the limit), or into the hold. */
  private plain(head: string, a: Answer): void {
    const s = this.s
    const cap = s.capture
    // over the limit a capture still keeps an open tag's tokens (`passOverflow`): its attribute text joins them, or
    // it would leave before its own tag
    if (cap !== null && (!cap.overflow || cap.tokens.length > 0 || cap.run !== null)) {
      appendRun(cap, a.type!, head)
      cap.length += head.length
      // a tag longer than the limit by itself goes out whole (`passOverflow`): memory stays bounded
      if (cap.overflow && cap.length > this.opts.captureLimit) {
        flushRun(cap)
        passOverflow(this, cap)
      }
    } else if (cap === null && s.hold !== null) {
      s.hold.parts.push(head)
      s.hold.length += head.length
    } else this.out.text(head)
  }

  /**
   * The tokens a lexer run made of `text` before, in the same context
   * (`lexer/token-memo.ts`), walked as that run's are; a restart lexes the
   * rest of `text`.
   */
  private applyTokens(tokens: readonly IToken[], text: string): void {
    const s = this.s
    const base = s.pos
    const startLine = s.lineState
    s.pending = ''
    s.deferred = null
    s.candidate = null
    // the run's line cursor marked nothing (else it is not remembered): line states come from the text alone
    this.ctxNow = null
    for (const tok of tokens) {
      const r = this.token(tok, this.lexer.infoByIdx[tok.tokenTypeIdx]!, text, base, startLine, null)
      if (r !== null) return this.runs.run(r, false)
    }
    s.pos = base + text.length
    s.lineState = lineStateBefore(text, text.length, startLine)
  }

  /** See {@link RunHost.boundary}. */
  boundary(text: string, final: boolean): Restart | null {
    return settleAtBoundary(this, text, final)
  }

  /** See {@link RunHost.enterRun}. */
  enterRun(r: Restart): void {
    this.s.mode = r.mode
    this.s.md = r.md
  }

  /** See {@link RunHost.held}. */
  held(image: string, candidate: HeldCandidate | null): void {
    this.s.pending = image
    this.s.candidate = candidate
    this.knownTail(undefined)
  }

  /** See {@link RunHost.ranTo}. */
  ranTo(pos: number, lineState: LineState, carry: RunCarry | null): void {
    const s = this.s
    s.carry = carry
    s.pos = pos
    s.lineState = lineState
  }

  /** See {@link RunHost.noteHeldTail}. */
  noteHeldTail(): void {
    const s = this.s
    if (s.capture === null && s.pending.length > this.stats.maxHeldTail) this.stats.maxHeldTail = s.pending.length
  }

  /** Hold `text`, an opening tag pushing `tagMode` whose name ends at `nameEnd`, unlexed if the rest can wait (`deferral.ts`). */
  private deferTag(tagMode: ModeName, text: string, nameEnd: number): boolean {
    const s = this.s
    if (s.capture!.length + text.length > this.opts.captureLimit) return false
    const deferred = this.deferral.opener(s.mode, tagMode, text, nameEnd)
    if (deferred === null) return false
    s.pending = text
    s.deferred = deferred
    this.knownTail(null)
    return true
  }

  end(): void {
    const s = this.s
    this.atPush.chunk = null
    if (s.reasoning.phase !== 'done') {
      const rest = endReasoning(s.reasoning, this.reasoningSink ?? this.out)
      this.reasoningSink?.end()
      s.pos = s.reasoning.pos
      if (rest !== '') this.feed(rest)
    }
    // the stream ended at its start, with an optional opener's start held: it is text, read as prose reads it
    if (this.anchored !== undefined) s.started = true
    if (s.capture !== null) flushRun(s.capture)
    // a block that ends with its JSON, cut by the stream: its held closer start (if any) is prose now
    if (s.capture?.json !== undefined) s.pending = endJsonBlock(this)
    if (s.capture !== null && s.pending !== '' && this.lexer.tails.get(s.mode)?.matchesAtEnd(s.pending) !== true) {
      // the stream ended inside the block, mid-delimiter (`…</tool_ca`): that tail is part of the unterminated block
      s.capture.tokens.push(tokenOf(this.lexer.typeByName.get('Incomplete')!, s.pending, unplaced))
      s.capture.length += s.pending.length
      s.pending = ''
      s.carry = null
    }
    // a tail that is a whole delimiter now the stream is over (`</|DSML|tool_calls|` could have grown to `||`) is lexed as one
    if (s.pending !== '' || s.carry !== null) this.runs.lexWindow(s.pending, true)
    const cut = cutCdata(this)
    if (cut !== null) this.runs.run({ text: cut.text, base: cut.base, mode: modes.value, md: s.md, lineState: s.lineState, carry: null }, true)
    // end of stream ends the paragraph: a held tag is live
    while (s.hold !== null) {
      const h = s.hold
      s.hold = null
      if (s.mode === modes.fenceInfoHold) {
        // the opener line ended with the stream and no backtick: a fence, and the tag was in its info string
        if (!h.givenUp) this.out.text(h.parts.join(''))
        break
      }
      if (h.givenUp) continue
      const held = h.parts.join('')
      this.holds.halted(h.start + held.length)
      this.runs.run({ text: held, base: h.start, mode: modes.prose, md: freshMarkdown(), lineState: h.lineState, carry: null }, true)
    }
    if (s.capture !== null) endCapture(this)
  }

  /** See {@link RunHost.token}. */
  token(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null {
    const s = this.s
    // a token that moves the Markdown state carries the state after it (a run, a line feed; a tag held after an
    // unmatched backtick, the levels open at it)
    if (tok.payload !== undefined && info.json === undefined) s.md = tok.payload as MarkdownState
    const target = info.push
    if (s.skip !== null) return this.skipped(tok, info, text, base, startLine)
    const cap = s.capture
    if (cap?.json !== undefined) return this.jsonToken(tok, info, text, base, startLine)
    if (cap !== null) {
      flushRun(cap)
      const mode = s.mode
      const category = info.category
      // after an unclosed CDATA was cut at the stream's end, what follows may close the block, never open an invoke:
      // an invoke there would come from the CDATA's content
      if (!this.rules.continues(mode, category) || (category === 'InvokeOpen' && cap.repairedCdata !== undefined)) return this.interrupted(tok, info, text, base, startLine)
      cap.tokens.push(tok)
      cap.length += tok.image.length
      if (category === 'InvokeOpen') cap.invokeSeen = true
      else if (category === 'ParamOpen') cap.paramSeen = true
      else if (category === 'ParamClose') s.raw = null
      else if (category === 'InvokeClose') cap.lastClose = cap.tokens.length
      if (info.selfClose === true) {
        // `<invoke name="x"/>`: its closer, empty, so the block parser sees a whole invoke and the raw stays the input's
        cap.tokens.push(tokenOf(this.lexer.typeByName.get('InvokeClose')!, '', unplaced))
        cap.lastClose = cap.tokens.length
      }
      if (target !== null) s.mode = target
      // read before an overflow lets the tag's tokens go
      const raw = category === 'TagEnd' && mode === modes.tagParameter ? stringValueKey(this, cap.tokens) : null
      if (cap.overflow || cap.length > this.opts.captureLimit) passOverflow(this, cap)
      if (category === 'WrapperClose') {
        // another block's closer inside a block read whole is its text: only its opener's own closers end it
        const pairs = this.opts.readWhole?.pairs
        if (pairs !== undefined && !cap.overflow && cap.tokens.length > 1 && info.frame === literalFrame && pairs.get(cap.tokens[0]!.image)?.has(tok.image) === false) {
          return this.restartAfter(tok, text, base, startLine, modes.blockBody)
        }
        if (cap.overflow) s.capture = null
        else completeBlock(this, cap)
        return null
      }
      // a bare invoke is a block of its own where the grammar says so (`invokeBlocks`): done at its closer
      if (category === 'InvokeClose' && !cap.wrapper && this.lexer.grammar.invokeBlocks === true) {
        if (cap.overflow) s.capture = null
        else {
          // the wrapper closer it never had, empty: its raw markup stays the input's
          cap.tokens.push(tokenOf(this.lexer.typeByName.get('WrapperClose')!, '', unplaced))
          completeBlock(this, cap)
        }
        // the closer leads between invokes; after a block of its own the text is prose
        return this.restartAfter(tok, text, base, startLine, modes.prose)
      }
      if (raw !== null) s.raw = raw
      // the lexer switched as the tag's tokens say (its whole `string` attribute seen): nothing to do again
      if ((raw !== null) === (target === modes.rawValue) || category !== 'TagEnd' || mode !== modes.tagParameter) return null
      // the tag was cut (a window, or read without the lexer): lexed again from here in the mode its tokens say
      return this.restartAfter(tok, text, base, startLine, raw !== null ? modes.rawValue : modes.value)
    }
    const h = s.hold
    if (h !== null) return this.holds.token(h, tok, info, text, base, startLine, carry0, info.runPart ? this.ctxNow!.carry!.len : null)
    return this.switchMode(target, tok, text, base, startLine)
  }

  /**
   * A token of a block that ends with its JSON (`json-tokens.ts`): the
   * block's handler takes it; once the block is over, the run goes on after
   * it from the mode it left (a mention: from right after the opener).
   */
  private jsonToken(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
    const s = this.s
    s.pos = base + tok.startOffset
    s.lineState = this.lineAt(text, tok.startOffset, startLine)
    if (this.ctxNow !== null) this.ctxNow.carry = null
    const part = info.json!
    if (part === 'mention') return jsonMention(this, text.substring(tok.startOffset))
    const payload = tok.payload as JsonPayload | undefined
    if (!jsonToken(this, part, tok.image, payload?.scan, payload?.why)) return null
    const at = tok.startOffset + tok.image.length
    return { text: text.substring(at), base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: null }
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
   * Lexing goes on after `tok` in `mode`: a restart when `text` goes on
   * past it (its tokens were lexed in the mode `tok` pushes), else the mode
   * the next text starts in.
   */
  private restartAfter(tok: IToken, text: string, base: number, startLine: LineState, mode: ModeName): Restart | null {
    const s = this.s
    const at = tok.startOffset + tok.image.length
    s.mode = mode
    // a backtick run the token ended with means nothing in the new mode: it must not be carried into it
    if (this.ctxNow !== null) this.ctxNow.carry = null
    if (at >= text.length) return null
    return { text: text.substring(at), base: base + at, mode, md: s.md, lineState: this.lineAt(text, at, startLine), carry: null }
  }

  /**
   * A token that cannot continue the capture. A mention (a wrapper with no
   * invoke yet, a bare invoke tag with nothing after it) is released and the
   * token read as prose reads it. A block that broke is released with a
   * diagnostic, and what is left of it is skipped as text up to the closer
   * that balances its opener: no call comes from inside a failed block.
   */
  private interrupted(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
    const s = this.s
    const cap = s.capture!
    const mode = s.mode
    if (!committed(cap)) {
      releaseCapture(this, null, '')
      return this.switchMode(info.push, tok, text, base, startLine)
    }
    releaseCapture(this, cap.overflow ? null : 'malformed-block', 'markup that cannot belong to a block interrupted it')
    const between = mode === modes.wrapperBody || mode === modes.commentWrapper
    // What is skipped, by where the block broke:
    //   a wrapper's block, anywhere            → to its wrapper's balancing closer (its later invokes are text too)
    //   a bare block inside an invoke          → to that invoke's balancing closer
    //   a bare block between invokes, over the limit → to a wrapper closer
    //   a bare block between invokes           → nothing: what follows is read as prose reads it
    // The breaking token never closes anything (a closer inside a value is the value's text); an opener of the
    // block's own family opens one more level. Tags of another family are text.
    if (!cap.wrapper && between && !cap.overflow) return this.switchMode(info.push, tok, text, base, startLine)
    const role = cap.wrapper || between ? 'wrapper' : 'invoke'
    const frame = cap.frame
    const depth = 1 + (this.counts(info, frame) && this.depthChange(role, info.category) > 0 ? 1 : 0)
    this.out.text(tok.image)
    s.skip = { role, depth, frame }
    return this.restartAfter(tok, text, base, startLine, modes.skip)
  }

  /** Whether a tag counts towards a skip of blocks of `frame` ('*': a checkpoint from before skips knew their family). */
  private counts(info: TokenInfo, frame: string): boolean {
    return frame === '*' || info.frame === frame
  }

  /** +1 for an opener of `role`, -1 for its closer, else 0. */
  private depthChange(role: 'wrapper' | 'invoke', category: string): number {
    if (role === 'wrapper') return category === 'WrapperOpen' ? 1 : category === 'WrapperClose' ? -1 : 0
    return category === 'InvokeOpen' ? 1 : category === 'InvokeClose' ? -1 : 0
  }

  /** What is left of a failed block: text, until the closer that balances its opener. */
  private skipped(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
    const s = this.s
    const k = s.skip!
    this.out.slice(text, tok.startOffset, tok.startOffset + tok.image.length)
    if (this.counts(info, k.frame)) k.depth += this.depthChange(k.role, info.category)
    if (k.depth > 0) return null
    s.skip = null
    return this.restartAfter(tok, text, base, startLine, modes.prose)
  }

  /** Outside captures and holds: the token is text unless it opens a capture or a hold. */
  private switchMode(target: ModeName | null, tok: IToken, text: string, base: number, startLine: LineState): null {
    const s = this.s
    const start = base + tok.startOffset
    if (target === modes.jsonBlock) {
      s.capture = jsonCapture(start, tok, this.lexer.infoByIdx[tok.tokenTypeIdx]!.frame ?? '', this.lineAt(text, tok.startOffset + tok.image.length, startLine))
      s.sawSyntax = true
    } else if (target === modes.tagWrapper || target === modes.tagInvoke || target === modes.blockBody) {
      const wrapper = target !== modes.tagInvoke
      const lineState = this.lineAt(text, tok.startOffset + tok.image.length, startLine)
      // a block read whole is a block from its literal opener on: failing, it is a broken block, not a mention
      s.capture = { start, tokens: [tok], length: tok.image.length, invokeSeen: target !== modes.tagWrapper, wrapper, overflow: false, paramSeen: false, lastClose: 0, frame: this.lexer.infoByIdx[tok.tokenTypeIdx]!.frame ?? '', run: null, lineState }
      s.sawSyntax = true
    } else if (target === modes.spanHold || target === modes.fenceInfoHold) {
      s.hold = { start, parts: [tok.image], length: tok.image.length, lineState: this.lineAt(text, tok.startOffset, startLine), givenUp: false }
    } else {
      const cat = this.lexer.infoByIdx[tok.tokenTypeIdx]!.category
      if (cat === 'WrapperClose' || cat === 'InvokeClose') s.sawSyntax = true
      this.out.slice(text, tok.startOffset, tok.startOffset + tok.image.length)
    }
    if (target !== null) s.mode = target
    return null
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

  /**
   * The stream broke off (`Sieve.abort`): everything held goes out as it
   * was held (`abort.ts`), no call is made from it, and the state is left
   * holding nothing, so that a checkpoint taken now resumes in prose.
   */
  abort(): void {
    const s = this.s
    this.atPush.chunk = null
    releaseHeld(this, this.reasoningSink)
    const next = s.calls?.next ?? 0
    Object.assign(s, initialState(), { pos: this.pushed, sawSyntax: s.sawSyntax, reasoning: { phase: 'done', held: '', pos: this.pushed } }, this.anchored === undefined ? {} : { started: true })
    if (this.calls !== null) s.calls = { ...initialCallStream(), next }
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
      const run = p.capture?.run
      // the run may have been folded since (every 4096 parts into a block): then what it held is in its blocks
      const held = run == null ? '' : run.blocks.slice(0, p.runBlocks).join('') + (run.blocks.length === p.runBlocks ? run.parts.slice(0, p.runParts).join('') : '')
      all = [...(p.capture?.tokens.slice(0, p.tokens).map((t) => t.image) ?? []), held, ...(p.hold?.parts.slice(0, p.parts) ?? []), p.pending, p.reasoning, p.chunk].join('')
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
    const next = s.calls?.next ?? 0
    // what follows a recovery is not the message's start: nothing is anchored there
    Object.assign(s, initialState(), { pos: this.pushed, sawSyntax: s.sawSyntax, reasoning: { phase: 'done', held: '', pos: this.pushed } }, this.anchored === undefined ? {} : { started: true })
    if (this.calls !== null) s.calls = { ...initialCallStream(), next }
    this.atPush.chunk = null
  }

}
