/**
 * Writes the Messages stream the adapter sends: content blocks numbered in
 * the order they open, whether they are text and thinking made from the
 * sieve's events, rescued `tool_use` blocks, or upstream blocks passed
 * through. It only writes; what to write is decided in `machine.ts`.
 */
import type { RawContentBlockDeltaEvent, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages'

/** `ping`, which the API sends between events. */
export interface PingEvent {
  type: 'ping'
}

/** An `error` event of the stream (`overloaded_error` mid-stream, say). */
export interface StreamErrorEvent {
  type: 'error'
  error: { type: string; message: string }
}

/** An event of an Anthropic Messages stream, as the API sends it (`ping` and `error` included, which the SDK's own iterator leaves out). */
export type MessagesStreamEvent = RawMessageStreamEvent | PingEvent | StreamErrorEvent

/** The block that is open now, if the adapter made it. */
type Open = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool_use'; index: number; id: string } | null

export class BlockWriter {
  /** Events written since the last {@link take}. */
  private out: MessagesStreamEvent[] = []
  /** The index the next block gets. */
  private next = 0
  /** The adapter's open block; upstream blocks are not tracked, since upstream opens and closes them itself. */
  private open: Open = null
  /** Upstream index → ours, for the blocks passed through (their deltas and stop carry the upstream index). */
  private readonly upstreamIndex = new Map<number, number>()
  /** Rescued calls whose block went out, by id, with their index: a late delta still finds its block. */
  readonly calls = new Map<string, number>()
  /** Rescued calls that ended complete: only these make a tool-use turn, not one an error cut (see {@link cutCall}). */
  private ended = 0
  /**
   * After a failure (see {@link abandon}): the upstream text block the
   * adapter was reading while upstream has it open, and our text block late
   * text goes into (the one the failure left open, or one started for it).
   */
  private cut: { reading: number | undefined; index: number | undefined } | undefined

  /** Adds to the open text block, opening one if needed. */
  text(text: string): void {
    if (text === '') return
    const index = this.ensure('text')
    this.out.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })
  }

  /** Adds to the open thinking block, opening one if needed. */
  thinking(thinking: string): void {
    if (thinking === '') return
    const index = this.ensure('thinking')
    this.out.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })
  }

  /** A delta of an upstream text block other than its text (a `citations_delta`): it belongs to the text block we write. */
  textDelta(delta: RawContentBlockDeltaEvent['delta']): void {
    this.out.push({ type: 'content_block_delta', index: this.ensure('text'), delta })
  }

  /** Closes the open block, if the adapter made one (with `textOnly`, if it is a text block: a thinking or tool_use block goes on). */
  close(textOnly = false): void {
    if (this.open === null || (textOnly && this.open.kind !== 'text')) return
    this.out.push({ type: 'content_block_stop', index: this.open.index })
    this.open = null
  }

  /**
   * The message failed while a rescued call's input was streaming: its
   * `tool_use` block is left open for good, as upstream leaves a native call
   * an error cut. A stop would make the SDK report it as a finished
   * `contentBlock`, its input the piece that came, and whoever runs calls
   * as they finish would run it; the error that follows is what says it is
   * cut. Called before the sieve's held text is written, which would close
   * the block to open a text block.
   */
  cutCall(): void {
    if (this.open?.kind === 'tool_use') this.open = null
  }

  /**
   * The message failed: an open text block stays open, as upstream's own do
   * after an error, for as long as upstream's block for it could: while
   * `reading`, the upstream text block the adapter was reading and upstream
   * has not stopped, is open. It closes only where upstream's events say
   * that block is over (see {@link late}, {@link endCut}); a thinking block
   * closes now, since nothing after the error is read as reasoning and it
   * could take nothing more.
   *
   * What upstream still sends for the text blocks read (see {@link late}) is
   * its own, raw, but upstream's index names no block of ours (or another
   * one: a thinking block made from its `<think>`): it goes on in the text
   * block the error left open, or in a text block started for it when none
   * was, which the stop of `reading` closes (the earlier ones' stops close
   * nothing: ours for them closed when the next started).
   */
  abandon(reading: number | undefined): void {
    if (this.open?.kind === 'thinking') this.close()
    this.cut = { reading, index: this.open?.kind === 'text' ? this.open.index : undefined }
    this.open = null
  }

  /** Rescued calls whose `tool_use` block went out complete. */
  get complete(): number {
    return this.ended
  }

  /** Opens a rescued call's `tool_use` block; its input comes as deltas. */
  callStart(id: string, name: string): void {
    this.close()
    const index = this.next++
    this.open = { kind: 'tool_use', index, id }
    this.calls.set(id, index)
    // the API's own shape: input is {} at the start and is made of the input_json_deltas
    this.out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {}, caller: { type: 'direct' } } })
  }

  /** The next piece of a rescued call's input JSON. */
  callDelta(id: string, partial: string): void {
    const index = this.calls.get(id)
    if (index === undefined || partial === '') return
    this.out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } })
  }

  /** A rescued call is complete: its block closes, unless another block already closed it. */
  callEnd(id: string): void {
    this.ended++
    if (this.open?.kind === 'tool_use' && this.open.id === id) this.close()
  }

  /** An upstream event, written with its block index mapped to ours. */
  upstream(event: MessagesStreamEvent): void {
    if (event.type === 'content_block_start') {
      this.close()
      this.endCut(event.index)
      const index = this.next++
      this.upstreamIndex.set(event.index, index)
      this.out.push({ ...event, index })
    } else if (event.type === 'content_block_delta' || event.type === 'content_block_stop') {
      this.out.push({ ...event, index: this.upstreamIndex.get(event.index) ?? event.index })
    } else {
      if (event.type === 'message_delta' || event.type === 'message_stop') this.endCut()
      this.out.push(event)
    }
  }

  /** After a failure, a delta or stop of an upstream text block the adapter read (see {@link abandon}). */
  late(event: Extract<MessagesStreamEvent, { type: 'content_block_delta' | 'content_block_stop' }>): void {
    const cut = this.cut!
    if (event.type === 'content_block_stop') {
      // a stop of an earlier block: its text went out in blocks of ours already, and there is nothing to close
      if (event.index !== cut.reading) return
      cut.reading = undefined
      if (cut.index !== undefined) this.out.push({ ...event, index: cut.index })
      cut.index = undefined
      return
    }
    if (cut.index === undefined) {
      cut.index = this.next++
      this.out.push({ type: 'content_block_start', index: cut.index, content_block: { type: 'text', text: '', citations: null } })
    }
    this.out.push({ ...event, index: cut.index })
  }

  /**
   * Upstream starts a block after the failure (`index`), or ends the
   * message: our text block for late text closes first unless upstream's
   * block for it is still open (then two are open because upstream left
   * them so, and ours mirrors it). Otherwise the SDK, which reports each
   * delta with the last block started, would read later late text as that
   * block's, and the final message would hold it ahead of text streamed
   * before it; at the message's end no block upstream stopped stays open.
   * A start at the index being read means upstream is done with that block.
   */
  private endCut(index?: number): void {
    const cut = this.cut
    if (cut === undefined) return
    if (index === cut.reading) cut.reading = undefined
    if (cut.reading !== undefined || cut.index === undefined) return
    this.out.push({ type: 'content_block_stop', index: cut.index })
    cut.index = undefined
  }

  /** The events written so far, handed over once. */
  take(): MessagesStreamEvent[] {
    const out = this.out
    this.out = []
    return out
  }

  private ensure(kind: 'text' | 'thinking'): number {
    if (this.open?.kind === kind) return this.open.index
    this.close()
    const index = this.next++
    this.open = { kind, index }
    this.out.push({
      type: 'content_block_start',
      index,
      // a rescued thinking block has no signature: it was not signed by Anthropic, so none is invented (see the README)
      content_block: kind === 'text' ? { type: 'text', text: '', citations: null } : { type: 'thinking', thinking: '', signature: '' },
    })
    return index
  }
}
