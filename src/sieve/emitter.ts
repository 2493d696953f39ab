/** Collects the events of one `push()`/`end()`, merging adjacent text. */
import type { SieveEvent } from '../types.js'

export class Emitter {
  private events: SieveEvent[] = []
  // text since the last non-text event, joined once when taken (STYLE 5); most pushes carry one piece, kept without an array
  private first: string | null = null
  private rest: string[] | null = null

  text(s: string): void {
    if (s.length === 0) return
    if (this.first === null) this.first = s
    else (this.rest ??= []).push(s)
  }

  event(e: SieveEvent): void {
    this.flushText()
    this.events.push(e)
  }

  take(): SieveEvent[] {
    this.flushText()
    // the caller owns what it gets: an empty answer is a new array, not the one kept for the next push
    if (this.events.length === 0) return []
    const out = this.events
    this.events = []
    return out
  }

  private flushText(): void {
    if (this.first === null) return
    const text = this.rest === null ? this.first : this.first + this.rest.join('')
    this.events.push({ type: 'text', text })
    this.first = null
    this.rest = null
  }
}
