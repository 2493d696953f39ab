/**
 * Held tags (docs/DESIGN.md, "Markdown guard"): a tag after an unmatched backtick
 * run waits in a hold until the paragraph decides. A run that closes a
 * level open at the tag proves it was an example (text); the paragraph's
 * end (or a void fence opener) proves it live, and the driver lexes the
 * held text again from the tag; a hold past the capture limit goes out as
 * text with the rest of its paragraph.
 *
 * ```
 * > | Run `npm test <|DSML|tool_calls> …
 *                   ^ spanHold: the tag and what follows are held
 * > | Run `npm test <|DSML|tool_calls> …` and
 *                                       ^ a run closes the level open at the tag: the hold is text
 * > | Run `npm test <|DSML|tool_calls> …
 * > |
 *     ^ the paragraph ends (halt): lexed again from the tag, which is live
 * > | ```js <|DSML|tool_calls> `
 *           ^ fenceInfoHold: held in a backtick fence's info string
 *                              ^ a backtick voids the fence (halt): lexed again from the tag
 * ```
 */
import type { IToken } from 'chevrotain'
import { freshMarkdown, lineStartIndent, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import { commentLevel } from '../lexer/html.js'
import { afterVoidedFence, spanOrProse, type GuardSettings } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { DiagnosticCode } from '../types.js'
import type { Emitter } from './emitter.js'
import type { DriverOptions, DriverState, Hold, Restart } from './state.js'

/** What hold handling needs from the driver. */
export interface HoldHost {
  readonly s: DriverState
  readonly out: Emitter
  readonly opts: DriverOptions
  readonly guard: GuardSettings
  diagnostic(code: DiagnosticCode, message: string, start: number, end: number): void
  lineAt(text: string, offset: number, startLine: LineState): LineState
}

/**
 * A tag held in an inline comment whose paragraph ended first: `<!--` was
 * literal, so the levels open before it stay open at the tag (a `<code>`
 * before the comment, whose `</code>` may follow the tag); null when none
 * were (the tag is lexed again in prose, as after any halt).
 */
function beforeComment(md: MarkdownState): { mode: ModeName; md: MarkdownState } | null {
  const k = md.levels.indexOf(commentLevel)
  if (k <= 0) return null
  const d = spanOrProse(md.levels.slice(0, k))
  return { mode: d.target!, md: d.md! }
}

/** Switching to these settles a hold as text: a level open at the tag closed, or the fence it sat in is real. */
function releases(target: ModeName | null): boolean {
  return target === modes.prose || target === modes.span || target === modes.fence
}

export class Holds {
  constructor(private readonly d: HoldHost) {}

  /**
   * A token while a tag is held (`h`). `runLength`: for a run cut by the
   * chunk end, the length of the whole run so far; else null. Returns where
   * to lex again when the paragraph ended.
   */
  token(h: Hold, tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null, runLength: number | null): Restart | null {
    const s = this.d.s
    const target = info.push
    if (h.givenUp) {
      if (target === modes.halt) {
        // the paragraph ended (or the fence opener was void): lex the token that decided it again
        s.hold = null
        const after = this.afterHalt(s.mode)
        // the re-lex starts at the run, its line's indent and markers gone out already: it goes on in the line state
        // where the run stands (a run after a list marker is that item's content, as in one lexer pass; made a line
        // start, it classified the line again as a fence line, and the next line's indented code differed by
        // chunking), and the fence rules read where it stood in its line from `startAt`
        const lineState = this.d.lineAt(text, tok.startOffset, startLine)
        const at = lineStartIndent(text, tok.startOffset, startLine, lineState)
        return { text: text.substring(tok.startOffset), base: base + tok.startOffset, mode: after.mode, md: after.md, lineState, carry: tok.startOffset === 0 ? carry0 : null, startAt: at }
      }
      this.d.out.slice(text, tok.startOffset, tok.startOffset + tok.image.length)
      if (releases(target)) s.hold = null
      if (target !== null) s.mode = target
      return null
    }
    h.parts.push(tok.image)
    h.length += tok.image.length
    if (target === modes.halt) {
      // the paragraph ended with the tag's code span unclosed (or the fence opener it sat in was void): lex it again
      return this.relex(h, text.substring(tok.startOffset + tok.image.length))
    }
    if (releases(target)) {
      s.hold = null
      this.d.out.text(h.parts.join(''))
    } else if ((runLength ?? h.length) > this.d.opts.captureLimit) {
      // a run cut by the chunk end is judged when it ends (one chunk would see it whole); only its own length is bounded now
      this.giveUp(h)
    }
    if (target !== null) s.mode = target
    return null
  }

  /**
   * A run carried across a chunk end ended, and was decided `target` (its
   * characters are already in the hold): the same outcome as a whole run token.
   */
  runEnded(h: Hold, target: ModeName | null, text: string): Restart | null {
    const s = this.d.s
    if (releases(target)) {
      // a carried run closed a level that was open at the held tag
      this.d.out.text(h.parts.join(''))
      s.hold = null
      return null
    }
    if (target === modes.halt) return this.relex(h, text)
    if (!h.givenUp && h.length > this.d.opts.captureLimit) this.giveUp(h)
    return null
  }

  /** The paragraph ended with the tag live: lex the held text and `rest` again from the tag. */
  private relex(h: Hold, rest: string): Restart {
    const s = this.d.s
    s.hold = null
    const held = h.parts.join('')
    const after = this.afterParagraph(s.mode, s.md)
    this.halted(h.start + held.length)
    return { text: held + rest, base: h.start, mode: after.mode, md: after.md, lineState: h.lineState, carry: null }
  }

  /** The held text grew past the limit: it goes out as text, and the rest of the paragraph with it. */
  private giveUp(h: Hold): void {
    const limit = this.d.opts.captureLimit
    h.givenUp = true
    this.d.diagnostic('capture-limit', `text held after an unmatched backtick grew past ${limit} characters; released as text`, h.start, h.start + limit + 1)
    this.d.out.text(h.parts.join(''))
    h.parts = []
  }

  /**
   * A hold halted at `at`: its paragraph's end, or the backtick that voided
   * the fence opener whose info string held the tag. The driver lexes again
   * from the tag, and that pass may hold a later tag of the same paragraph,
   * which halts at the same end again: a staircase of unmatched runs would
   * re-lex the paragraph once per tag. From the second halt at one end, no
   * tag before that end is held (`DriverState.noHoldUntil`): those that
   * would wait after unmatched backticks or in a fence opener's info string
   * stay text, and the paragraph is read at most three times.
   *
   * A halt before the counted end comes from inside a pass over that
   * paragraph (a voided fence opener on one of its lines): it leaves the
   * count alone. Counting it as a new end reset the count, and a paragraph
   * of both kinds of hold was lexed once per tag again.
   */
  halted(at: number): void {
    const s = this.d.s
    const end = s.paragraphEnd
    if (end !== null && end.at === at) end.halts++
    else if (end === null || at > end.at) s.paragraphEnd = { at, halts: 1 }
    const counted = s.paragraphEnd!
    if (counted.halts > 1 && counted.at > s.noHoldUntil) s.noHoldUntil = counted.at
  }

  /** Where a held tag is lexed again from when its paragraph ended, its hold in `mode` with `md`. */
  afterParagraph(mode: ModeName, md: MarkdownState): { mode: ModeName; md: MarkdownState } {
    return beforeComment(md) ?? this.afterHalt(mode)
  }

  /** Where a held tag is lexed again from when its hold halts in `mode`. */
  afterHalt(mode: ModeName): { mode: ModeName; md: MarkdownState } {
    if (mode !== modes.fenceInfoHold) return { mode: modes.prose, md: freshMarkdown() }
    const d = afterVoidedFence(this.d.s.md, this.d.guard)
    return { mode: d.target!, md: d.md! }
  }
}
