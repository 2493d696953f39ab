/**
 * `wrapStream`: the model's stream parts with the text sieved. Consecutive
 * upstream text parts are one text for the sieve (a fence opened in one part
 * hides a block in the next; a block may span parts), from the first
 * `text-start` to the next part that is not text (reasoning, a tool part, a
 * source, a file, an error, the finish; `raw` and `response-metadata` carry
 * no content and do not end it). What comes out is written as the AI SDK's
 * parts: cleaned text, reasoning, and rescued calls as `tool-input-start` /
 * `-delta` / `-end` and `tool-call`. Every other part passes through in its
 * place, and the finish reason becomes `tool-calls` when calls were rescued.
 * A rescued call's id is unique in the result, beside the ids of the
 * provider-executed calls read before it too (`upstreamCallId`).
 *
 * The text parts are the middleware's own: a part is opened when text comes
 * out of the sieve (with the upstream part's id), closed before a rescued
 * call starts (so a consumer that builds message parts in order puts the
 * text before the call), and closed when the upstream's part ends: at the
 * next upstream text part (text the sieve still held then comes out in that
 * part), or at the end of the run, after the sieve gave out what it held.
 * Text after a call goes into a new part (the upstream id, then `-1`, `-2`,
 * …): no delta ever follows its part's `text-end`.
 *
 * An upstream `error` part ends the reading, as an error event does on the
 * Responses and Messages wires: what the sieve held goes out before it, as
 * text, and no call is made of it (the calls `prefer-native` held go out as
 * their markup, as text, after the text that followed them). Nothing after
 * it goes through a sieve: text upstream still sends for the part the error
 * cut goes out as it came in a part started for it (the next id of that
 * upstream part that no part upstream has open takes; the error closed the
 * earlier one), and a text part that starts after the error passes as
 * upstream sent it.
 */
import {
  AnswerSieves,
  HeldError,
  isAdapterStop,
  malformed,
  NativeConflictGate,
  optionalRecord,
  optionalString,
  record,
  type ActionSieve,
  type AdapterAction,
  type ResolvedAdapterOptions,
} from '../adapters/index.js'
import { PartWriter } from './part-writer.js'
import type { FinishReasonLike, StreamPartLike } from './types.js'

// what a model that ended its turn with calls reports; `length`, `content-filter`, `error` and V4's `interrupted` say more and stay
const rewritable = new Set(['stop', 'other', 'unknown', 'tool-calls'])

/**
 * The finish reason of a turn whose calls were rescued: `tool-calls`, in the
 * shape the upstream used, its `raw` kept. A turn cut short (`length`,
 * `content-filter`, `error`, `interrupted`) keeps its reason, as the other
 * adapters do: the SDK runs the calls either way.
 */
export function toolCallsReason(reason: unknown): FinishReasonLike | undefined {
  if (typeof reason === 'string') return rewritable.has(reason) ? 'tool-calls' : reason
  const given = optionalRecord(reason, 'finishReason')
  if (given !== undefined && typeof given.unified !== 'string') throw malformed('finishReason.unified', 'a string', given.unified)
  if (given !== undefined && !rewritable.has(given.unified as string)) return reason as FinishReasonLike
  return { unified: 'tool-calls', raw: given?.raw as string | undefined }
}

/** A native call from upstream that the consumer would run: provider-executed tools ran at the provider and are no duplicate. */
export const isNativeCall = (part: StreamPartLike): boolean => (part.type === 'tool-call' || part.type === 'tool-input-start') && part.providerExecuted !== true

/**
 * The call id of a part upstream sent for a call beside the rescued ones
 * that the consumer does not run (a provider-executed `tool-call` or
 * `tool-input-start`, a `tool-result`): a rescued call does not take it. A
 * native call's is not: native and rescued calls never go out together.
 */
export function upstreamCallId(part: StreamPartLike): unknown {
  if (isNativeCall(part)) return undefined
  return part.type === 'tool-input-start' ? part.id : part.toolCallId
}

/** Parts that carry no content: they pass through without ending a run of text parts. */
const contentless = new Set(['raw', 'response-metadata', 'stream-start'])

class StreamSieve {
  /**
   * The sieve of the run of upstream text parts open now: one for the whole
   * run (a block or a fence can span parts), ended at the first part that is
   * not text, so held text never moves past a part that follows it.
   */
  private sieve: ActionSieve | null = null
  /** The runs' sieves: only the first starts inside the reasoning (`thinking`), and call ids are unique over all of them. */
  private readonly sieves: AnswerSieves
  /** Upstream text parts seen, for the id of a part that has none. */
  private parts = 0
  /**
   * The upstream text part has ended but the run goes on: our part for it
   * stays open, so what the sieve still holds can come out in it if the run
   * ends here, and closes when the next text part starts.
   */
  private partEnded = false
  /** Native and rescued calls in one turn: the shared gate throws `native-conflict`, or holds rescued calls for `prefer-native`. */
  private readonly gate: NativeConflictGate
  private readonly writer: PartWriter
  private ended = false
  /**
   * An upstream error part came: text read after it could still hold
   * markup the model wrote, but an answer the upstream broke off makes no
   * call (`late` passes it on unread).
   */
  private broken = false
  /** Text parts upstream started after its error: theirs, so their deltas and end pass as they came. */
  private readonly rawParts = new Set<unknown>()

  constructor(
    resolved: ResolvedAdapterOptions,
    private readonly out: (part: StreamPartLike) => void,
  ) {
    this.gate = new NativeConflictGate(resolved.onConflict)
    this.writer = new PartWriter(out, (id) => this.rawParts.has(id))
    this.sieves = new AnswerSieves(resolved)
  }

  part(part: StreamPartLike): void {
    record(part, 'part')
    if (this.broken && this.late(part)) return
    switch (part.type) {
      case 'text-start':
        return this.startPart(part.id)
      case 'text-delta': {
        const delta = optionalString(part.delta, 'delta')
        // a server that skips text-start still has its text read
        if (this.sieve === null || this.partEnded) this.startPart(part.id)
        return this.apply(this.sieve!.push(delta))
      }
      case 'text-end':
        this.partEnded = true
        return
      case 'finish':
        this.end()
        return this.out(this.writer.rescued > 0 ? { ...part, finishReason: toolCallsReason(part.finishReason) } : part)
    }
    // an error part broke the text off: what the sieve held is text, and a block it cut is no call
    if (part.type === 'error') {
      this.endRun(true)
      this.broken = true
    } else if (!contentless.has(part.type)) this.endRun()
    if (isNativeCall(part)) this.gate.sawNative()
    // a rescued call that starts later takes no id of upstream's own calls (one that started before went out with it)
    this.sieves.holdId(upstreamCallId(part))
    this.out(part)
  }

  /** The upstream broke off (a malformed part, a failed source): what the sieve holds goes out, never as a call (held calls as their markup), and nothing after it. */
  abort(): void {
    if (this.ended) return
    this.ended = true
    this.endRun(true)
  }

  /** The stream is over (its finish part, or its close without one): what the sieve holds, then the held calls. */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.endRun()
    // a part started for text after an upstream error, which upstream did not end
    this.writer.closeText()
    // the rescued calls held for prefer-native, unless a native call came
    for (const a of this.gate.finish()) this.writer.action(a)
  }

  /**
   * A text part after an upstream error, passed on unread; false for a part
   * of another type. Text for a part that started before the error goes
   * into a part of ours: the error closed the one we had for it.
   */
  private late(part: StreamPartLike): boolean {
    switch (part.type) {
      case 'text-start':
        this.writer.closeText()
        this.rawParts.add(part.id)
        this.out(part)
        return true
      case 'text-delta': {
        if (this.rawParts.has(part.id)) {
          this.out(part)
          return true
        }
        // an empty delta opens no part, as an empty push gives the sieve nothing to write
        const text = optionalString(part.delta, 'delta')
        if (text) this.writer.action({ type: 'text', text })
        return true
      }
      case 'text-end':
        if (this.rawParts.delete(part.id)) this.out(part)
        else this.writer.closeText()
        return true
    }
    return false
  }

  /** An upstream text part starts: the run's sieve goes on (or a run starts), and our part for the previous upstream part closes. */
  private startPart(id: unknown): void {
    this.writer.upstreamPart(typeof id === 'string' ? id : `txt-${this.parts}`)
    this.parts++
    this.partEnded = false
    this.writer.closeText()
    if (this.sieve === null) this.sieve = this.sieves.next()
  }

  /**
   * The run of text is over: its sieve gives out what it holds, and our parts close. `broken`: as text, with
   * no call made from it, after the markup of the calls `prefer-native` held (`NativeConflictGate.abandon`), so that a finish
   * after the break cannot make them calls; they may be an earlier run's, so they go even with no run open.
   */
  private endRun(broken = false): void {
    const held = broken ? this.gate.abandon() : []
    const sieve = this.sieve
    if (sieve === null && held.length === 0) return
    this.sieve = null
    this.partEnded = false
    this.apply([...held, ...(sieve === null ? [] : broken ? sieve.abort() : sieve.end())])
    this.writer.closeText()
    this.writer.closeReasoning()
  }

  private apply(actions: AdapterAction[]): void {
    for (const a of this.gate.pass(actions)) this.writer.action(a)
  }
}

/**
 * The upstream stream, sieved. A native call in a turn with a rescued call
 * errors the stream with `native-conflict` (`onConflict: 'error'`, the
 * default) before the later of the two goes out; with `'prefer-native'` the
 * rescued calls wait for the finish and are dropped if a native call came.
 * A part of the wrong shape (`invalid-chunk`) or a source that fails errors
 * the stream too, after the text the sieve held: a stream errored while
 * parts wait in its queue drops them, so the parts made from one upstream
 * part are read out first and the error comes at the next read.
 */
export function sieveStreamParts(source: ReadableStream<StreamPartLike>, resolved: ResolvedAdapterOptions): ReadableStream<StreamPartLike> {
  const reader = source.getReader()
  const queue: StreamPartLike[] = []
  const held = new HeldError()
  const state = new StreamSieve(held.options(resolved), (p) => void queue.push(p))
  /** Set when the upstream broke off: the stream errors with it once what was held is read. */
  let failure: { error: unknown } | null = null
  let done = false
  return new ReadableStream<StreamPartLike>(
    {
      async pull(controller) {
        while (queue.length === 0) {
          if (failure !== null) return controller.error(failure.error)
          if (done) return controller.close()
          try {
            const next = await reader.read()
            if (next.done) {
              done = true
              // a stream that closes without a finish part still gives out what the sieve holds
              state.end()
            } else state.part(next.value)
            // what the part (or the end) made is queued: an onDiagnostic that threw while it was made fails the stream after it
            const late = held.take()
            if (late !== undefined) throw late.error
          } catch (error) {
            // the source is read no further (it may have failed itself)
            reader.cancel(error).catch(() => {})
            // taken before the release, which may call the callback again: the first error is the one the stream fails with
            const first = held.take() ?? { error }
            if (isAdapterStop(error)) throw first.error
            state.abort()
            failure = first
          }
        }
        for (const p of queue.splice(0)) controller.enqueue(p)
      },
      cancel(reason) {
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
