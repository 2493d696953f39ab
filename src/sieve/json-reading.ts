/**
 * Where `feed` reads by a JSON block's scanner rather than by the fast
 * path's chunk answers: the answer's start in a grammar with blocks
 * anchored there (`atStart`: Llama's bare `{"name": …}` may open a block
 * only before any other text), and a chunk inside a block that ends with
 * its JSON (`json`), whose end no closer marks. Both walk the block's
 * tokens here up to its end and hand back what follows it.
 */
import type { IToken } from 'chevrotain'
import { lineStateBefore, type LineState } from '../lexer/context.js'
import { modes } from '../lexer/modes.js'
import type { TailState } from '../lexer/tail.js'
import type { AnchoredBlocks } from '../grammar/types.js'
import type { JsonPart } from '../lexer/json-tokens.js'
import type { HeldCandidate } from '../lexer/line-cursor.js'
import { literalFrame } from '../lexer/tokens.js'
import type { FastPath } from './fast-path.js'
import type { LexerRuns } from './lexer-runs.js'
import { jsonBeforeOf, jsonCapture, jsonToken } from './json-block.js'
import { walkJsonToken, type WalkHost } from './walk.js'

/** What reading by the JSON scanner needs of the driver beyond the walk's. */
export interface JsonReadHost extends WalkHost {
  readonly fast: FastPath
  readonly runs: LexerRuns
  /** The grammar's blocks anchored at the message start (`JsonBlocks.anchored`), if any. */
  readonly anchored: AnchoredBlocks | undefined
  /** `pending` was just written: the tail the reading found for it (see `Driver.tail`). */
  knownTail(tail: TailState | null | undefined): void
  /** The reading ends in an undecided tail (`RunHost.held`). */
  held(image: string, candidate: HeldCandidate | null): void
}

/** Whether the reading stands where a value may open a block anchored at the message start (`DriverState.started`). */
export function startsOpen(d: JsonReadHost): boolean {
  return d.anchored !== undefined && d.s.started !== true && d.s.mode === modes.prose
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
export function atStart(d: JsonReadHost, chunk: string): string | null {
  const s = d.s
  const text = s.pending + chunk
  if (text === '') return null
  s.pending = ''
  d.knownTail(null)
  // the message opens with text (most do), or waits for more: the matchers' own decision, without a run
  const start = d.fast.start(text)
  if (start !== null) {
    startBlanks(d, text.substring(0, start.at))
    if (start.kind === 'hold') {
      s.pending = text.substring(start.at)
      return null
    }
    s.started = true
    return text.substring(start.at)
  }
  const base = s.pos
  const startLine = s.lineState
  const tokens = d.runs.tokens(text, modes.messageStart)
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!
    const category = d.lexer.infoByIdx[tok.tokenTypeIdx]!.category
    if (category === 'Incomplete') {
      s.pending = tok.image
      return null
    }
    if (category === 'Text') {
      startBlanks(d, tok.image)
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
    return jsonTokens(d, tokens, k + 1, text, base, startLine)
  }
  return null
}

/** Blanks at a message's start: text, whatever follows them. */
function startBlanks(d: JsonReadHost, blanks: string): void {
  if (blanks === '') return
  const s = d.s
  d.out.text(blanks)
  s.lineState = lineStateBefore(blanks, blanks.length, s.lineState)
  s.pos += blanks.length
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
export function json(d: JsonReadHost, chunk: string): string | null {
  const s = d.s
  const cap = s.capture!
  const text = s.pending + chunk
  s.pending = ''
  d.knownTail(null)
  const before = jsonBeforeOf(d, cap)
  let at = 0
  for (let step = d.fast.jsonStep(cap.json!, before, text, 0); step !== null; step = d.fast.jsonStep(cap.json!, before, text, at)) {
    // a closer's start at the text's end: it waits, as the lexer's Incomplete token would have it
    if (step.part === 'incomplete') {
      d.held(text.substring(at), null)
      return null
    }
    const over = jsonToken(d, step.part as Exclude<JsonPart, 'mention'>, text.substring(at, step.end), step.scan)
    at = step.end
    if (over) return text.substring(at)
    if (at === text.length) return null
  }
  const rest = text.substring(at)
  return jsonTokens(d, d.runs.tokens(rest, s.mode), 0, rest, s.pos, s.lineState)
}

/**
 * A JSON block's tokens from `tokens[from]` on, of a run over `text` from
 * stream offset `base` and line state `startLine`, walked up to the
 * block's end. Returns what is left after the block, or null.
 */
function jsonTokens(d: JsonReadHost, tokens: readonly IToken[], from: number, text: string, base: number, startLine: LineState): string | null {
  for (let k = from; k < tokens.length; k++) {
    const tok = tokens[k]!
    const info = d.lexer.infoByIdx[tok.tokenTypeIdx]!
    if (info.category === 'Incomplete') {
      d.held(tok.image, null)
      return null
    }
    const r = walkJsonToken(d, tok, info, text, base, startLine)
    if (r === null) continue
    // a mention: what followed the opener is prose, lexed from there; else the block is over
    if (info.json === 'mention') {
      d.runs.run(r, false)
      return null
    }
    return r.text
  }
  return null
}
