/**
 * `Sieve.end()`: the stream is over, so what was held undecided is decided
 * now, as the stream's end decides it. The reasoning's held tail is settled
 * and the answer's rest read; a tail held for a longer delimiter is lexed
 * as what it is; a cut CDATA is read again as a value; a held tag is live
 * (the end of the stream ends its paragraph), unless it stood in a fence's
 * info string; and a block still open ends (`endCapture`: repaired, or
 * text with `unterminated-block`).
 */
import { tokenOf, unplaced } from '../lexer/token-instance.js'
import { modes } from '../lexer/modes.js'
import { cutCdata, endCapture } from './capture.js'
import { endJsonBlock } from './json-block.js'
import { endReasoning } from './reasoning.js'
import type { ReasoningCalls } from './reasoning-calls.js'
import { flushRun } from './state.js'
import { feed, type FeedHost } from './feed.js'

/** Decides everything the driver `d` holds at the stream's end; `sink` takes the reasoning (its own driver with `reasoningCalls: 'call'`). */
export function endStream(d: FeedHost, sink: ReasoningCalls | null): void {
  const s = d.s
  if (s.reasoning.phase !== 'done') {
    const rest = endReasoning(s.reasoning, sink ?? d.out)
    sink?.end()
    s.pos = s.reasoning.pos
    if (rest !== '') feed(d, rest)
  }
  // the stream ended at its start, with an optional opener's start held: it is text, read as prose reads it
  if (d.anchored !== undefined) s.started = true
  if (s.capture !== null) flushRun(s.capture)
  // a block that ends with its JSON, cut by the stream: its held closer start (if any) is prose now
  if (s.capture?.json !== undefined) s.pending = endJsonBlock(d)
  if (s.capture !== null && s.pending !== '' && d.lexer.tails.get(s.mode)?.matchesAtEnd(s.pending) !== true) {
    // the stream ended inside the block, mid-delimiter (`…</tool_ca`): that tail is part of the unterminated block
    s.capture.tokens.push(tokenOf(d.lexer.typeByName.get('Incomplete')!, s.pending, unplaced))
    s.capture.length += s.pending.length
    s.pending = ''
    s.carry = null
  }
  // a tail that is a whole delimiter now the stream is over (`</|DSML|tool_calls|` could have grown to `||`) is lexed as one
  if (s.pending !== '' || s.carry !== null) d.runs.lexWindow(s.pending, true)
  const cut = cutCdata(d)
  if (cut !== null) d.runs.run({ text: cut.text, base: cut.base, mode: modes.value, md: s.md, lineState: s.lineState, carry: null }, true)
  // end of stream ends the paragraph: a held tag is live
  while (s.hold !== null) {
    const h = s.hold
    s.hold = null
    if (s.mode === modes.fenceInfoHold) {
      // the opener line ended with the stream and no backtick: a fence, and the tag was in its info string
      if (!h.givenUp) d.out.text(h.parts.join(''))
      break
    }
    if (h.givenUp) continue
    const held = h.parts.join('')
    d.holds.halted(h.start + held.length)
    const after = d.holds.afterParagraph(s.mode, s.md)
    d.runs.run({ text: held, base: h.start, mode: after.mode, md: after.md, lineState: h.lineState, carry: null }, true)
  }
  if (s.capture !== null) endCapture(d)
}
