/**
 * The fast path's Markdown chunks: inline backtick and tilde runs in prose
 * and code spans, runs in fenced code, and the line feeds that end a fence
 * opener's info string, a closer's line or an indented-code line. Each
 * moves the Markdown state exactly as the lexer's run or line feed token
 * would (`markdown.ts` decides both), as an answer the driver applies;
 * anything else is left to the lexer. What every reader shares (the driver
 * whose state they read, the current mode's table and tail matcher, the
 * answer for a tag's span) comes first.
 *
 * The line state here is computed from the text alone (`lineStateBefore`),
 * while the lexer's cursor can also end an HTML tag or autolink it was
 * following, when a backtick run in it turns out to close a code span
 * (`LineCursor.kill`). The two agree because every path here leaves a
 * backtick inside an open tag or autolink (`candidateLive`) to the lexer.
 */
import { freshMarkdown, heldPrefixStart, lineStartIndent, lineStateBefore, rawIndent, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { MemoContext, TokenMemo } from '../lexer/token-memo.js'
import type { DriverOptions, DriverState } from './state.js'
import { advanceUnlessCode, applyMark, quiet } from '../lexer/lines.js'
import { lineMarkAt } from '../lexer/tokens-markdown.js'
import { candidateLive, commentLive } from '../lexer/inline-html.js'
import { blockOpenerAt, commentLevel, mayBeCodeTag, mayOpenBlock } from '../lexer/html.js'
import { codeAt, codes } from '../lexer/codes.js'
import { decideLineFeed, decideRun } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import { fastPathTables, type ModeFastPath, type FastPathTables } from './fast-path-tables.js'
import { CharSet } from './char-set.js'
import { blankAnswer, heldAfter, lexedSpan, plainThen, tokensAt, type Answer } from './answer.js'

const lineEnding = new CharSet([codes.lineFeed, codes.carriageReturn])

/** Text after a tag past which a lexer run may take it with the tag (`spanned`). */
const longRest = 256

/**
 * Tags of one block the token memo did not know, after which a lexer run
 * takes a long rest of the chunk with the next tag (`spanned`). A block
 * whose tags recur (the same parameter names, the same spellings) is read
 * faster tag by tag from the memo than by the lexer; one whose every tag is
 * new (thousands of distinct parameter names) is read faster by the lexer.
 */
const unknownTags = 8

/**
 * What the fast path read of the driver: its state, never written here
 * (the driver applies their answers), and where the pending tail stands.
 */
export interface FastPathHost {
  readonly s: Readonly<DriverState>
  readonly lexer: CompiledLexer
  readonly opts: DriverOptions
  readonly guard: GuardSettings
  /** Where `pending` stands in the delimiters it may become (see `lexer/tail.ts`); null: the lexer decides. */
  readonly tail: TailState | null
  /** Chevrotain's tokens of short texts, remembered (`lexer/token-memo.ts`). */
  readonly memo: TokenMemo
  /** The key a raw value's closer must spell for a run starting now (`LexContext.rawOpener`). */
  rawOpener(): string
}

export abstract class MarkdownFastPath {
  protected readonly fast: Partial<Record<ModeName, ModeFastPath>>
  /** The mode the lookups below were made for: the mode mostly stays from one chunk to the next, and a keyed lookup per chunk showed in profiles. */
  private laneMode: ModeName | null = null
  private laneFp: ModeFastPath | undefined = undefined
  private laneMatcher: TailMatcher | undefined = undefined
  protected readonly tables: FastPathTables
  /** The answer every reading fills and returns: the driver applies it before it asks again. */
  protected readonly a: Answer = blankAnswer()

  /**
   * The block whose tags `spanned` counts, by its start in the stream (a
   * number: the block's object, tokens and all, would stay alive after it
   * ended), and how many of them the memo did not know. Who reads a tag,
   * never what it reads: a checkpoint leaves it out, and a resumed sieve
   * counts afresh.
   */
  private unknownIn = -1
  private unknown = 0

  /** The context a span's run would start in, filled per span. */
  private readonly memoContext: MemoContext = { md: freshMarkdown(), lineState: 0, rawOpener: '' }

  constructor(protected readonly d: FastPathHost) {
    this.tables = fastPathTables(d.lexer)
    this.fast = this.tables.modes
  }

  /**
   * After `plain` characters of text, a tag's span (the `span` characters
   * of `text` from `plain` on), to read in `mode` with Markdown state `md`
   * and line state `line`: the tokens a lexer run made of it before in the
   * same context, or a lexer run over it.
   */
  protected spanned(text: string, plain: number, span: number, mode: ModeName, md: MarkdownState, line: LineState): Answer {
    const s = this.d.s
    // inside a block whose tags the memo mostly did not know, a long text after the tag: the lexer takes it all
    if (s.capture !== null && text.length - plain - span > longRest && this.unknownIn === s.capture.start && this.unknown >= unknownTags) return plainThen(this.a, plain, 'lexer')
    // as the run would start: nothing carried, no hold barrier in it (`LexContext.noHoldBefore`)
    if (s.carry === null && s.noHoldUntil <= s.pos + plain) {
      const c = this.memoContext
      c.md = md
      c.lineState = line
      c.rawOpener = this.d.rawOpener()
      const tokens = this.d.memo.recall(text.slice(plain, plain + span), mode, c)
      if (tokens !== null) return tokensAt(this.a, plain, tokens, span)
    }
    if (s.capture !== null) {
      if (this.unknownIn !== s.capture.start) {
        this.unknownIn = s.capture.start
        this.unknown = 0
      }
      this.unknown++
    }
    return lexedSpan(this.a, plain, span)
  }

  /** The current mode's fast path. */
  protected fastPath(): ModeFastPath | undefined {
    if (this.d.s.mode !== this.laneMode) this.switchTo(this.d.s.mode)
    return this.laneFp
  }

  /** The current mode's tail matcher. */
  protected matcher(): TailMatcher | undefined {
    if (this.d.s.mode !== this.laneMode) this.switchTo(this.d.s.mode)
    return this.laneMatcher
  }

  private switchTo(mode: ModeName): void {
    this.laneMode = mode
    this.laneFp = this.fast[mode]
    this.laneMatcher = this.d.lexer.tails.get(mode)
  }

  /** The state of the tail `plainUpTo` found at the chunk's end, for `chunk` to hold. */
  protected heldTail: TailState | null = null
  /** The run `fenceRuns` found cut by the chunk end at a line start, for `chunk` to carry. */
  protected heldCarry: RunCarry | null = null
  /** `plainUpTo` stopped at a delimiter the chunk completes, for `chunk` to lex over its span. */
  protected spanAt = false

  /**
   * Prose or a pending code span whose only specials are backtick or tilde
   * runs (and tag starts that start nothing): all of it is text, and each
   * run moves the Markdown state exactly as the lexer's run token would
   * (`decideRun`: `` `x` `` opens and closes a span); a run the chunk end
   * cuts is carried, as the lexer carries it; a tag the chunk completes is
   * read from where it starts, as the lexer would read it there (a block's
   * opening tag, a mention, else a lexer run from it). A fence opener ends
   * the inline text; the info string after it is a chunk of its own.
   * Anything else (a line feed inside a span) is left to the lexer, before
   * anything is changed.
   */
  protected inlineRuns(chunk: string): Answer | null {
    const s = this.d.s
    if (s.capture !== null || s.hold !== null || (s.mode !== modes.prose && s.mode !== modes.span)) return null
    const matcher = this.matcher()
    if (matcher === undefined) return null
    let mode: ModeName = s.mode
    let md: MarkdownState = s.md
    let carry: RunCarry | null = null
    let line = s.lineState
    let lineAt = 0
    let cut = chunk.length
    let tail: TailState | null = null
    let whole = false
    const stops = this.tables.inlineStops
    for (let i = 0, n = chunk.length; i < n; i++) {
      // jump to the next character that matters (a stop right here, as in `<<<<`, needs no search)
      const from = i
      if (!stops.has(codeAt(chunk, i))) {
        const next = stops.find(chunk, i)
        i = next < 0 ? chunk.length : next
      }
      if (i - from > 32) {
        // a long stretch with nothing in it that moves a line state that is quiet (mid-line, nothing pending): read up
        // to it, and past it at once if the state is quiet there; short ones are read with the rest, below
        line = advanceUnlessCode(line, chunk, lineAt, from)
        if (line < 0) return null
        lineAt = quiet(line) ? i : from
      }
      if (i === chunk.length) break
      const c = codeAt(chunk, i)
      if (c === codes.graveAccent || c === codes.tilde) {
        // a backtick inside a raw HTML tag or autolink waits for it to end: the lexer holds it
        line = advanceUnlessCode(line, chunk, lineAt, i)
        if (line < 0) return null
        lineAt = i
        if (c === codes.graveAccent && candidateLive(line)) return null
        let end = i + 1
        while (end < n && codeAt(chunk, end) === c) end++
        if (end === chunk.length) {
          // its length is not known yet: carried, as the lexer's runPart token carries it, and decided by the next chunk
          carry = { ch: c, len: end - i, indent: lineStartIndent(chunk, i, s.lineState, line), mode }
          break
        }
        // at a line start the run is read as the lexer's run token reads it there; a fence opener ends the inline
        // text: the info string after it is read in its own mode
        const d = decideRun(mode === modes.prose ? 'prose' : 'span', md, c, end - i, lineStartIndent(chunk, i, s.lineState, line), this.d.guard)
        if (d.target !== null && d.target !== modes.prose && d.target !== modes.span && d.target !== modes.fenceInfo) return null
        if (d.target !== null) mode = d.target
        if (d.md !== null) md = d.md
        i = end - 1
        if (mode === modes.fenceInfo) {
          cut = end
          break
        }
      } else if (c === codes.lineFeed || c === codes.carriageReturn) {
        if (mode === modes.span) return null
      } else if (this.tables.tagStarts.has(c) && !matcher.startsNothingAt(chunk, i)) {
        // a tag start the chunk end leaves undecided (`` `<｜DS ``): held, as the lexer's Incomplete token of the
        // mode reached there holds it
        tail = this.d.lexer.tails.get(mode)?.start(chunk.slice(i)) ?? null
        // one the chunk decides (`` `<｜DSML｜invoke>` ``) is read from the mode reached there, after the text before it
        whole = tail === null
        cut = i
        break
      }
    }
    // the line state only up to the cut: the rest is a chunk of its own, and a turn pushed whole may be cut many times
    const endLine = advanceUnlessCode(line, chunk, lineAt, cut)
    if (endLine < 0) return null
    if (cut === chunk.length && heldPrefixStart(chunk, s.lineState, this.fastPath()!.quotes === true) >= 0) return null
    if (this.htmlAhead(chunk, s.lineState, cut)) return null
    const a = whole ? this.tagAfter(chunk, cut, mode, md, endLine) : tail !== null ? heldAfter(this.a, cut, tail) : plainThen(this.a, cut, 'more')
    a.mode = mode
    a.md = md
    a.carry = carry
    a.line = endLine
    return a
  }

  /**
   * After `plain` characters of text, a tag `chunk` completes, in `mode`
   * (Markdown state `md`, line state `line`): read over its span
   * (`tag-spans.ts`; `spanned`), or a lexer run over all the rest. A tag
   * inside an inline comment is held until the comment decides: the lexer's.
   */
  private tagAfter(chunk: string, plain: number, mode: ModeName, md: MarkdownState, line: LineState): Answer {
    const span = commentLive(line) ? -1 : this.tables.spans.span(mode, chunk.slice(plain))
    return span < 0 ? plainThen(this.a, plain, 'lexer') : this.spanned(chunk, plain, span, mode, md, line)
  }

  /**
   * Raw HTML the lexer must read in `text` (prose, a pending span or a hold,
   * from the line state `line`): a `<` that may begin `<code>` or `</code>`
   * (they open and close a level), or an HTML block at a line start; in a
   * hold on a `<code>` or comment level, a `-` (`-->` may end it). The
   * fast path read none of these (`tokens-html.ts` decides them). Only a `<`
   * up to `upTo` counts: an answer reads the text up to there, and what
   * follows is asked about again as a chunk of its own (a turn pushed whole
   * scanned all its rest once per answer).
   */
  protected htmlAhead(text: string, line: LineState, upTo = text.length): boolean {
    const s = this.d.s
    const mode = s.mode
    if (s.capture !== null || (mode !== modes.prose && mode !== modes.span && mode !== modes.spanHold)) return false
    if (mode === modes.spanHold && s.md.levels.includes(commentLevel) && text.indexOf('-') >= 0) return true
    for (let i = text.indexOf('<'); i >= 0 && i <= upTo; i = text.indexOf('<', i + 1)) {
      // of a run of `<` only the last can begin anything (`<<<code>`): one `<` followed by another is no tag
      while (i < upTo && codeAt(text, i + 1) === codes.lessThan) i++
      // in prose or a span, a `<` that ends the text is held as a tag's prefix (the tail matcher's): the next chunk is
      // read with it (`extendTail` asks again)
      if (i === text.length - 1 && mode !== modes.spanHold && this.matcher()?.start('<') != null) break
      if (this.d.guard.codeSpans && mayBeCodeTag(text, i)) return true
      if (!this.d.guard.fences || !mayOpenBlock(codeAt(text, i + 1))) continue
      if (lineStartIndent(text, i, line) >= 0 && blockOpenerAt(text, i, false) !== null) return true
    }
    return false
  }

  /**
   * A tag held after an unmatched backtick (`spanHold`), and a run in this
   * chunk that closes a level open at the tag (`` `<｜DSML｜invoke>` `` +
   * "`."): the tag sat in a code span, so the hold and the chunk through
   * the run go out as text, as the lexer's run token releases them
   * (`decideRun`), and the rest is a chunk of its own; a run the chunk end
   * cuts joins the hold, carried, and the next lexer run decides it. Anything else
   * (a line feed, a run that keeps holding, a fence opener, a run inside an
   * open HTML tag, a hold near the limit) is the lexer's.
   */
  protected releaseHold(chunk: string): Answer | null {
    const s = this.d.s
    const h = s.hold
    if (s.mode !== modes.spanHold || h === null || h.givenUp || s.capture !== null) return null
    for (let i = 0, n = chunk.length; i < n; i++) {
      const c = codeAt(chunk, i)
      if (c === codes.lineFeed || c === codes.carriageReturn) return null
      if (c !== codes.graveAccent && c !== codes.tilde) continue
      let end = i + 1
      while (end < n && codeAt(chunk, end) === c) end++
      // the text before the run joins the hold first: past the limit the lexer gives the hold up there
      if (h.length + i > this.d.opts.captureLimit) return null
      const line = lineStateBefore(chunk, i, s.lineState)
      if (c === codes.graveAccent && candidateLive(line)) return null
      if (end === chunk.length) {
        // its length is not known yet: all of the chunk joins the hold, the run carried as the lexer's runPart token carries it
        if (end - i > this.d.opts.captureLimit || this.htmlAhead(chunk, s.lineState)) return null
        const held = plainThen(this.a, end, 'more')
        held.carry = { ch: c, len: end - i, indent: lineStartIndent(chunk, i, s.lineState, line), mode: modes.spanHold }
        return held
      }
      const d = decideRun('spanHold', s.md, c, end - i, lineStartIndent(chunk, i, s.lineState, line), this.d.guard)
      if ((d.target !== modes.prose && d.target !== modes.span) || d.md === null || this.htmlAhead(chunk, s.lineState, end)) return null
      const a = plainThen(this.a, end, 'more')
      a.release = true
      a.mode = d.target
      a.md = d.md
      return a
    }
    return null
  }

  /**
   * A fence opener's info string (outside quotes and list items), the
   * spaces after a closer, or a line of indented code, ending in this chunk
   * with nothing special before its line feed: the line is text, the line
   * feed moves to the mode `decideLineFeed` gives (the fence, prose), and the
   * rest is a chunk of its own. Else the lexer, before anything is changed.
   */
  protected lineEnds(chunk: string, fp: ModeFastPath | null): Answer | null {
    const s = this.d.s
    const mode = s.mode
    if (s.capture !== null || s.hold !== null) return null
    if (mode === modes.fenceInfo ? s.md.fenceDepth > 0 || s.md.fenceIndent > 0 : mode !== modes.fenceClose && mode !== modes.indented) return null
    // the line's ending: a CR or an LF (an LF after the CR goes with the next line, as the lexer's token leaves it)
    const lf = lineEnding.find(chunk)
    if (lf < 0) return null
    for (let i = 0; i < lf; i++) {
      const c = codeAt(chunk, i)
      // after a closer only spaces may follow (anything else makes the run content), in an info string no tag or run
      if (fp === null ? c !== codes.space && c !== codes.tab : fp.special.has(c)) return null
    }
    const d = decideLineFeed(mode, false, s.md)
    const a = plainThen(this.a, lf + 1, 'more')
    a.mode = d.target
    a.md = d.md
    // a fence's body begins or ends with this line feed, as the lexer's line feed token marks it
    const m = lineMarkAt(mode, d.target)
    if (m !== null) a.line = applyMark(lineStateBefore(chunk, lf + 1, s.lineState), m)
    return a
  }

  /**
   * Inside a fence a backtick or tilde run matters only at line start, and
   * only as the fence's own run or longer (a closer); runs elsewhere are
   * content (code with backticks, `~/` paths, a `` ` `` opening a line of a
   * ```` fence). Each run is read as the lexer's run token reads it
   * (`decideRun`). Returns the chunk's length when every run is content (a
   * line-start run the chunk end cuts is carried, in `heldCarry`, as the
   * lexer's runPart token carries it, to be decided by the next chunk); the
   * end of a run that closes the fence; or -1: the lexer decides.
   */
  protected fenceRuns(chunk: string): number {
    const s = this.d.s
    const at = s.lineState
    for (let i = 0, n = chunk.length; i < n; i++) {
      const c = codeAt(chunk, i)
      if (c !== codes.graveAccent && c !== codes.tilde) continue
      const indent = s.md.fenceIndent > 0 ? rawIndent(chunk, i, at) : lineStartIndent(chunk, i, at)
      let end = i + 1
      while (end < n && codeAt(chunk, end) === c) end++
      if (indent >= 0 && end === chunk.length) this.heldCarry = { ch: c, len: end - i, indent, mode: modes.fence }
      else {
        // mid-line a run is content, even one the chunk cuts (a closer needs line start)
        const d = decideRun('fence', s.md, c, end - i, indent, this.d.guard)
        if (d.target === modes.fenceClose && d.md === null) return end
        if (d.target !== null) return -1
      }
      i = end - 1
    }
    return chunk.length
  }

  /**
   * Fence content and the closer `fenceRuns` found ending at `end`
   * (`}\n` + "```\n"): they go out as text, and the closer's line follows
   * (`fenceClose`), as the lexer's run token leaves it; the rest is a chunk
   * of its own.
   */
  protected closeFence(chunk: string, end: number): Answer | null {
    const s = this.d.s
    if (s.capture !== null || s.hold !== null) return null
    const a = plainThen(this.a, end, 'more')
    a.mode = modes.fenceClose
    return a
  }
}
