/**
 * A fast-path answer applied (`answer.ts`): the fast path reads and writes
 * nothing, so that every change its readings make to the sieve's state is
 * made here, in one place, as a lexer run's tokens would have made it.
 * Tokens an answer recalls (`lexer/token-memo.ts`) go through the token
 * walk like a run's.
 */
import type { IToken } from 'chevrotain'
import { lineStateBefore, type LexContext } from '../lexer/context.js'
import type { TailState } from '../lexer/tail.js'
import { passOverflow, type DriverCore } from './capture.js'
import { appendRun, flushRun } from './state.js'
import type { LexerRuns, RunHost } from './lexer-runs.js'
import type { Answer } from './answer.js'

/** What applying an answer needs of the driver beyond its core. */
export interface ApplyHost extends DriverCore, Pick<RunHost, 'token' | 'noteHeldTail'> {
  readonly runs: LexerRuns
  /** See {@link RunHost.ctxNow}: none while recalled tokens are walked. */
  ctxNow: LexContext | null
  /** `pending` was just written: the tail the reading found for it (see `Driver.tail`). */
  knownTail(tail: TailState | null | undefined): void
}

/** `chunk` goes to the lexer, with the pending tail: nothing is left. */
export function lexed(d: ApplyHost, chunk: string): null {
  d.runs.lexChunk(chunk)
  return null
}

/**
 * Applies a fast-path answer for `text` (`answer.ts`): the one place
 * their readings change the sieve's state. Returns what is left of `text`
 * to read as a chunk of its own, or null: nothing (held, or lexed).
 */
export function apply(d: ApplyHost, a: Answer, text: string): string | null {
  const s = d.s
  // the answer read the pending tail, if any, as the start of `text`
  s.pending = ''
  d.knownTail(undefined)
  if (a.release) {
    d.out.text(s.hold!.parts.join(''))
    s.hold = null
  }
  const n = a.plain
  if (n > 0) plain(d, n === text.length ? text : text.slice(0, n), a)
  s.lineState = a.line >= 0 ? a.line : lineStateBefore(text, n, s.lineState)
  s.pos += n
  s.carry = a.carry
  if (a.mode !== null) s.mode = a.mode
  if (a.md !== null) s.md = a.md
  if (a.then === 'held') {
    // what the lexer's Incomplete token would hold: a tag start (or line-start spaces) the chunk end leaves undecided
    s.pending = text.slice(n)
    d.knownTail(a.tail)
    d.noteHeldTail()
    return null
  }
  const after = n === 0 ? text : text.slice(n)
  if (a.tokens !== null) {
    applyTokens(d, a.tokens, a.end === after.length ? after : after.slice(0, a.end))
    return a.end === after.length ? null : after.slice(a.end)
  }
  if (a.then === 'lexer') {
    if (a.end === 0) return lexed(d, after)
    // a tag's span, lexed as a chunk of its own (its tokens are remembered, `TokenMemo`, even when it is all of
    // the text); what follows is the next (`feed` reads it as it reads a chunk)
    const pos = s.pos
    const whole = a.end >= after.length
    d.runs.lexChunk(whole ? after : after.slice(0, a.end), true)
    if (whole) return null
    // the lexer held all of the span: it needs what follows to decide
    return s.pos === pos ? lexed(d, after.slice(a.end)) : after.slice(a.end)
  }
  return after === '' ? null : after
}

/** Plain text where it stands: out, into the capture's value text (out, past the limit), or into the hold. */
function plain(d: ApplyHost, head: string, a: Answer): void {
  const s = d.s
  const cap = s.capture
  // over the limit a capture still keeps an open tag's tokens (`passOverflow`): its attribute text joins them, or
  // it would leave before its own tag
  if (cap !== null && (!cap.overflow || cap.tokens.length > 0 || cap.run !== null)) {
    appendRun(cap, a.type!, head)
    cap.length += head.length
    // a tag longer than the limit by itself goes out whole (`passOverflow`): memory stays bounded
    if (cap.overflow && cap.length > d.opts.captureLimit) {
      flushRun(cap)
      passOverflow(d, cap)
    }
  } else if (cap === null && s.hold !== null) {
    s.hold.parts.push(head)
    s.hold.length += head.length
  } else d.out.text(head)
}

/**
 * The tokens a lexer run made of `text` before, in the same context
 * (`lexer/token-memo.ts`), walked as that run's are; a restart lexes the
 * rest of `text`.
 */
function applyTokens(d: ApplyHost, tokens: readonly IToken[], text: string): void {
  const s = d.s
  const base = s.pos
  const startLine = s.lineState
  s.pending = ''
  s.deferred = null
  s.candidate = null
  // the run's line cursor marked nothing (else it is not remembered): line states come from the text alone
  d.ctxNow = null
  for (const tok of tokens) {
    const r = d.token(tok, d.lexer.infoByIdx[tok.tokenTypeIdx]!, text, base, startLine, null)
    if (r !== null) return d.runs.run(r, false)
  }
  s.pos = base + text.length
  s.lineState = lineStateBefore(text, text.length, startLine)
}
