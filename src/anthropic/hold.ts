/**
 * `onConflict: 'prefer-native'` for the Messages wire, where blocks are in
 * order: from a message's first rescued call on, everything the adapter
 * would write is held, in order, until the message ends (then all of it goes
 * out) or a native `tool_use` block starts (then all of it but the rescued
 * calls goes out). The shared `NativeConflictGate` holds only the calls and
 * lets the text after them go first; here that would join the text before
 * and after a call into one block, and move the call after both.
 */
import type { RawContentBlockDeltaEvent } from '@anthropic-ai/sdk/resources/messages/messages'
import type { AdapterAction } from '../adapters/index.js'
import type { MessagesStreamEvent } from './writer.js'

/** Whatever the machine writes, as data, so that it can wait. */
export type Item =
  | AdapterAction
  | { type: 'close'; textOnly?: boolean }
  | { type: 'upstream'; event: MessagesStreamEvent }
  | { type: 'text-delta'; delta: RawContentBlockDeltaEvent['delta'] }
  /** After a failure, a delta or stop upstream sends for a text block read (see BlockWriter.late). */
  | { type: 'late'; event: Extract<MessagesStreamEvent, { type: 'content_block_delta' | 'content_block_stop' }> }

const callId = (item: Item): string | null =>
  item.type === 'call-start' || item.type === 'call-delta' || item.type === 'call-end' || item.type === 'call-abort' ? item.id : null

export class PreferNativeHold {
  /** A native tool_use block came: rescued calls from now on are dropped. */
  private native = false
  /** Held items, from the first rescued call on; null while nothing is held. */
  private held: Item[] | null = null

  constructor(private readonly write: (item: Item) => void) {}

  /** An item in stream order: written, held, or (a rescued call's, after a native call) dropped. */
  item(item: Item): void {
    const id = callId(item)
    if (id !== null) {
      if (this.native) return
      if (item.type === 'call-abort') {
        // nothing of a held call went out: it is taken out with its pieces, and no error is due
        if (this.held !== null) this.held = this.held.filter((h) => callId(h) !== id)
        return
      }
      this.held ??= []
    }
    if (this.held !== null) this.held.push(item)
    else this.write(item)
  }

  /** A native tool_use block starts (before it is written): the held items go out without the rescued calls. */
  sawNative(): void {
    this.native = true
    this.release(true)
  }

  /** The message is over: the held items go out, rescued calls included (no native call came). */
  finish(): void {
    this.release(false)
  }

  /**
   * Upstream failed: the held items go out, each rescued call as the markup
   * it was read from, as text where it stood. A call must not run from a
   * failed message, and with no native call to stand for it, dropping it
   * would lose its text. (Blank lines trimmed around it as a call stay
   * trimmed: the sieve dropped them before the call came here.)
   */
  abandon(): void {
    const held = this.held
    this.held = null
    for (const item of held ?? []) {
      if (item.type === 'call-end') this.write({ type: 'text', text: item.call.raw })
      else if (callId(item) === null) this.write(item)
    }
  }

  private release(dropCalls: boolean): void {
    const held = this.held
    this.held = null
    if (held !== null) for (const item of held) if (!dropCalls || callId(item) === null) this.write(item)
  }
}
