/**
 * Deferred tag text. Inside a capture nothing goes out until the block
 * completes or breaks, so a chunk that can do neither need not be lexed
 * yet. Within a tag's attributes (`name="path" string="true"`) name
 * characters, spaces, `=` and quotes only move between the tag and its
 * quoted values, and inside quotes anything but the closing quote is value
 * text: no such chunk can end the tag, break it, or touch the Markdown
 * guard. Those chunks are appended to the pending text and lexed together
 * with the chunk that can (`">`, a stray `!`), so a tag costs one lexer run
 * instead of one per chunk. The events are the same and leave no later:
 * deferred text would have sat in the capture anyway.
 */
import { codes } from '../lexer/codes.js'
import { modes, type ModeName } from '../lexer/modes.js'

/** Where a character leaves the attribute reader: in the tag, or inside a double or single quote. */
type Quote = 0 | 1 | 2
const inTag = 0
const inDq = 1
const inSq = 2
/** Not deferrable from here. */
const stop = -1

const quoteOf: Partial<Record<ModeName, Quote>> = {
  [modes.tagWrapper]: inTag,
  [modes.tagInvoke]: inTag,
  [modes.tagParameter]: inTag,
  [modes.attrDqWrapper]: inDq,
  [modes.attrDqInvoke]: inDq,
  [modes.attrDqParameter]: inDq,
  [modes.attrSqWrapper]: inSq,
  [modes.attrSqInvoke]: inSq,
  [modes.attrSqParameter]: inSq,
}

/** Characters a tag's attribute list reads as spaces, names or `=` (the tag modes' Ws, AttrName and Eq tokens). */
const tagSafe = new Uint8Array(128)
for (const c of ' \t\r\n=_.:-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') tagSafe[c.charCodeAt(0)] = 1

/** Most text kept unlexed: attributes are short; past this the lexer takes over as before. */
export const deferLimit = 1024

/** The quote state after `text` read from `from`, or `stop` if some character could end or break the tag. */
function readAttributes(text: string, from: Quote): Quote | typeof stop {
  let q: Quote = from
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (q === inTag) {
      if (c === codes.quotationMark) q = inDq
      else if (c === codes.apostrophe) q = inSq
      else if (c >= 128 || tagSafe[c] === 0) return stop
    } else if (c === (q === inDq ? codes.quotationMark : codes.apostrophe)) q = inTag
  }
  return q
}

/**
 * Tracks the deferred text of one driver. `pending` is the driver's held
 * text; the tracker remembers which pending string it produced, so a tail
 * the lexer held (`｜` of a `｜>` tag end) is read once before deferring on.
 */
export class Deferral {
  private mine: string | null = null
  private mineMode: ModeName | null = null
  private quote: Quote = inTag

  /** The lexer took the pending text: whatever is pending next is the lexer's. */
  reset(): void {
    this.mine = null
  }

  /** The new pending text if `chunk` can wait, else null (lex `pending + chunk` now). */
  take(mode: ModeName, pending: string, chunk: string): string | null {
    const start = quoteOf[mode]
    if (start === undefined || pending.length + chunk.length > deferLimit) return null
    let q: Quote | typeof stop = pending === this.mine && mode === this.mineMode ? this.quote : readAttributes(pending, start)
    if (q === stop) return null
    q = readAttributes(chunk, q)
    if (q === stop) return null
    this.quote = q
    this.mineMode = mode
    this.mine = pending + chunk
    return this.mine
  }
}
