/**
 * The text parts a Responses stream reads, each through its own sieve into
 * the items it becomes (`TextPartItems`), and the events passed through
 * while they read: each stands after the text every open part held from
 * before it, and what a part makes after it waits behind it (see `Lanes`).
 * What is read, passed through and numbered is decided in
 * `responses-stream.ts`.
 */
import {
  abortedText,
  AnswerSieves,
  Lanes,
  NativeConflictGate,
  type ActionSieve,
  type AdapterAction,
  type Barrier,
  type Passed,
  type ResolvedAdapterOptions,
} from '../adapters/index.js'
import { CallItemIds, holdIds } from './ids.js'
import { TextPartItems, type ItemSink } from './responses-items.js'

export type AnyEvent = Record<string, unknown> & { type: string }

/** One upstream output_text part: its sieve, the items it becomes, its gate against native calls. */
export interface TextPart {
  sieve: ActionSieve
  items: TextPartItems
  gate: NativeConflictGate
  ended: boolean
  /** An error event cut it: text upstream still sends for it goes on in its items, raw (see `TextPartItems.late`). */
  cut: boolean
  /** What waits at the sieve's marks, in order (see {@link Make}). */
  waiting: Array<Barrier<Make>>
}

/**
 * An event passed through while text parts held text from before it (a
 * server that starts an item before its message's done, a chunk passed
 * unread): it waits for each of them to give that text out, so it does not
 * go out ahead of it, and what each makes after it waits behind it (see
 * `Lanes`). It is made when it goes out (its output index mapped in the
 * order things go out).
 */
type Make = () => AnyEvent | Passed

export class TextParts {
  /** Text parts by `item_id:content_index`. */
  private readonly parts = new Map<string, TextPart>()
  /** The events passed through, each between what every open part sent before it and what it sends after it. */
  private readonly lanes: Lanes<TextPart, Make>
  /** The parts' sieves: only the response's first part starts in the reasoning (`thinking`), and call ids are unique over all of them. */
  private readonly sieves: AnswerSieves
  /** The response's item ids: a function_call item's is unique in it, beside upstream's items' too. */
  private readonly itemIds = new CallItemIds()
  /** A native function_call item came: a part that opens later has its gate told. */
  private native = false

  /**
   * @param sink what the parts' items are written into
   * @param write writes an event passed through, when its turn comes
   */
  constructor(
    private readonly resolved: ResolvedAdapterOptions,
    private readonly sink: ItemSink,
    write: (event: AnyEvent | Passed) => void,
  ) {
    this.lanes = new Lanes<TextPart, Make>((make) => write(make()))
    this.sieves = new AnswerSieves(resolved)
  }

  get(key: string): TextPart | undefined {
    return this.parts.get(key)
  }

  /** A text part of a held message: read through its own sieve (the first one starts in the reasoning with `thinking`). */
  open(key: string, message: Record<string, unknown> & { id: string }): TextPart {
    const sieve = this.sieves.next()
    const gate = new NativeConflictGate(this.resolved.onConflict)
    if (this.native) gate.sawNative()
    const part: TextPart = { sieve, items: new TextPartItems(this.sink, message, this.itemIds), gate, ended: false, cut: false, waiting: [] }
    this.parts.set(key, part)
    // a part that opens now is after every event passed before it, even one still waiting for another part's held text
    this.lanes.join(part)
    return part
  }

  /** A native function_call item came: every part's gate, and those of parts opened later, know it. */
  sawNative(): void {
    this.native = true
    for (const p of this.parts.values()) p.gate.sawNative()
  }

  /**
   * An item upstream sent (added or done), as it is read: a rescued call
   * that starts later takes neither its item id nor, unless it is a native
   * function_call, its `call_id`. One that started before it went out with
   * its id already, which cannot change.
   */
  sawItem(item: unknown): void {
    holdIds(item, this.sieves, this.itemIds)
  }

  /** Passes an event through, after the text the open parts hold from before it (a part that opens later joins behind it: {@link open}). */
  pass(make: Make): void {
    const holding = [...this.parts.values()].filter((p) => !p.ended)
    const wait = this.lanes.wait(holding.length, make)
    for (const p of holding) {
      p.waiting.push(wait)
      this.writePart(p, p.sieve.mark())
    }
  }

  /** A text delta of an open part, read through its sieve. */
  push(part: TextPart, text: string | undefined, logprobs: unknown[]): void {
    this.writePart(part, part.gate.pass(part.sieve.push(text)), logprobs)
  }

  /** A text delta of a part an error event cut: raw, in its items. */
  late(part: TextPart, text: string, logprobs: unknown[]): void {
    this.toItems(part, (items) => items.late(text, logprobs))
  }

  /** The part's text is done: what its sieve held goes out, and its items close (its rescued calls may wait for {@link finish}). */
  end(part: TextPart): void {
    if (part.ended) return
    this.closePart(part, () => part.gate.pass(part.sieve.end()), false)
  }

  /** A held message's item is done: its parts end. False when it had none (its text never came as deltas). */
  endMessage(id: string): boolean {
    const own = [...this.parts].filter(([k]) => k.startsWith(`${id}:`))
    for (const [, p] of own) this.end(p)
    return own.length > 0
  }

  /** The response is over: every part ends, then the rescued calls `prefer-native` held go out unless a native call came. */
  finish(): void {
    for (const part of this.parts.values()) this.end(part)
    for (const part of this.parts.values()) this.writePart(part, part.gate.finish())
  }

  /**
   * The response broke off (an error event, a failed response, a malformed event, a cut stream): what each
   * part's sieve held goes out as text and reasoning, never as a call, and so do the rescued calls
   * `prefer-native` held, as their markup (`NativeConflictGate.abandon`), first. `close`: the items are closed as well (a
   * failed response, whose `output` lists them); else they stay open, as upstream's own do after an error,
   * and are listed as they stood if a failed response still follows.
   */
  abort(close: boolean): void {
    for (const part of this.parts.values()) {
      // a part that ended still holds its calls until the turn's end: nothing of a failed response runs, nor follows its end
      const held = part.gate.abandon()
      if (part.ended) {
        // its items closed at its end: the markup is a message item of its own, written and closed in one write of its
        // lane, not closePart's two: a lane held back queues at most maxMarks writes, and one more would release sooner
        if (held.length > 0)
          this.toItems(part, (items) => {
            items.write(held)
            closeItems(items, !close)
          })
        continue
      }
      this.closePart(part, () => [...held, ...abortedText(part.sieve.abort())], !close)
      part.cut = !close
    }
  }

  /** A part's sieve is done: the actions it gave last go into its items, which then close, or stay open as a break `cut` them. */
  private closePart(part: TextPart, last: () => AdapterAction[], cut: boolean): void {
    part.ended = true
    this.writePart(part, last())
    this.toItems(part, (items) => closeItems(items, cut))
  }

  /** Writes into a part's items in its lane: at once, or behind an event passed through whose mark it reached. */
  private toItems(part: TextPart, out: (items: TextPartItems) => void): void {
    this.lanes.write(part, () => out(part.items))
  }

  /** A part's actions, each mark in them its lane reaching what waited there. `logprobs` go on the first text. */
  private writePart(part: TextPart, actions: AdapterAction[], logprobs: unknown[] = []): void {
    let from = 0
    for (let i = 0; i < actions.length; i++) {
      if (actions[i]!.type !== 'mark') continue
      const before = actions.slice(from, i)
      const lp = logprobs
      if (before.length > 0) this.toItems(part, (items) => items.write(before, lp))
      if (before.some((a) => a.type === 'text')) logprobs = []
      from = i + 1
      this.lanes.reach(part, part.waiting.shift()!)
    }
    const rest = from === 0 ? actions : actions.slice(from)
    if (rest.length > 0) this.toItems(part, (items) => items.write(rest, logprobs))
  }
}

/** The part's items close with their cleaned text, or (`cut`) stay open as a break left them. */
const closeItems = (items: TextPartItems, cut: boolean): void => (cut ? items.cut() : items.end())
