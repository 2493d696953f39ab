/**
 * What every fast-path reader shares (docs/DESIGN.md, "The sieve's shape"): the
 * driver whose state they read, the current mode's fast-path table and tail
 * matcher (looked up once per mode change), what a chunk's reading found
 * for `chunk` to hold or carry, and the answer for a tag's span. `fast-path.ts` builds on it.
 */
import { freshMarkdown, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { ModeName } from '../lexer/modes.js'
import { blankAnswer, lexedSpan, plainThen, tokensAt, type Answer } from './answer.js'
import type { MemoContext, TokenMemo } from '../lexer/token-memo.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import { fastPathTables, type ModeFastPath, type FastPathTables } from './fast-path-tables.js'
import type { DriverOptions, DriverState } from './state.js'

/** Text after a tag past which a lexer run takes it with the tag (`spanned`). */
const longRest = 256

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

export abstract class FastPathBase {
  protected readonly fast: Partial<Record<ModeName, ModeFastPath>>
  /** The mode the lookups below were made for: the mode mostly stays from one chunk to the next, and a keyed lookup per chunk showed in profiles. */
  private laneMode: ModeName | null = null
  private laneFp: ModeFastPath | undefined = undefined
  private laneMatcher: TailMatcher | undefined = undefined
  protected readonly tables: FastPathTables
  /** The answer every reading fills and returns: the driver applies it before it asks again. */
  protected readonly a: Answer = blankAnswer()

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
    // inside a block, a long text after the tag: the lexer takes it all, faster than the fast path reads it tag by tag
    if (s.capture !== null && text.length - plain - span > longRest) return plainThen(this.a, plain, 'lexer')
    // as the run would start: nothing carried, no hold barrier in it (`LexContext.noHoldBefore`)
    if (s.carry === null && s.noHoldUntil <= s.pos + plain) {
      const c = this.memoContext
      c.md = md
      c.lineState = line
      c.rawOpener = this.d.rawOpener()
      const tokens = this.d.memo.recall(text.slice(plain, plain + span), mode, c)
      if (tokens !== null) return tokensAt(this.a, plain, tokens, span)
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

  /** How `chunk` (nothing pending) reads without the lexer when nothing in it can matter in the current mode; null: the lexer. */
  abstract chunk(chunk: string): Answer | null
}
