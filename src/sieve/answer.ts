/**
 * A fast-path answer: how a text (a chunk, or the pending tail and the
 * chunk) reads without the lexer, as data. The fast path only read the
 * sieve's state; the driver applies an answer (`apply.ts`), so every
 * change to that state, and every event, comes from one place. A fast-path reader
 * that cannot prove what the lexer would do answers null: "use the lexer".
 *
 * An answer reads a text in this order, each part optional:
 *
 * ```
 * > | …held tag text… `x` and more <|DSML|invoke name="a">…
 *     ^^^^^^^^^^^^^^^ release: the held tag's text goes out first
 *                     ^^^^^^^^^^^^ plain: text where it stands, then mode, md, carry, line
 *                                 ^^^^^^^^^^^^^^^^^^^^^^ a tag's span: a lexer run over `end` characters, or the tokens one made
 *                                                         ^ the rest: a text of its own
 * ```
 */
import type { IToken, TokenType } from 'chevrotain'
import type { LineState, MarkdownState, RunCarry } from '../lexer/context.js'
import type { ModeName } from '../lexer/modes.js'
import type { TailState } from '../lexer/tail.js'

/**
 * What follows the plain text: `more`, a text of its own (the fast path is
 * asked again); `held`, the undecided tail (`tail` says where it stands in
 * the delimiters it may become); `lexer`, a lexer run over the next `end`
 * characters as a chunk of their own, the rest read after it (`end` 0: over
 * all the rest); `defer`, an opening tag whose attributes may wait unlexed
 * (`deferral.ts`), else a lexer run over the pending tail and the chunk.
 */
export type Then = 'more' | 'held' | 'lexer' | 'defer'

export interface Answer {
  /** The held tag's text goes out as text before anything else: a run closed a level open at the tag. */
  release: boolean
  /** How many characters from the start are plain where they stand: text out, the capture's value text, or the hold's. */
  plain: number
  /** The mode after the plain text; null: the same. */
  mode: ModeName | null
  /** The Markdown state after the plain text; null: the same. */
  md: MarkdownState | null
  /** A backtick or tilde run the plain text ends in, cut by the chunk end: carried, as the lexer's runPart token carries it. */
  carry: RunCarry | null
  /** The line state after the plain text; -1: what the text alone gives (`lineStateBefore`). */
  line: LineState
  /** Inside a capture: the text token type of the mode, which the plain text becomes. */
  type: TokenType | null
  /** `lexer`: how many characters after the plain text the run takes (a tag: `tag-spans.ts`); 0: all of them. With `tokens`: how many they cover. */
  end: number
  /** The tokens a lexer run over the `end` characters after the plain text made before, in the same context (`lexer/token-memo.ts`); the rest is a text of its own. */
  tokens: readonly IToken[] | null
  then: Then
  /** `held`: where the tail stands; null: the lexer decides it with the next chunk. */
  tail: TailState | null
  /** `defer`: the mode the opening tag's token pushes, and where its name ends. */
  deferMode: ModeName | null
}

/** An answer to fill: each fast-path reader keeps one and fills it for every answer (an allocation per token-sized chunk showed in the A/B). */
export function blankAnswer(): Answer {
  return { release: false, plain: 0, mode: null, md: null, carry: null, line: -1, type: null, end: 0, tokens: null, then: 'more', tail: null, deferMode: null }
}

/** `a`, emptied, as `plain` characters of text, then `then`. */
export function plainThen(a: Answer, plain: number, then: Then): Answer {
  a.release = false
  a.plain = plain
  a.mode = null
  a.md = null
  a.carry = null
  a.line = -1
  a.type = null
  a.end = 0
  a.tokens = null
  a.then = then
  a.tail = null
  a.deferMode = null
  return a
}

/** `a` as `plain` characters of text, then the tokens a lexer run made of the `end` characters after them; the rest is a text of its own. */
export function tokensAt(a: Answer, plain: number, tokens: readonly IToken[], end: number): Answer {
  plainThen(a, plain, 'more')
  a.tokens = tokens
  a.end = end
  return a
}

/** `a` as `plain` characters of text, then a lexer run over the `end` characters after them; the rest is a text of its own. */
export function lexedSpan(a: Answer, plain: number, end: number): Answer {
  plainThen(a, plain, 'lexer')
  a.end = end
  return a
}

/** `a` as `plain` characters of text, then the undecided tail `tail` (null: the lexer decides it). */
export function heldAfter(a: Answer, plain: number, tail: TailState | null): Answer {
  plainThen(a, plain, 'held')
  a.tail = tail
  return a
}
