/**
 * The streaming driver: hands each chunk to the fast lane, the deferral or
 * the lexer runs (`windows.ts`), walks the tokens they produce once, and
 * decides what leaves as text, what is held, and what is captured and parsed.
 */
import type { IToken } from 'chevrotain'
import { tokenOf } from '../lexer/token-instance.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { freshMarkdown, lineStateBefore, type LexContext, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import type { GuardSettings } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { DiagnosticCode, SieveStats } from '../types.js'
import { captureLimit, completeBlock, releaseCapture, type DriverCore } from './capture.js'
import { continuesCapture } from './capture-rules.js'
import { Emitter } from './emitter.js'
import { Deferral } from './defer.js'
import { FastLane } from './fast-lane.js'
import { laneTables } from './fast-path.js'
import { Holds } from './holds.js'
import type { TagReader } from './tag-tokens.js'
import { flushRun, initialState, type DriverOptions, type DriverState, type Restart } from './state.js'
import { LexerRuns, type RunHost } from './windows.js'

export class Driver implements DriverCore, RunHost {
  readonly out = new Emitter()
  readonly stats: SieveStats = { charsLexed: 0, tokens: 0, blocksParsed: 0, lexerRuns: 0, maxHeldTail: 0 }
  readonly guard: GuardSettings
  /** See {@link RunHost.ctxNow}. */
  ctxNow: LexContext | null = null
  readonly lane: FastLane
  readonly deferral: Deferral
  readonly holds: Holds
  private readonly tagReader: TagReader
  private readonly runs: LexerRuns

  constructor(readonly lexer: CompiledLexer, readonly opts: DriverOptions, public s: DriverState) {
    const md = lexer.grammar.markdown
    this.guard = { fences: md?.fences !== false, codeSpans: md?.codeSpans !== false }
    this.lane = new FastLane(this)
    const tables = laneTables(lexer)
    this.deferral = new Deferral(tables)
    this.tagReader = tables.tagReader
    this.holds = new Holds(this)
    this.runs = new LexerRuns(this, opts.windowSize)
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
   * tail and the new chunk): handled exactly as a lexer run
   * (`LexerRuns.run`) handles a lexed token, then the rest of `text` goes on
   * by the fast lane or the lexer.
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
      if (r !== null) return this.runs.run(r, false)
    }
    s.pos = base + end
    s.lineState = lineStateBefore(text, end, startLine)
    this.lane.rest(text, end)
  }

  /** Lex the pending tail and `chunk`, in windows (`windows.ts`). */
  lexChunk(chunk: string): true {
    return this.runs.lexChunk(chunk)
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
    if (s.pending !== '' || s.carry !== null) this.runs.lexWindow(s.pending, true)
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
    if (s.capture !== null) releaseCapture(this, s.capture.wrapper ? 'unterminated-block' : null, 'the stream ended inside the block')
  }

  /** See {@link RunHost.token}. */
  token(tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null {
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
