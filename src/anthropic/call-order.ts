/**
 * With `streamArguments`, the sieve starts each invoke of a block as a call
 * as soon as its name is read, and ends them all when the block closes:
 * `start a`, `delta a`, `start b`, `delta b`, then `end a`, `end b`. The
 * Messages wire has one block open at a time, so starting `b`'s `tool_use`
 * block would stop `a`'s, and the SDK reports a stopped block as a finished
 * call: an error before the block closes (the invokes then being text) would
 * leave `a` looking finished. A call that starts while another's block is
 * still taking its input waits, with all that follows it, for that call's
 * end; it streams from then on.
 */
import type { Item } from './hold.js'

export class CallOrder {
  /** The rescued call whose `tool_use` block is open and not yet ended. */
  private streaming: string | null = null
  /** What came from the next call's start on, while {@link streaming} has not ended. */
  private queued: Item[] | null = null

  constructor(private readonly apply: (item: Item) => void) {}

  item(item: Item): void {
    const ends = (item.type === 'call-end' || item.type === 'call-abort') && item.id === this.streaming
    if (this.queued !== null && !ends) {
      this.queued.push(item)
      return
    }
    if (item.type === 'call-start' && this.streaming !== null) {
      this.queued = [item]
      return
    }
    this.apply(item)
    if (item.type === 'call-start') this.streaming = item.id
    else if (ends) {
      this.streaming = null
      const queued = this.queued ?? []
      this.queued = null
      for (const q of queued) this.item(q)
    }
  }

  /**
   * Upstream failed: the call streaming stays open, unstopped, and the calls
   * waiting behind it never start (the sieve gives their markup as text);
   * anything else that waited goes out.
   */
  cut(): void {
    const queued = this.queued ?? []
    this.queued = null
    this.streaming = null
    for (const q of queued) if (!q.type.startsWith('call-')) this.apply(q)
  }
}
