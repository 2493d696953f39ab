/**
 * The blank lines a model writes around a tool-call block, and after its
 * reasoning. DeepSeek's encoder puts the block after the content and
 * `\n\n`, and the answer after `</think>` and `\n\n`; models add line
 * breaks after a block too. Once the block is a call (or the reasoning has
 * its own part), that whitespace belongs to nothing, and an answer shown on
 * its own would start or end in blank lines.
 *
 * ```
 * > | Let me check.\n\n<｜DSML｜tool_calls>…</｜DSML｜tool_calls>\n\nDone.
 *                  ^^^^ dropped: before a call      ^^ dropped: line breaks after it
 * > | <think>plan</think>\n\nHello
 *                        ^^^^ dropped: line breaks after the reasoning
 * ```
 *
 * Streaming makes this a hold: whitespace at the end of the text so far may
 * stand before a block (dropped) or before more text (kept), and only the
 * next event says which. Only spaces, tabs and line breaks are ever held or
 * dropped, and only next to a call or after the reasoning; everything else
 * goes through at once. Every adapter trims through this one class (via the
 * action sieve), so a completion reads the same on every wire.
 */

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/** Index where the trailing run of spaces, tabs and line breaks of `s` begins (`s.length` when there is none). */
function trailingSpace(s: string): number {
  let i = s.length
  while (i > 0 && isSpace(s.charCodeAt(i - 1))) i--
  return i
}

/**
 * Holds whitespace that may stand next to a call. Feed it the text events
 * and tell it about each call; what it returns is the content to send.
 */
export class BlankLineTrimmer {
  /**
   * Whitespace at the end of the text so far, not yet sent: kept as pieces
   * (never `held + chunk`), since a model can write many blank lines, one
   * chunk at a time, before it decides what follows.
   */
  private held: string[] = []
  /**
   * The last thing was a call: held whitespace is what follows its block, so
   * the next text drops it up to its last line break (the block's line and
   * the blank lines after it) and keeps the indentation after that.
   */
  private afterCall = false
  /**
   * The reasoning just ended and no text came since: the whitespace held is
   * what follows `</think>`, dropped up to its last line break as after a
   * call, the answer's own indentation kept. Unlike after a call, nothing of
   * it is a separator: the reasoning is not in the content.
   */
  private afterReasoning = false
  /** With `oneText`: the whitespace that stood before the first call since the last text, the separator if text follows. */
  private gap: string | null = null
  /** Text other than whitespace went out. */
  private sent = false

  /**
   * `oneText`: the text before and after a call ends up in one string (an
   * OpenAI `content`), so the whitespace before the block stays between them
   * ("Reading.\n\n" + "Done.", not "Reading.Done."); where text goes into
   * parts of its own around the call, nothing stands between them.
   */
  constructor(private readonly oneText = false) {}

  /** Text from the sieve; returns what can be sent now (possibly `''`). */
  text(text: string): string {
    const cut = trailingSpace(text)
    if (cut === 0) {
      if (text !== '') this.held.push(text)
      return ''
    }
    // the text's own leading whitespace joins what is held: after a call it is the block's line end and blank lines
    let lead = 0
    while (isSpace(text.charCodeAt(lead))) lead++
    if (lead > 0) this.held.push(text.slice(0, lead))
    const gap = this.afterCall && this.sent && this.gap !== null ? this.gap : ''
    const before = gap + this.release()
    this.afterCall = false
    this.afterReasoning = false
    this.gap = null
    this.sent = true
    if (cut < text.length) this.held.push(text.slice(cut))
    return before + text.slice(lead, cut)
  }

  /** A call was emitted where the held whitespace ends: that whitespace stood around a block, so it goes. */
  call(): void {
    if (this.oneText && this.gap === null) this.gap = this.afterCall ? '' : this.held.join('')
    this.held = []
    this.afterCall = true
  }

  /**
   * The reasoning ended where the held whitespace ends: what follows, up to
   * the first text, is the line breaks after `</think>`. Whitespace held
   * from before the reasoning stood before nothing the content shows, so it
   * goes with them.
   */
  reasoningEnd(): void {
    if (this.sent) return
    this.held = []
    this.afterReasoning = true
  }

  /** The content is over: returns what is still held and sendable. Whitespace after the last call, or after the reasoning with no answer, goes; other whitespace stays. */
  end(): string {
    if (this.afterCall || this.afterReasoning) {
      this.afterReasoning = false
      this.held = []
      this.gap = null
      return ''
    }
    const out = this.held.join('')
    this.held = []
    return out
  }

  /** Held whitespace before text that is not whitespace: all of it, or after a call what follows its last line break. */
  private release(): string {
    if (this.held.length === 0) return ''
    const all = this.held.join('')
    this.held = []
    if (!this.afterCall && !this.afterReasoning) return all
    const lastBreak = Math.max(all.lastIndexOf('\n'), all.lastIndexOf('\r'))
    return lastBreak === -1 ? all : all.slice(lastBreak + 1)
  }
}
