/**
 * A streamed call's `sent` text, grown by one delta at a time without
 * holding one string per delta (`streamArguments`: a block of 40,000
 * parameters sends about three deltas each).
 */
import type { StreamedCall } from './call-stream-state.js'

/** A call's `sent` as it grows: `whole` is `head` and then `parts`, whose lengths add up to `size`. */
export interface Growth {
  head: string
  parts: string[]
  size: number
  whole: string
}

/**
 * `c.sent + piece`. `+` makes a string that points at both, so a `sent`
 * grown by `+` alone would be two strings per delta, all held to the
 * block's end. The pieces since the last join are also kept in a list;
 * once they pass an eighth of the head (4 KiB at least) the list is joined
 * into one flat string added to the head. Each piece is copied once, and
 * `sent` is a short chain of flat strings. (Making the whole `sent` flat
 * instead copied it about nine times over, and flattening a chain of many
 * small pieces is slow.) `growth` is kept beside the state, not in it: a
 * checkpoint carries `sent` alone.
 */
export function grown(growth: WeakMap<StreamedCall, Growth>, c: StreamedCall, piece: string): string {
  const sent = c.sent
  let g = growth.get(c)
  // a call read before a checkpoint was restored, or one not grown yet
  if (g === undefined || g.whole !== sent) growth.set(c, (g = { head: sent, parts: [], size: 0, whole: sent }))
  g.parts.push(piece)
  g.size += piece.length
  if (g.size <= Math.max(4096, g.head.length >> 3)) return (g.whole = g.whole + piece)
  // a join of two or more strings writes them into one new string (of one, it returns that string)
  g.head = g.head + g.parts.join('')
  g.parts = []
  g.size = 0
  return (g.whole = g.head)
}
