/**
 * The Anthropic adapter's decisions, one upstream event at a time.
 * Consecutive upstream text blocks are one text for the sieve (a fence
 * opened in one block hides a block in the next; a call may span blocks):
 * one action sieve per run of text blocks, ended when another kind of block
 * starts or the message ends, so nothing it held moves past a block that
 * follows. Its actions pass the turn's native-conflict gate and become
 * text, thinking and `tool_use` blocks: text read from an upstream block
 * goes into a text block of its own (text the sieve held across a block's
 * end comes out in the next one). Every other block passes through.
 * Synchronous, so the streaming and the whole-message entry points share it.
 */
import { abortedCallError, abortedText, AnswerSieves, NativeConflictGate, optionalString, record, type ActionSieve, type AdapterAction, type ResolvedAdapterOptions } from '../adapters/index.js'
import { CallOrder } from './call-order.js'
import { checkEvent } from './check-event.js'
import { PreferNativeHold, type Item } from './hold.js'
import { BlockWriter, type MessagesStreamEvent } from './writer.js'

export class MessagesMachine {
  private readonly writer = new BlockWriter()
  /** `'error'`: the shared gate throws at the first sign of both kinds of call. */
  private readonly gate: NativeConflictGate | null
  /** `'prefer-native'`: everything after the first rescued call waits, in order. */
  private readonly hold: PreferNativeHold | null
  /** The sieve of the run of upstream text blocks being read, and the upstream index of the run's latest block. */
  private sieve: ActionSieve | null = null
  private sieveIndex = -1
  /** Upstream has not stopped the block at {@link sieveIndex}: after an error, our text block for it stays open only while it is. */
  private sieveOpen = false
  /**
   * Upstream indexes of every text block read through a sieve. Upstream
   * may still send for one after the next block started (a late delta, or
   * its stop): its index names no block of ours, or another one (the
   * thinking made of its `<think>`), so what it sends goes into our text
   * block, and its stop closes nothing (ours closed when the next started).
   * A block of another kind that upstream starts at one of these indexes
   * takes the index over: what comes for it is that block's, not late text.
   */
  private readonly read = new Set<number>()
  /**
   * The upstream index of the block passed through that is open now (a
   * native `tool_use`, a thinking block), from its start to its stop. Late
   * text for a block read that comes inside it cannot open a text block of
   * ours there (one block open at a time): it waits in `late` for this
   * block's stop.
   *
   * ```
   * start(0 text) … stop(0) start(1 tool_use) delta(0 text) delta(1 json) stop(1)
   *                                           ^ waits       ^ passes      ^ then it goes out
   * ```
   */
  private passing: number | undefined
  /** The deltas and stops of blocks read that came while {@link passing} was open, in order. */
  private readonly late: Array<Extract<MessagesStreamEvent, { type: 'content_block_delta' | 'content_block_stop' }>> = []
  /**
   * The runs' sieves: only the first may start with reasoning (a later one
   * reads no `<think>` at all, nor starts in it), and call ids are unique
   * over all of them.
   */
  private readonly sieves: AnswerSieves
  /**
   * Deltas of an upstream text block other than its text (a
   * `citations_delta`), waiting at the sieve's marks for the text it held
   * when they came, so that they do not go out ahead of it.
   */
  private readonly waiting: Array<Extract<Item, { type: 'text-delta' }>> = []
  /** Upstream failed (an `error` event, or the stream broke off): what was held went out as text, and nothing is finished or repaired into calls. */
  private failed = false
  /** A streamed call's block is not stopped by the next call's start (see `CallOrder`). */
  private readonly order = new CallOrder((item) => this.apply(item))

  constructor(settings: ResolvedAdapterOptions) {
    this.sieves = new AnswerSieves(settings, { later: { reasoning: false } })
    const preferNative = settings.onConflict === 'prefer-native'
    this.gate = preferNative ? null : new NativeConflictGate('error')
    this.hold = preferNative ? new PreferNativeHold((item) => this.order.item(item)) : null
  }

  /** What to send for one upstream event. */
  event(event: MessagesStreamEvent): MessagesStreamEvent[] {
    checkEvent(event)
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block
        // after an error nothing more is read: a text block that still starts passes as upstream sent it
        if (block.type === 'text' && !this.failed) this.openText(event.index, block.text ?? '')
        else {
          // another kind of block ends the run of text: what the sieve held goes before it
          this.endRun()
          // before the native call is written: under 'error' a rescued call already out makes this throw
          if (block.type === 'tool_use') {
            this.gate?.sawNative()
            this.hold?.sawNative()
          }
          this.read.delete(event.index)
          this.out({ type: 'upstream', event })
          this.passing = event.index
        }
        break
      }
      case 'content_block_delta':
        if (!this.read.has(event.index)) this.out({ type: 'upstream', event })
        else if (!this.failed && this.sieve !== null && event.index === this.sieveIndex && event.delta.type === 'text_delta') this.write(this.sieve.push(event.delta.text))
        else this.lateEvent(event)
        break
      case 'content_block_stop':
        if (event.index === this.sieveIndex) this.sieveOpen = false
        if (this.read.has(event.index)) this.lateEvent(event)
        else {
          this.out({ type: 'upstream', event })
          // the block passed through is over: late text that waited for it goes out now, in order
          if (event.index === this.passing) this.flushLate()
        }
        break
      case 'message_delta':
        this.finish()
        this.writer.upstream(this.stopReason(event))
        break
      case 'message_stop':
        this.finish()
        this.writer.upstream(event)
        break
      case 'error':
        this.fail()
        this.writer.upstream(event)
        break
      default:
        this.out({ type: 'upstream', event })
    }
    return this.writer.take()
  }

  /** The upstream stream ended: flush what is held (a stream cut before `message_delta` still gets its blocks). */
  end(): MessagesStreamEvent[] {
    if (!this.failed) this.finish()
    // after an error upstream may end with its block still open: the late text that waited for it is not lost
    else this.flushLate()
    return this.writer.take()
  }

  /**
   * The upstream broke off (a malformed event, a failed source): what was
   * held goes out as text, in the block open now, and the message is left
   * unfinished for the error that follows.
   */
  abort(): MessagesStreamEvent[] {
    this.fail()
    this.flushLate()
    return this.writer.take()
  }

  /** Rescued calls whose `tool_use` block went out complete (not one an error cut). */
  get rescued(): number {
    return this.writer.complete
  }

  /** An upstream text block starts: a run starts, or the run goes on and our text block for the previous upstream block closes. */
  private openText(index: number, text: string): void {
    if (this.sieve === null) this.sieve = this.sieves.next()
    else this.out({ type: 'close', textOnly: true })
    this.sieveIndex = index
    this.sieveOpen = true
    this.read.add(index)
    if (text !== '') this.write(this.sieve.push(text))
  }

  /**
   * A delta or stop of a text block read that is not the sieve's text: one
   * of an earlier block of the run, or any after an error. It waits while a
   * block passed through is open (see {@link passing}). After an error the
   * writer routes it (see BlockWriter.abandon); before, a delta is not read
   * either (it does not stand where the sieve's text does, and markup in it
   * is no call) and a stop closes nothing: our text block stays open for
   * what the sieve still holds, and closes when the next block starts or
   * the message ends.
   */
  private lateEvent(event: Extract<MessagesStreamEvent, { type: 'content_block_delta' | 'content_block_stop' }>): void {
    if (this.passing !== undefined) this.late.push(event)
    else if (this.failed) this.out({ type: 'late', event })
    else if (event.type === 'content_block_delta') this.beside(event.delta)
  }

  /** The block passed through closed (or never will): what waited for it goes out, in order. */
  private flushLate(): void {
    this.passing = undefined
    for (const event of this.late.splice(0)) this.lateEvent(event)
  }

  /** A delta of a text block read that is not the sieve's text: raw, in our text block, after the text the sieve held when it came. */
  private beside(delta: Extract<Item, { type: 'text-delta' }>['delta']): void {
    if (this.sieve === null) return this.out({ type: 'text-delta', delta })
    this.waiting.push({ type: 'text-delta', delta })
    this.write(this.sieve.mark())
  }

  /** The run of text blocks is over: the sieve gives out what it held, and the open block closes. */
  private endRun(): void {
    if (this.sieve === null) return
    const sieve = this.sieve
    this.sieve = null
    this.write(sieve.end())
    this.out({ type: 'close' })
  }

  /**
   * Upstream failed: what the sieve held is text (and thinking), never a
   * call, and so is what `prefer-native` held after a rescued call, the
   * rescued calls as their markup. A call whose input was streaming stays open,
   * never stopped (see BlockWriter.cutCall). Nothing more is read or
   * rescued: a text block of ours stays open while upstream's block for it
   * is (see BlockWriter.abandon), and the writer adds nothing after the
   * error but the stops upstream's own events call for.
   */
  private fail(): void {
    if (this.failed) return
    this.failed = true
    const sieve = this.sieve
    this.sieve = null
    // the call the error cut stays open, unstopped: what the sieve held goes in a text block after it
    this.writer.cutCall()
    this.order.cut()
    // a started call's abort is no error here: the message fails anyway
    if (sieve !== null) this.write(abortedText(sieve.abort()))
    this.hold?.abandon()
    // what upstream still sends for the blocks read goes on in our text block, raw; a block upstream already stopped is not being read
    this.writer.abandon(sieve !== null && this.sieveOpen ? this.sieveIndex : undefined)
  }

  /** The message is over: every block closes, and the rescued calls `prefer-native` held go out unless a native call came. */
  private finish(): void {
    // upstream ended the message with its block still open: the late text that waited for it goes now, even after
    // a failure, since nothing may follow message_stop
    this.flushLate()
    if (this.failed) return
    this.endRun()
    this.hold?.finish()
    this.writer.close()
  }

  private write(actions: AdapterAction[]): void {
    for (const a of actions) this.out(a.type === 'mark' ? this.waiting.shift()! : a)
  }

  /** Everything written goes through here, so that `prefer-native` can hold it in order. */
  private out(item: Item): void {
    if (this.hold !== null) return this.hold.item(item)
    // under 'error' a rescued call after a native one throws here, before it is written
    if (this.gate !== null && item.type.startsWith('call-')) this.gate.pass([item as AdapterAction])
    this.order.item(item)
  }

  private apply(a: Item): void {
    const w = this.writer
    switch (a.type) {
      case 'upstream':
        return w.upstream(a.event)
      case 'text-delta':
        return w.textDelta(a.delta)
      case 'late':
        return w.late(a.event)
      case 'close':
        return w.close(a.textOnly === true)
      case 'text':
        return w.text(a.text)
      case 'reasoning-start':
        return
      case 'reasoning':
        return w.thinking(a.text)
      case 'reasoning-end':
        return w.close()
      case 'call-start':
        return w.callStart(a.id, a.name)
      case 'call-delta':
        return w.callDelta(a.id, a.delta)
      case 'call-end':
        return w.callEnd(a.id)
      case 'call-abort':
        // its start went out: the wire cannot take a tool_use block back
        if (w.calls.has(a.id)) throw abortedCallError(a)
        return
    }
  }

  /** `end_turn` (or a stop sequence) with rescued calls out complete is a tool-use turn; `max_tokens` and the like stay, as the API does for a cut call (and so for one an error cut). */
  private stopReason(event: Extract<MessagesStreamEvent, { type: 'message_delta' }>): MessagesStreamEvent {
    if (this.writer.complete === 0) return event
    const reason = optionalString(record(event.delta, 'delta').stop_reason, 'delta.stop_reason')
    if (!(reason === 'end_turn' || reason === 'stop_sequence' || reason === undefined)) return event
    return { ...event, delta: { ...event.delta, stop_reason: 'tool_use', stop_sequence: null } }
  }
}
