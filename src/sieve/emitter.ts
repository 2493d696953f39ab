/** Collects the events of one `push()`/`end()`, merging adjacent text. */
import type { SieveEvent } from '../types.js'

export class Emitter {
  private events: SieveEvent[] = []
  // text fragments since the last non-text event, joined once when taken (STYLE 5)
  private texts: string[] = []

  text(s: string): void {
    if (s.length > 0) this.texts.push(s)
  }

  event(e: SieveEvent): void {
    this.flushText()
    this.events.push(e)
  }

  take(): SieveEvent[] {
    this.flushText()
    const out = this.events
    this.events = []
    return out
  }

  private flushText(): void {
    if (this.texts.length === 0) return
    this.events.push({ type: 'text', text: this.texts.length === 1 ? this.texts[0]! : this.texts.join('') })
    this.texts = []
  }
}
