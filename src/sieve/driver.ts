/**
 * The streaming driver: feeds windows of text to the lexer from the saved
 * mode and context, walks the tokens once, and decides what leaves as text,
 * what is held, and what is captured and parsed.
 */
import type { IToken } from 'chevrotain'
import { tokenOf } from '../lexer/token-instance.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { freshMarkdown, lineStateBefore, type LexContext, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import { decideCarried, type GuardSettings } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { HeldCandidate, LineCursor } from '../lexer/line-cursor.js'
import type { TokenInfo } from '../lexer/tokens.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { captureLimit, completeBlock, releaseCapture, type DriverCore } from './capture.js'
import { continuesCapture } from './capture-rules.js'
import { Emitter } from './emitter.js'
import { Deferral } from './defer.js'
import { FastLane } from './fast-lane.js'
import { laneTables } from './fast-path.js'
import { Holds } from './holds.js'
import type { TagReader } from './tag-tokens.js'
import { flushRun, initialState, windowSize, type DriverOptions, type DriverState, type Restart } from './state.js'

/** The first window after a restart (see `run`). */
const restartWindow = 64

export class Driver implements DriverCore {
  readonly out = new Emitter()
  readonly stats: SieveStats = { charsLexed: 0, tokens: 0, blocksParsed: 0, lexerRuns: 0, maxHeldTail: 0 }
  readonly guard: GuardSettings
  /** The context of the lexer run whose tokens are being handled (its carry is the last run part's). */
  private ctxNow: LexContext | null = null
  private readonly lane: FastLane
  private readonly deferral: Deferral
  private readonly tagReader: TagReader
  private readonly holds: Holds

  /** {@link DriverOptions.windowSize}. */
  private readonly window: number

  constructor(readonly lexer: CompiledLexer, readonly opts: DriverOptions, public s: DriverState) {
    this.window = opts.windowSize ?? windowSize
    const md = lexer.grammar.markdown
    this.guard = { fences: md?.fences !== false, codeSpans: md?.codeSpans !== false }
    this.lane = new FastLane(this)
    const tables = laneTables(lexer)
    this.deferral = new Deferral(tables)
    this.tagReader = tables.tagReader
    this.holds = new Holds(this)
  }

  push(chunk: string): void {
    const s = this.s
    if (chunk.length === 0) return
    if (s.capture !== null && s.carry === null && this.defer(chunk)) return
    if (s.carry !== null) {
      const k = this.lane.settleRun(chunk)
      // the run is decided (or still carried, the chunk all of it): what follows it is a chunk of its own
      if (k >= 0) {
        this.lane.rest(chunk, k)
        return
      }
    }
    if (s.carry === null && (s.pending === '' ? this.lane.take(chunk) : this.lane.extendTail(chunk) || this.lane.extendCandidate(chunk) || this.lane.afterIndent(chunk))) return
    this.lexChunk(chunk)
  }

  passText(text: string, end: number): void {
    const s = this.s
    this.out.text(end === text.length ? text : text.slice(0, end))
    s.lineState = lineStateBefore(text, end, s.lineState)
    s.pos += end
  }

  /**
   * A delimiter the fast lane identified at the start of `text` (the pending
   * tail and the new chunk): handled exactly as `run` handles a lexed token,
   * then the rest of `text` goes on by the fast lane or the lexer.
   */
  takeToken(tok: IToken, text: string): void {
    this.takeTokens([tok], text, tok.image.length)
  }

  readTag(text: string): boolean {
    const read = this.s.mode === modes.cdata ? this.tagReader.cdataEnd(text) : this.tagReader.read(this.s.mode, text)
    if (read === null) return false
    this.takeTokens(read.tokens, text, read.end)
    return true
  }

  /** Tokens read off the start of `text` without the lexer, up to `end`: handled as `takeToken` handles one. */
  private takeTokens(tokens: IToken[], text: string, end: number): void {
    const s = this.s
    const base = s.pos
    const startLine = s.lineState
    s.pending = ''
    this.deferral.reset()
    this.lane.tail = null
    this.lane.candidate = null
    // not from a lexer run: line states come from the text alone
    this.ctxNow = null
    for (const tok of tokens) {
      // a tag held after an unmatched backtick carries the levels open at it, as the lexer's token does
      if (tok.payload !== undefined) s.md = tok.payload as MarkdownState
      const r = this.token(tok, this.lexer.infoByIdx[tok.tokenTypeIdx]!, text, base, startLine, null)
      // a restart covers the rest of `text`
      if (r !== null) return this.run(r, false)
    }
    s.pos = base + end
    s.lineState = lineStateBefore(text, end, startLine)
    this.lane.rest(text, end)
  }

  /** Lex the pending tail and `chunk`, in windows. */
  lexChunk(chunk: string): true {
    const s = this.s
    const size = this.window
    for (let i = 0; i < chunk.length; i += size) {
      const piece = chunk.length <= size ? chunk : chunk.slice(i, i + size)
      this.lexWindow(s.pending + piece, false)
    }
    this.lane.tail = s.pending === '' ? null : this.lexer.tails.get(s.mode)?.start(s.pending) ?? null
    return true
  }

  /** Inside a tag's attributes: a chunk that cannot end or break the tag waits for one that can (see `defer.ts`). */
  private defer(chunk: string): boolean {
    const s = this.s
    if (s.capture!.length + s.pending.length + chunk.length > this.opts.captureLimit) return false
    const next = this.deferral.take(s.mode, s.pending, chunk)
    if (next === null) {
      // the deferred tag can wait no longer: in its common shape it is read without the lexer
      return this.deferral.owns(s.pending) && this.readTag(s.pending + chunk)
    }
    s.pending = next
    this.lane.tail = null
    return true
  }

  deferTag(tagMode: ModeName, text: string, nameEnd: number): boolean {
    const s = this.s
    if (s.capture!.length + text.length > this.opts.captureLimit) return false
    const next = this.deferral.opener(s.mode, tagMode, text, nameEnd)
    if (next === null) return false
    s.pending = next
    this.lane.tail = null
    return true
  }

  end(): void {
    const s = this.s
    if (s.capture !== null) flushRun(s.capture)
    if (s.capture !== null && s.pending !== '' && this.lexer.tails.get(s.mode)?.matchesAtEnd(s.pending) !== true) {
      // the stream ended inside the block, mid-delimiter (`…</tool_ca`): that tail is part of the unterminated block
      s.capture.tokens.push(tokenOf(this.lexer.typeByName.get('Incomplete')!, s.pending, NaN))
      s.capture.length += s.pending.length
      s.pending = ''
      s.carry = null
    }
    // a tail that is a whole delimiter now the stream is over (`</|DSML|tool_calls|` could have grown to `||`) is lexed as one
    if (s.pending !== '' || s.carry !== null) this.lexWindow(s.pending, true)
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
      this.run({ text: held, base: h.start, mode: modes.prose, md: freshMarkdown(), lineState: h.lineState, carry: null, noHoldBefore: this.holds.noHoldBefore(h.start + held.length, held.length) }, true)
    }
    if (s.capture !== null) releaseCapture(this, s.capture.wrapper ? 'unterminated-block' : null, 'the stream ended inside the block')
  }

  /** Lex `text`, which starts at stream offset `pos` (pending included). */
  private lexWindow(text: string, final: boolean): void {
    const s = this.s
    const r = this.boundary(text, final)
    if (r !== null) return this.run(r, final)
    // nothing left to lex (the stream ended right after a run): the decision above was all there was
    if (text === '' && s.carry === null) return
    this.run({ text, base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: s.carry }, final)
  }

  /**
   * The boundary before `text`, a chunk's or a window's alike: the pending tail is part of `text` now, and a run
   * carried over that ended right at the boundary is decided before lexing on. Returns the restart a hold makes
   * of that run, if any.
   */
  private boundary(text: string, final: boolean): Restart | null {
    const s = this.s
    s.pending = ''
    this.lane.candidate = null
    this.deferral.reset()
    if (s.carry === null || (!final && text.charCodeAt(0) === s.carry.ch)) return null
    const c = s.carry
    s.carry = null
    const d = decideCarried(c, c.mode as ModeName, s.md, this.guard)
    if (d.target === modes.halt && s.hold !== null && s.hold.givenUp) {
      // the run that ended the paragraph already went out as text: decide it again where the re-lex would
      const after = this.holds.afterHalt(s.mode)
      s.hold = null
      const again = decideCarried(c, after.mode, after.md, this.guard)
      s.mode = again.target ?? after.mode
      s.md = again.md ?? after.md
      return null
    }
    if (d.md !== null) s.md = d.md
    const h = s.hold
    // the run went into the hold piece by piece; now that it ended, the hold takes it as a whole run token
    const r = h === null ? null : this.holds.runEnded(h, d.target, text)
    if (r === null && d.target !== null) s.mode = d.target
    return r
  }

  private run(first: Restart, final: boolean): void {
    const s = this.s
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
      s.mode = r.mode
      s.md = r.md
      const carry0 = r.carry
      // a literal, not a spread: object spread costs microseconds per call on Node 20 and this runs per chunk
      const md = r.md
      const noHold: number = r.noHoldBefore ?? -1
      const ctx: LexContext = { levels: md.levels.slice(), holdDepth: md.holdDepth, fenceCh: md.fenceCh, fenceLen: md.fenceLen, fenceDepth: md.fenceDepth, fenceIndent: md.fenceIndent, final: last, lineState: r.lineState, lines: new LineCursor(r.lineState), carry: carry0, noHoldBefore: noHold, startAt: r.startAt ?? -1 }
      const tokens = this.lexer.tokenize(text, r.mode, ctx)
      this.ctxNow = ctx
      this.stats.lexerRuns++
      this.stats.charsLexed += text.length
      this.stats.tokens += tokens.length
      const startLine = r.lineState
      r = null
      let consumed = text.length
      for (const tok of tokens) {
        const info = this.lexer.infoByIdx[tok.tokenTypeIdx]!
        if (info.category === 'Incomplete') {
          consumed = tok.startOffset
          s.pending = tok.image
          if (info.candidateHold === true) this.lane.candidate = HeldCandidate.over(ctx.lines.stateAt(text, consumed), tok.image)
          break
        }
        if (tok.payload !== undefined) s.md = tok.payload as MarkdownState
        r = this.token(tok, info, text, base, startLine, carry0)
        if (r !== null) break
      }
      if (r !== null) {
        // the restart covers the rest of this window; the text past it follows
        if (later !== null) after.push(later)
        grow = Math.min(restartWindow, this.window)
        continue
      }
      s.carry = ctx.carry
      s.pos = base + consumed
      s.lineState = ctx.lines.stateAt(text, consumed)
      if (later === null && after.length > 0) later = after.pop()!
      if (later !== null) {
        const next: string = s.pending + later
        const shift: number = text.length - s.pending.length
        // a window's end is a boundary like a chunk's: a run it cut that ends right there is decided first
        r = this.boundary(next, false)
        if (r !== null) {
          grow = Math.min(restartWindow, this.window)
          continue
        }
        grow = Math.min(2 * grow, this.window)
        r = { text: next, base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: s.carry, noHoldBefore: noHold > shift ? noHold - shift : -1 }
        held = next.length - later.length
        continue
      }
      this.lane.noteHeldTail()
    }
  }

  /** Handle one token; returns where to restart lexing if the rest of this text was lexed under a wrong assumption. */
  private token(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null {
    const s = this.s
    const target = info.push
    const cap = s.capture
    if (cap !== null) {
      flushRun(cap)
      if (continuesCapture(s.mode, info.category)) {
        cap.tokens.push(tok)
        cap.length += tok.image.length
        if (info.category === 'InvokeOpen') cap.invokeSeen = true
        if (target !== null) s.mode = target
        if (cap.length > this.opts.captureLimit) return captureLimit(this, cap, text, tok)
        if (info.category === 'WrapperClose') completeBlock(this, cap)
        return null
      }
      releaseCapture(this, cap.wrapper && cap.invokeSeen ? 'malformed-block' : null, 'markup that cannot belong to a block interrupted it')
    }
    const h = s.hold
    if (h !== null) return this.holds.token(h, tok, info, text, base, startLine, carry0, info.runPart ? this.ctxNow!.carry!.len : null)
    return this.switchMode(target, tok, text, base, startLine)
  }

  /** Outside captures and holds: the token is text unless it opens a capture or a hold. */
  private switchMode(target: ModeName | null, tok: IToken, text: string, base: number, startLine: LineState): null {
    const s = this.s
    const start = base + tok.startOffset
    if (target === modes.tagWrapper || target === modes.tagInvoke) {
      const wrapper = target === modes.tagWrapper
      const r = s.rescans
      while (r.length > 0 && r[r.length - 1]!.end <= start) r.pop()
      const depth = r.length === 0 ? 0 : r[r.length - 1]!.depth + 1
      const lineState = this.lineAt(text, tok.startOffset + tok.image.length, startLine)
      s.capture = { start, tokens: [tok], length: tok.image.length, invokeSeen: !wrapper, wrapper, depth, run: null, lineState }
      s.sawSyntax = true
    } else if (target === modes.spanHold || target === modes.fenceInfoHold) {
      s.hold = { start, parts: [tok.image], length: tok.image.length, lineState: this.lineAt(text, tok.startOffset, startLine), givenUp: false }
    } else {
      const cat = this.lexer.infoByIdx[tok.tokenTypeIdx]!.category
      if (cat === 'WrapperClose' || cat === 'InvokeClose') s.sawSyntax = true
      this.out.text(tok.image)
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
   * Last resort after an internal error: release everything held as text and
   * start over in prose, so the caller's stream keeps flowing.
   */
  recover(e: unknown): void {
    const s = this.s
    if (s.capture !== null) flushRun(s.capture)
    const held = [...(s.capture?.tokens.map((t) => t.image) ?? []), ...(s.hold?.parts ?? []), s.pending]
    const start = s.capture?.start ?? s.hold?.start ?? s.pos
    this.out.text(held.join(''))
    this.diagnostic('internal-error', `toolsieve hit an internal error and released its held text: ${String((e as Error)?.message ?? e)}`, start, start + held.join('').length)
    Object.assign(s, initialState(), { pos: start + held.join('').length, sawSyntax: s.sawSyntax })
  }

}
