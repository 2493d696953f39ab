/**
 * The output items one upstream text part becomes in a Responses stream.
 * Upstream writes one message item whose text holds the reasoning, the
 * answer and the markup of the calls; out of it come, in the order the text
 * had them, a reasoning item, message items with the cleaned text, and a
 * function_call item per rescued call:
 *
 * ```
 * > | <think>plan</think>Let me look.<｜DSML｜tool_calls>…</｜DSML｜tool_calls>
 *     ^^^^^^^^^^^^^^^^^^^ reasoning item
 *                        ^^^^^^^^^^^^ message item (upstream's id)
 *                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ function_call item
 * ```
 *
 * An item opens when it has something to show (a message with nothing but
 * calls leaves no empty message behind), and closes when the next item opens
 * or the part ends, with its `.done` events written from the cleaned text.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { abortedCallError, type AdapterAction } from '../adapters/index.js'
import type { CallItemIds } from './ids.js'

/** An event before the sink numbers it (distributed over the union, so each event keeps its own fields). */
export type UnnumberedEvent = ResponseStreamEvent extends infer E ? (E extends unknown ? Omit<E, 'sequence_number'> : never) : never

/** What the items are written into: the response's event stream, its output indexes, its output list. */
export interface ItemSink {
  /** Writes one event (the sink numbers it). */
  emit(event: UnnumberedEvent): void
  /** The next output index of the response. */
  nextIndex(): number
  /** An item is done: its final form for `response.completed`'s output (made when the output is: an item a failure cut may still grow). */
  record(outputIndex: number, item: Record<string, unknown> | (() => Record<string, unknown>)): void
}

/** The reasoning or message item being written. */
interface Segment {
  kind: 'message' | 'reasoning'
  id: string
  outputIndex: number
  /** Its text so far, for its `.done` events: the pieces, joined once at the close. */
  text: string[]
}

/** A started function_call item. */
interface CallItem {
  id: string
  outputIndex: number
  callId: string
  name: string
}

export class TextPartItems {
  private open: Segment | undefined
  /** The segment a failure cut ({@link cut}), which text upstream still sends for the part goes on in ({@link late}). */
  private cutOff: Segment | undefined
  /** Message items made so far: the first takes upstream's id, later ones a suffix. */
  private messages = 0
  private readonly calls = new Map<number, CallItem>()

  /**
   * @param message upstream's message item (its `id`, `role`, `phase`…), the
   *   template of every message item made from it
   * @param itemIds the answer's item ids, shared by its parts: a
   *   function_call item's id is `fc_` and its call's digits, unique in the
   *   answer
   */
  constructor(
    private readonly sink: ItemSink,
    private readonly message: Record<string, unknown> & { id: string },
    private readonly itemIds: CallItemIds,
  ) {}

  /** Writes the actions of the part's sieve. `logprobs` (of the upstream delta they came from) go on the first text delta. */
  write(actions: readonly AdapterAction[], logprobs: unknown[] = []): void {
    for (const a of actions) {
      switch (a.type) {
        case 'text':
        case 'reasoning': {
          const kind = a.type === 'text' ? 'message' : 'reasoning'
          const s = this.segment(kind)
          s.text.push(a.text)
          const type = kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_text.delta'
          this.sink.emit({ type, item_id: s.id, output_index: s.outputIndex, content_index: 0, delta: a.text, ...(kind === 'message' ? { logprobs } : {}) } as ResponseStreamEvent)
          if (kind === 'message') logprobs = []
          break
        }
        case 'reasoning-end':
          if (this.open?.kind === 'reasoning') this.close()
          break
        case 'call-start': {
          this.close()
          const call: CallItem = { id: this.itemIds.take(a.id), outputIndex: this.sink.nextIndex(), callId: a.id, name: a.name }
          this.calls.set(a.index, call)
          this.sink.emit({ type: 'response.output_item.added', output_index: call.outputIndex, item: { type: 'function_call', id: call.id, call_id: a.id, name: a.name, arguments: '', status: 'in_progress' } })
          break
        }
        case 'call-delta': {
          const call = this.calls.get(a.index)!
          this.sink.emit({ type: 'response.function_call_arguments.delta', item_id: call.id, output_index: call.outputIndex, delta: a.delta })
          break
        }
        case 'call-end': {
          const call = this.calls.get(a.index)!
          const args = a.call.arguments
          // `name` as the API sends it: openai 6 types it, openai 7 dropped it from the type
          const doneArgs = { type: 'response.function_call_arguments.done', item_id: call.id, output_index: call.outputIndex, name: call.name, arguments: args } as const
          this.sink.emit(doneArgs as UnnumberedEvent)
          const item = { type: 'function_call', id: call.id, call_id: call.callId, name: call.name, arguments: args, status: 'completed' } as const
          this.sink.emit({ type: 'response.output_item.done', output_index: call.outputIndex, item })
          this.sink.record(call.outputIndex, item)
          break
        }
        case 'call-abort':
          throw abortedCallError(a)
        case 'reasoning-start':
          break
      }
    }
  }

  /** The part is over: the open item is closed with its cleaned text. */
  end(): void {
    this.close()
  }

  /**
   * The part broke off (an error event, a failed source): the open item gets
   * no done events, as upstream's own items get none after an error, and is
   * recorded as it stood, `incomplete`, so that a failed response that still
   * follows lists it with the text that went out.
   */
  cut(): void {
    const s = this.open
    if (s === undefined) return
    this.open = undefined
    this.cutOff = s
    this.recordIncomplete(s)
  }

  /**
   * Text upstream still sends for the part after a failure cut it: upstream's
   * own, raw (nothing is read after the failure), in the message item the
   * cut left open, or in one started for it when the cut left none (the
   * reasoning, or nothing after a call). Its item id and output index are
   * ours, not upstream's, which name another item or none.
   */
  late(text: string, logprobs: unknown[]): void {
    if (text === '') return
    let s = this.cutOff
    if (s?.kind !== 'message') {
      // nothing is open since the cut: this opens the item and closes nothing
      s = this.segment('message')
      this.open = undefined
      this.cutOff = s
      this.recordIncomplete(s)
    }
    s.text.push(text)
    this.sink.emit({ type: 'response.output_text.delta', item_id: s.id, output_index: s.outputIndex, content_index: 0, delta: text, logprobs } as ResponseStreamEvent)
  }

  /** The open segment of this kind, opening it (and closing another) when needed. */
  private segment(kind: Segment['kind']): Segment {
    if (this.open?.kind === kind) return this.open
    this.close()
    const outputIndex = this.sink.nextIndex()
    if (kind === 'message') {
      const id = this.messages++ === 0 ? this.message.id : `${this.message.id}_${this.messages}`
      this.open = { kind, id, outputIndex, text: [] }
      this.sink.emit({ type: 'response.output_item.added', output_index: outputIndex, item: { ...this.message, id, status: 'in_progress', content: [] } as never })
      this.sink.emit({ type: 'response.content_part.added', item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
    } else {
      const id = `rs_${this.message.id}`
      this.open = { kind, id, outputIndex, text: [] }
      this.sink.emit({ type: 'response.output_item.added', output_index: outputIndex, item: { type: 'reasoning', id, summary: [], content: [], status: 'in_progress' } })
      this.sink.emit({ type: 'response.content_part.added', item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'reasoning_text', text: '' } })
    }
    return this.open
  }

  private close(): void {
    const s = this.open
    if (s === undefined) return
    this.open = undefined
    const text = s.text.join('')
    const at = { item_id: s.id, output_index: s.outputIndex, content_index: 0 }
    const item = this.item(s, text, 'completed')
    if (s.kind === 'message') {
      this.sink.emit({ type: 'response.output_text.done', ...at, text, logprobs: [] })
      this.sink.emit({ type: 'response.content_part.done', ...at, part: { type: 'output_text', text, annotations: [] } })
    } else {
      this.sink.emit({ type: 'response.reasoning_text.done', ...at, text })
      this.sink.emit({ type: 'response.content_part.done', ...at, part: { type: 'reasoning_text', text } })
    }
    this.sink.emit({ type: 'response.output_item.done', output_index: s.outputIndex, item: item as never })
    this.sink.record(s.outputIndex, item)
  }

  /**
   * A segment a failure cut, recorded as it will stand: `incomplete`, with
   * its text when the output is made (text upstream still sends for the
   * part goes on in it, see {@link late}).
   */
  private recordIncomplete(s: Segment): void {
    this.sink.record(s.outputIndex, () => this.item(s, s.text.join(''), 'incomplete'))
  }

  /** A segment's item with its text, as `response.output_item.done` and the response's `output` carry it. */
  private item(s: Segment, text: string, status: 'completed' | 'incomplete'): Record<string, unknown> {
    if (s.kind === 'message') return { ...this.message, id: s.id, status, content: [{ type: 'output_text', text, annotations: [] }] }
    return { type: 'reasoning', id: s.id, summary: [], content: [{ type: 'reasoning_text', text }], status }
  }
}
