/**
 * What the streaming driver carries between chunks, and the plain-JSON forms
 * of its tokens. Every field here goes into a checkpoint.
 */
import type { IToken, TokenType } from 'chevrotain'
import { tokenOf, unplaced } from '../lexer/token-instance.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { freshMarkdown, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import { streamStart } from '../lexer/lines.js'
import { modes, type ModeName } from '../lexer/modes.js'
import type { BlockOptions } from './calls.js'
import type { ToolCallEvent } from '../types.js'
import { initialReasoning, type ReasoningState, type ReasoningTags } from './reasoning.js'
import type { CallStreamState } from './call-stream-state.js'
import type { QuotedCalls } from './quoted.js'
import type { HeldCandidate } from '../lexer/line-cursor.js'
import type { JsonScan } from '../lexer/json-scan.js'

/** A block being captured, from its opener on. */
export interface Capture {
  /** Stream offset of the opener. */
  start: number
  tokens: IToken[]
  length: number
  /** An invoke opened inside it: failing now is a malformed block, not a mention. */
  invokeSeen: boolean
  /** Began at a wrapper opener (not a bare invoke, the missing-wrapper repair). */
  wrapper: boolean
  /** Line state right after the opener: where lexing starts again if the capture is released. */
  lineState: LineState
  /**
   * The capture went over the limit: what it held went out as text, and it
   * goes on following the block's structure to its closer, every token out
   * as text as it comes (only a tag's tokens wait for its end, so that a
   * `string` attribute is seen), so nothing inside the block becomes a call.
   */
  overflow: boolean
  /** The opener's spelling family: a block that breaks is skipped to a closer of this family (`interrupted`, `walk.ts`). */
  frame: string
  /** How many of `tokens` end with the last complete invoke's closer (0: none yet): what the stream's end can keep. */
  lastClose: number
  /** An unclosed CDATA was cut at its parameter's closer at the end of the stream (`unclosedCdata`): the section's span, reported if the block completes. */
  repairedCdata?: { start: number; end: number }
  /** A parameter opener arrived: failing from now on is a malformed block, not a mention (see `committed`). */
  paramSeen: boolean
  /**
   * Body text taken by the fast path, not yet made a token: a 1 MB value in
   * 4-char chunks becomes one token, not 262,144 (docs/STYLE.md §5: join once).
   */
  run: { type: TokenType; blocks: string[]; parts: string[] } | null
  /**
   * A block that ends with its JSON (`Grammar.blocks.json`): where the
   * scanner that finds that end stands (`json-scan.ts`). Absent for any
   * other block.
   */
  json?: JsonScan
}

/** Text held from a tag that follows an unmatched backtick run, until the paragraph decides. */
export interface Hold {
  start: number
  parts: string[]
  length: number
  /** Line position at the tag, to re-lex from there if the tag turns out live. */
  lineState: LineState
  /**
   * The hold reached the capture limit: the tag was released as text and the
   * rest of this paragraph goes out as text as it comes (no more holding, so
   * a paragraph of many tags after one stray backtick stays linear).
   */
  givenUp: boolean
}

/** Where lexing must start over, and how. */
export interface Restart {
  text: string
  base: number
  mode: ModeName
  md: MarkdownState
  lineState: LineState
  carry: RunCarry | null
  /** See {@link LexContext.startAt}. */
  startAt?: number
}

export interface DriverState {
  mode: ModeName
  md: MarkdownState
  /** Line position at `pos`. */
  lineState: LineState
  /** A backtick/tilde run that reached the end of the last window: "``" + "`js" must count 3. */
  carry: RunCarry | null
  /**
   * The undecided tail (`<|DS`, `＜ＤＳ`, `</invo`, line-start spaces before a fence), at most the longest
   * delimiter; inside a capture also attribute text deferred until a chunk can end its tag (`deferral.ts`).
   */
  pending: string
  /** Stream offset where `pending` starts: everything before it has been decided. */
  pos: number
  capture: Capture | null
  hold: Hold | null
  sawSyntax: boolean
  /**
   * Inside a `rawValue` (a parameter with a `string` attribute): the
   * opener's {@link tagKey}, which the lexer needs at every chunk to know
   * which closer ends the value; null elsewhere.
   */
  raw: string | null
  /** Where the stream stands with respect to its reasoning (`reasoning.ts`). */
  reasoning: ReasoningState
  /**
   * What is left of a failed block is being passed out as text (`skip`
   * mode) until the closer that balances its opener: the role counted and
   * how many of its tags are open. null: not skipping.
   */
  skip: { role: 'wrapper' | 'invoke'; depth: number; frame: string } | null
  /** The last paragraph end that sent the driver back to a held tag, and how often (see `Holds.halted`). */
  paragraphEnd: { at: number; halts: number } | null
  /**
   * Stream offset before which no tag is held ({@link LexContext.noHoldBefore}
   * is this, relative to each lexer run's text), or -1. Absolute, so every
   * restart inside a paragraph being read again keeps it.
   */
  noHoldUntil: number
  /** With `streamArguments`: how far the capture's calls have been streamed (`call-stream.ts`); null without. */
  calls: CallStreamState | null
  /**
   * Chunk edge: `pending` is a tag's attribute text (and what follows its end) kept unlexed until a chunk that can
   * end or break the block (`deferral.ts`): where the reading of it stands. null: `pending`, if any, is the
   * lexer's undecided tail.
   */
  deferred: Deferred | null
  /**
   * Chunk edge: `pending` is a backtick run held inside an open HTML tag or autolink, read on a chunk at a time
   * until the candidate ends (`line-cursor.ts`). null: none.
   */
  candidate: HeldCandidate | null
  /**
   * With blocks anchored at the message start (`JsonBlocks.anchored`): set
   * once the answer's first non-blank text decided that the message does
   * not open with such a block, or opened one; absent while the stream is
   * still at the start (blanks so far, or `pending` holds the start of an
   * optional opener: `<|python_` split from `tag|>` by a chunk edge).
   * `separator`: right after such a block that gave calls, where a
   * separator and another value go on with the calls (`{…}; {…}`);
   * `pending` holds the separator and blanks after it until the value
   * comes. Absent for ever in a grammar with none.
   */
  started?: true | 'separator'
  /**
   * The model's own call ids the stream's calls have had so far (a pack
   * read whole whose markup carries ids, no `generateId`), in order: a
   * later call the model gives one of them again (Kimi K2's
   * `functions.f:0` in a second section, a draft of the call in the
   * reasoning) gets a made id, so ids stay unique in the stream, across a
   * checkpoint too. Absent until a call has had one. At most
   * `maxModelIds` (1,024): a stream of many calls must not grow it, and
   * every checkpoint, without bound; a call past it gets a made id.
   */
  modelIds?: string[]
}

/**
 * Where a deferred tag's reading stands: `mode` is the mode the text was deferred in, `place` where the reader
 * is (0 in the tag, 1 in a double quote, 2 in a single quote, 3 in a value, 4 in a body) and `body` where the
 * tag's end leads (3 or 4).
 */
export interface Deferred {
  mode: ModeName
  place: number
  body: number
}

export interface DriverOptions extends BlockOptions {
  captureLimit: number
  /** The reasoning tags (the grammar's `reasoning`, or `<think>` / `</think>`). */
  reasoningTags: ReasoningTags
  /** The calls of the `quoted` texts (`quoted.ts`): a block with one of them is an example. null: none given, or none found. */
  quoted: QuotedCalls | null
  /** `streamArguments`: calls start and stream while their block is captured (`call-stream.ts`). */
  streamArguments: boolean
  /** `reasoningCalls: 'call'`: the reasoning is sieved for calls by a driver of its own (`reasoning-calls.ts`). */
  reasoningCalls: boolean
  /** Told each block's calls before they go out (reading the `quoted` texts). */
  onBlock?: (calls: ToolCallEvent[]) => void
  /**
   * Longest piece handed to the lexer at once (default {@link windowSize}):
   * bounds token arrays and the work a restart can waste. Tests make it tiny,
   * so that window boundaries fall everywhere a chunk's can.
   */
  windowSize?: number
}

/** The default {@link DriverOptions.windowSize}. */
export const windowSize = 16 * 1024

export function initialState(): DriverState {
  return { mode: modes.prose, md: freshMarkdown(), lineState: streamStart, carry: null, pending: '', pos: 0, capture: null, hold: null, sawSyntax: false, raw: null, skip: null, reasoning: initialReasoning(false, false), paragraphEnd: null, noHoldUntil: -1, calls: null, deferred: null, candidate: null }
}

/** Turns the fast path's pending body text into one token of its mode. */
export function flushRun(cap: Capture): void {
  if (cap.run === null) return
  const { blocks, parts } = cap.run
  // most runs are a few chunks and never folded: one join, no concatenation to flatten later
  const tail = parts.length === 1 ? parts[0]! : parts.join('')
  const image = blocks.length === 0 ? tail : blocks.join('') + tail
  cap.tokens.push(tokenOf(cap.run.type, image, unplaced))
  cap.run = null
}

/**
 * Adds `piece` to the capture's pending text run of token type `type` (a
 * run of another type is made a token first). A 4 MB value in 4-char chunks
 * would be a million pieces: every 4096 fold into one block, so the
 * collector sees few, and `flushRun` joins once.
 */
export function appendRun(cap: Capture, type: TokenType, piece: string): void {
  if (cap.run !== null && cap.run.type !== type) flushRun(cap)
  if (cap.run === null) cap.run = { type, blocks: [], parts: [] }
  const run = cap.run
  run.parts.push(piece)
  if (run.parts.length >= 4096) {
    run.blocks.push(run.parts.join(''))
    run.parts = []
  }
}

/** Tokens as `[typeName, image]`, for a JSON checkpoint. */
export function saveTokens(tokens: IToken[]): Array<[string, string]> {
  return tokens.map((t) => [t.tokenType.name, t.image])
}

export function loadTokens(lexer: CompiledLexer, saved: Array<[string, string]>): IToken[] {
  return saved.map(([name, image]) => {
    const type = lexer.typeByName.get(name)
    if (type === undefined) throw new Error(`unknown token type ${name}`)
    return tokenOf(type, image, unplaced)
  })
}
