/**
 * The boundary before a lexer run's text (a chunk's or a window's): what the
 * walk decides there before lexing on. The pending tail joins the text, and a
 * backtick or tilde run the last text ended in is decided now that its
 * length is known (`markdown.ts` `decideCarried`), in a hold too.
 */
import { decideCarried, type GuardSettings } from '../lexer/markdown.js'
import { modes, type ModeName } from '../lexer/modes.js'
import type { Holds } from './holds.js'
import type { DriverState, Restart } from './state.js'
import { codeAt } from '../lexer/codes.js'

/** What the boundary reads and writes: the walk's state and its hold handler. */
export interface BoundaryHost {
  readonly s: DriverState
  readonly guard: GuardSettings
  readonly holds: Holds
}

/**
 * The boundary before `text`, a chunk's or a window's alike: the pending tail is part of `text` now, and a run
 * carried over that ended right at the boundary is decided before lexing on. Returns the restart a hold makes
 * of that run, if any.
 */
export function settleAtBoundary(host: BoundaryHost, text: string, final: boolean): Restart | null {
  const s = host.s
  s.pending = ''
  s.candidate = null
  s.deferred = null
  if (s.carry === null || (!final && codeAt(text, 0) === s.carry.ch)) return null
  const c = s.carry
  s.carry = null
  const d = decideCarried(c, c.mode as ModeName, s.md, host.guard)
  if (d.target === modes.halt && s.hold !== null && s.hold.givenUp) {
    // the run that ended the paragraph already went out as text: decide it again where the re-lex would
    const after = host.holds.afterHalt(s.mode)
    s.hold = null
    const again = decideCarried(c, after.mode, after.md, host.guard)
    s.mode = again.target ?? after.mode
    s.md = again.md ?? after.md
    return null
  }
  if (d.md !== null) s.md = d.md
  const h = s.hold
  // the run went into the hold piece by piece; now that it ended, the hold takes it as a whole run token
  const r = h === null ? null : host.holds.runEnded(h, d.target, text)
  if (r === null && d.target !== null) s.mode = d.target
  return r
}
