/**
 * What a reading leaves at its end, written into the state: where a lexer
 * run stands (its mode, line state, carried run), the pending tail it or a
 * deferral holds, and where the answer starts after the reasoning. The walk
 * (`walk.ts`, `apply.ts`) writes what the tokens decide; these are the
 * writes of the chunk edge itself (the glossary's term in `README.md`),
 * which the readings call as the walk's hooks. Each write of `pending` says
 * what is known of its tail (`Driver.knownTail`).
 */
import type { LineState, RunCarry } from '../lexer/context.js'
import type { HeldCandidate } from '../lexer/line-cursor.js'
import type { TailState } from '../lexer/tail.js'
import { reasoningDone } from './reasoning.js'
import type { Deferred, DriverState, Restart } from './state.js'

/** What writing a chunk edge needs of the driver. */
export interface EdgeHost {
  s: DriverState
  /** `pending` was just written: the tail the reading found for it (undefined: not known). */
  knownTail(tail: TailState | null | undefined): void
  /** A tail held outside a capture: counted for `stats().maxHeldTail`. */
  noteHeldTail(): void
}

/** A lexer run starts (or restarts) from `r`'s mode and Markdown state. */
export function enterRun(s: DriverState, r: Restart): void {
  s.mode = r.mode
  s.md = r.md
}

/** A run ended on a token it holds for the next chunk (`<|DS`, a candidate's run): it is the pending tail. */
export function holdTail(d: EdgeHost, image: string, candidate: HeldCandidate | null): void {
  d.s.pending = image
  d.s.candidate = candidate
  d.knownTail(undefined)
}

/** A run read its text up to `pos` of the stream, ending in `lineState` with `carry` open. */
export function ranTo(s: DriverState, pos: number, lineState: LineState, carry: RunCarry | null): void {
  s.carry = carry
  s.pos = pos
  s.lineState = lineState
}

/** `chunk` cannot end or break the deferred tag: it joins the tail unlexed (`deferral.ts`). */
export function deferChunk(d: EdgeHost, chunk: string, deferred: Deferred): void {
  d.s.pending += chunk
  d.s.deferred = deferred
  // deferred attribute text is no delimiter's prefix
  d.knownTail(null)
}

/** `text`, an opening tag whose rest can wait, is held unlexed as the deferred tail. */
export function deferText(d: EdgeHost, text: string, deferred: Deferred): void {
  d.s.pending = text
  d.s.deferred = deferred
  d.knownTail(null)
}

/** The held candidate run's tag or autolink is still open after the chunk: `text` (the tail and the chunk) is held. */
export function holdCandidateTail(d: EdgeHost, text: string): void {
  d.s.pending = text
  d.knownTail(undefined)
  d.noteHeldTail()
}

/** The reasoning is over: the answer's offsets go on from where it ended. */
export function enterAnswer(s: DriverState): void {
  if (reasoningDone(s.reasoning)) s.pos = s.reasoning.pos
}
