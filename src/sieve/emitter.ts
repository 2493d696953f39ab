/** Collects the events of one `push()`/`end()`, merging adjacent text. */
import type { SieveEvent } from '../types.js'

export class Emitter {
  /** Events so far, text before them flushed in; null until the first non-text event of this push. */
  private events: SieveEvent[] | null = null
  // text since the last non-text event, joined once when taken (docs/STYLE.md §5); most pushes carry one piece, kept without an array
  private first: string | null = null
  private rest: string[] | null = null
  /** Characters of the stream given out so far (text and the raw of calls): the rest is what a recovery must release. */
  emitted = 0

  text(s: string): void {
    if (s.length === 0) return
    this.emitted += s.length
    if (this.first === null) this.first = s
    else (this.rest ??= []).push(s)
  }

  event(e: SieveEvent): void {
    if (e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end') this.emitted += e.raw.length
    else if (e.type === 'reasoning') this.emitted += e.text.length
    this.flushText()
    ;(this.events ??= []).push(e)
  }

  /** The events since the last take; the caller owns the array. */
  take(): SieveEvent[] {
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

  /** The pending text as one event; the pending text is cleared. */
  private textEvent(): SieveEvent {
    const text = this.rest === null ? this.first! : this.first! + this.rest.join('')
    this.first = null
    this.rest = null
    return { type: 'text', text }
  }
}
