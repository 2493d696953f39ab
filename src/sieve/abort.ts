/**
 * `Sieve.abort()`: the stream broke off (an upstream error, a malformed
 * chunk, a cut connection). Unlike the stream's end, nothing is decided from
 * what is held: no repair, no lenient end, no re-reading of a held tag as
 * live. Everything held goes out as it was classified when it was held, in
 * stream order, and a call already started for a cut block is aborted.
 *
 * ```
 * > | hello <｜DSML｜too
 *           ^^^^^^^^^^^ pending tail: text
 * > | <think>plan </thi
 *                 ^^^^^ a closer's prefix inside the reasoning: reasoning
 * > | <｜DSML｜tool_calls><｜DSML｜invoke name="a">…
 *     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ capture: text, `unterminated-block`,
 *                                                 its started call `tool-call-abort`
 * ```
 */
import { committed, releaseCapture, type DriverCore } from './capture.js'
import type { ReasoningCalls } from './reasoning-calls.js'
import { flushRun, initialState } from './state.js'
import { initialCallStream } from './call-stream-state.js'
import type { AnchoredBlocks } from '../grammar/types.js'
import { tokenOf, unplaced } from '../lexer/token-instance.js'
import { phases } from '../lexer/json-scan.js'

/**
 * Releases everything the driver `d` holds: the reasoning's undecided tail
 * (and, with `reasoningCalls: 'call'`, what the reasoning's own driver
 * holds, through `sink`), then the answer's capture, hold and pending tail.
 * Leaves the state's held fields empty; the caller resets the rest.
 */
export function releaseHeld(d: DriverCore, sink: ReasoningCalls | null): void {
  const s = d.s
  const r = s.reasoning
  if (r.phase !== 'done') {
    const held = r.held
    r.held = ''
    if (r.phase === 'in') {
      // inside the reasoning everything is reasoning: what its own driver holds comes before the closer's prefix held here
      sink?.abort()
      if (held !== '') d.out.event({ type: 'reasoning', text: held })
    } else {
      // blanks and an opener's prefix before any reasoning began: the answer's text, as at the stream's end
      d.out.text(held)
    }
    r.phase = 'done'
  }
  // calls started for the cut block end here, before its markup goes out as text (as `tool-call-abort` promises)
  d.calls?.finish('unterminated-block')
  const cap = s.capture
  if (cap !== null) {
    flushRun(cap)
    if (s.pending !== '') {
      // inside a block the pending text (a closer's start, deferred attribute text) is the block's: its span covers it
      cap.tokens.push(tokenOf(d.lexer.typeByName.get('Incomplete')!, s.pending, unplaced))
      cap.length += s.pending.length
      s.pending = ''
    }
    // reported as the stream's end reports a block it cut (a bare tag with nothing in it is text without a word)
    // a block that ends with its JSON counts as begun once its value has (a bare `[` or opener is a mention)
    const begun = cap.json !== undefined ? cap.json.phase >= phases.value : cap.wrapper || committed(cap)
    const code = !cap.overflow && begun ? 'unterminated-block' : null
    releaseCapture(d, code, 'the stream broke off inside the block')
  }
  const h = s.hold
  s.hold = null
  // a hold given up has let its text out already
  if (h !== null && !h.givenUp) d.out.text(h.parts.join(''))
  // outside a block: the undecided tail, or a backtick run held in an open HTML tag (`candidate`), after what a hold held
  d.out.text(s.pending)
  s.pending = ''
  s.deferred = null
  s.candidate = null
}

/**
 * After an abort or a recovery: the state holds nothing and reads on in
 * prose from `pushed`, the characters pushed so far. What follows is not
 * the message's start, so nothing is anchored there; a streamed call's
 * index goes on.
 */
export function startOver(d: DriverCore & { readonly anchored: AnchoredBlocks | undefined }, pushed: number): void {
  const s = d.s
  const next = s.calls?.next ?? 0
  Object.assign(s, initialState(), { pos: pushed, sawSyntax: s.sawSyntax, reasoning: { phase: 'done', held: '', pos: pushed } }, d.anchored === undefined ? {} : { started: true })
  if (d.calls !== null) s.calls = { ...initialCallStream(), next }
}
