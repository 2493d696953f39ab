/**
 * Chevrotain's tokens for a short text, remembered (docs/DESIGN.md, "The
 * sieve's shape"). The fast path hands the lexer each tag a chunk
 * completes as a text of its own, and the same few tags recur in every
 * block (`</parameter>`, `<invoke name="read_file">`): lexing one costs a
 * microsecond or two of Chevrotain's set-up, more than the rest of a
 * token-sized chunk's reading. A lexer run is a function of its text, its
 * mode and its context, so its tokens are kept by all three, for runs whose
 * context nothing but the tokens changes: no run carried out, no held tail,
 * no mark on the line cursor. A token's Markdown state (its payload) is a
 * value: every reader makes a new one rather than change it (`markdown.ts`),
 * and the memo freezes the ones it keeps, so the tokens can be shared. The
 * memo changes how often the lexer runs (`stats()`), never what is read.
 */
import type { IToken } from 'chevrotain'
import { copyMarkdown, sameMarkdown, type LexContext, type MarkdownState } from './context.js'
import type { LineState } from './lines.js'
import type { CompiledLexer } from './lexer.js'
import type { ModeName } from './modes.js'
import { tokenOf } from './token-instance.js'

/** Texts longer than this are lexed every time: tags are shorter, and long texts seldom recur. */
const longest = 128
/** Entries kept before the memo starts over, and tokens kept per entry: memory stays bounded whatever the input. */
const capacity = 1024
const mostTokens = 16

/** Each compiled lexer's memo: every sieve of a grammar shares it, as it shares the lexer. */
const memos = new WeakMap<CompiledLexer, TokenMemo>()

/** `lexer`'s memo. */
export function tokenMemo(lexer: CompiledLexer): TokenMemo {
  let m = memos.get(lexer)
  if (m === undefined) memos.set(lexer, (m = new TokenMemo(lexer)))
  return m
}

/** What of a run's context its matchers read, beside the text and the mode (`LexContext`). */
export interface MemoContext {
  md: MarkdownState
  lineState: LineState
  rawOpener: string
}

/** A remembered run: the context it started in and the tokens it made. */
interface Entry extends MemoContext {
  mode: ModeName
  tokens: readonly IToken[]
}

export class TokenMemo {
  /** By text (hashing the text alone, not a key built per lookup), the contexts it was lexed in. */
  private readonly seen = new Map<string, Entry[]>()
  private entries = 0
  /**
   * Texts lexed once and not kept: a text is kept when it comes again. A
   * block of tags that never recur (a parameter name per tag) would
   * otherwise copy every one into the memo only to have it start over.
   */
  private readonly once = new Set<string>()

  constructor(private readonly lexer: CompiledLexer) {}

  /**
   * The tokens a run over `text` from `mode` in context `c` made before,
   * if it is remembered (shared: nothing changes a token once made); a run that
   * starts there must also start with nothing carried, no hold barrier and
   * not at the stream's end, as those the memo keeps do. Null: lex it.
   */
  recall(text: string, mode: ModeName, c: MemoContext): readonly IToken[] | null {
    if (text.length > longest) return null
    const list = this.seen.get(text)
    if (list === undefined) return null
    for (const e of list) if (sameContext(e, mode, c)) return e.tokens
    return null
  }

  /** `lexer.tokenize(text, mode, ctx)`, remembered when it can be. */
  tokenize(text: string, mode: ModeName, ctx: LexContext): IToken[] {
    if (text.length > longest || ctx.final || ctx.carry !== null || ctx.noHoldBefore >= 0 || ctx.startAt >= 0 || ctx.rawNext !== null || ctx.json !== null) return this.lexer.tokenize(text, mode, ctx)
    if (!this.seen.has(text) && !this.once.has(text)) {
      if (this.once.size >= capacity) this.once.clear()
      this.once.add(own(text))
      return this.lexer.tokenize(text, mode, ctx)
    }
    // the context as the run starts: its matchers may change it
    const e: Entry = { mode, md: copyMarkdown(ctx), lineState: ctx.lineState, rawOpener: ctx.rawOpener, tokens: [] }
    const tokens = this.lexer.tokenize(text, mode, ctx)
    if (this.keeps(tokens, ctx)) {
      if (this.entries >= capacity) {
        this.seen.clear()
        this.entries = 0
      }
      // own copies of the strings: a slice of the pushed text would keep all of it alive as long as the memo
      e.rawOpener = own(e.rawOpener)
      e.tokens = tokens.map(remembered)
      const list = this.seen.get(text)
      if (list === undefined) {
        this.once.delete(text)
        this.seen.set(own(text), [e])
      }
      else if (!list.some((x) => sameContext(x, mode, e))) list.push(e)
      else return tokens
      this.entries++
    }
    return tokens
  }

  /** Whether the run left nothing but its tokens: a hit gives the driver the tokens alone. */
  private keeps(tokens: readonly IToken[], ctx: LexContext): boolean {
    if (tokens.length > mostTokens || ctx.carry !== null || ctx.lines.marked || ctx.lines.heldRun !== null) return false
    for (const t of tokens) {
      const info = this.lexer.infoByIdx[t.tokenTypeIdx]
      // a JSON block's tokens depend on the capture limit, which no entry keeps (its opener alone does not)
      if (info?.category === 'Incomplete' || info?.json !== undefined) return false
    }
    return true
  }
}

/** A token to keep: its strings owned, its Markdown state frozen (sieves share it, and a write would throw). */
function remembered(t: IToken): IToken {
  const r = tokenOf(t.tokenType, own(t.image), t.startOffset)
  if (t.payload !== undefined) {
    const md = copyMarkdown(t.payload as MarkdownState)
    Object.freeze(md.levels)
    r.payload = Object.freeze(md)
  }
  return r
}

/** `s` in a string of its own (V8 flattens the joined string before slicing it), not a slice of a longer one. */
function own(s: string): string {
  return (' ' + s).slice(1)
}

/** Whether `e` started in `mode` and context `c`: everything of the context a matcher reads. */
function sameContext(e: Entry, mode: ModeName, c: MemoContext): boolean {
  return e.mode === mode && e.lineState === c.lineState && e.rawOpener === c.rawOpener && sameMarkdown(e.md, c.md)
}
