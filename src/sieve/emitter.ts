/** Collects the events of one `push()`/`end()`, merging adjacent text. */
import type { SieveEvent } from '../types.js'

export class Emitter {
  /** Events so far, text before them flushed in; null until the first non-text event of this push. */
  private events: SieveEvent[] | null = null
  // text since the last non-text event, joined once when taken (docs/STYLE.md §5); most pushes carry one piece, kept without an array
  private first: string | null = null
  private rest: string[] | null = null
  /** The text a slice is being grown in (`slice`), and its bounds; null: none. */
  private src: string | null = null
  private from = 0
  private to = 0
  /** Characters of the stream given out so far (text and the raw of calls): the rest is what a recovery must release. */
  emitted = 0

  /**
   * Text that is `src[from, to)`, a token of a lexer run over `src`: a run's
   * consecutive text tokens come out as one slice of its text, not as their
   * images joined (a held paragraph released is tens of thousands of them).
   */
  slice(src: string, from: number, to: number): void {
    if (to <= from) return
    this.emitted += to - from
    if (this.src === src && this.to === from) {
      this.to = to
      return
    }
    this.settle()
    this.src = src
    this.from = from
    this.to = to
  }

  text(s: string): void {
    if (s.length === 0) return
    this.emitted += s.length
    // text spelled as the slice's source goes on where the slice stops (a block the run read, released as text):
    // the slice grows over it, the same characters either way, and no piece of its own is kept
    if (this.src !== null && this.src.startsWith(s, this.to)) {
      this.to += s.length
      return
    }
    this.settle()
    this.add(s)
  }

  event(e: SieveEvent): void {
    if (e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end') this.emitted += e.raw.length
    else if (e.type === 'reasoning') this.emitted += e.text.length
    this.settle()
    this.flushText()
    ;(this.events ??= []).push(e)
  }

  /** The events since the last take; the caller owns the array. */
  take(): SieveEvent[] {
    this.settle()
    // most pushes give one text event or none: an array of exactly that, not one grown by a push
    if (this.events === null) return this.first === null ? [] : [this.textEvent()]
    this.flushText()
    const out = this.events
    this.events = null
    return out
  }

  private flushText(): void {
    if (this.first !== null) (this.events ??= []).push(this.textEvent())
  }

  /** The slice being grown (`slice`), if any: into the pending text. */
  private settle(): void {
    if (this.src === null) return
    this.add(this.src.substring(this.from, this.to))
    this.src = null
  }

  private add(s: string): void {
    if (this.first === null) this.first = s
    else (this.rest ??= []).push(s)
  }

  /** The pending text as one event; the pending text is cleared. */
  private textEvent(): SieveEvent {
    const text = this.rest === null ? this.first! : this.first! + this.rest.join('')
    this.first = null
    this.rest = null
    return { type: 'text', text }
  }
}
