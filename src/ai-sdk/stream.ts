/**
 * `wrapStream`: the model's stream parts with the text sieved. Text deltas go
 * through one sieve for the whole response; what comes out is written as the
 * AI SDK's parts: cleaned text, reasoning, and rescued calls as
 * `tool-input-start` / `-delta` / `-end` and `tool-call`. Every other part
 * (stream-start, metadata, sources, files, native tool calls, errors) passes
 * through in its place, and the finish reason becomes `tool-calls` when calls
 * were rescued.
 *
 * The text parts are the middleware's own: the sieve may still hold text
 * when the upstream's `text-end` comes, so a part is opened when text comes
 * out, and closed where the upstream's part ends, before a rescued call
 * starts (so a consumer that builds message parts in order puts the text
 * before the call) and at the end. Text after a close goes into a new part
 * (the upstream's first text id, then `-1`, `-2`, …): no delta ever follows
 * its part's `text-end`.
 */
import { createActionSieve, NativeConflictGate, type AdapterAction, type ResolvedAdapterOptions } from '../adapters/index.js'
import type { FinishReasonLike, StreamPartLike } from './types.js'

/** The finish reason of a turn whose calls were rescued: `tool-calls`, in the shape the upstream used, its `raw` kept. */
export function toolCallsReason(reason: FinishReasonLike | undefined): FinishReasonLike {
  if (typeof reason === 'string') return 'tool-calls'
  return { unified: 'tool-calls', raw: reason?.raw }
}

/** A native call from upstream that the consumer would run: provider-executed tools ran at the provider and are no duplicate. */
export const isNativeCall = (part: StreamPartLike): boolean => (part.type === 'tool-call' || part.type === 'tool-input-start') && part.providerExecuted !== true

class StreamSieve {
  private readonly sieve
  /** Native and rescued calls in one turn: the shared gate throws `native-conflict`, or holds rescued calls for `prefer-native`. */
  private readonly gate: NativeConflictGate
  /** Id of the text part open now; `null` between parts. */
  private textId: string | null = null
  /** The upstream's first text id: the first text part keeps it, later ones add `-1`, `-2`, …. */
  private baseTextId: string | null = null
  private textParts = 0
  private reasoningId: string | null = null
  /** Rescued calls that went out (an aborted one did not): the finish reason is `tool-calls` when there are any. */
  private rescued = 0
  private ended = false

  constructor(
    resolved: ResolvedAdapterOptions,
    private readonly out: (part: StreamPartLike) => void,
  ) {
    this.sieve = createActionSieve(resolved)
    this.gate = new NativeConflictGate(resolved.onConflict)
  }

  part(part: StreamPartLike): void {
    switch (part.type) {
      case 'text-start':
        if (this.baseTextId === null && typeof part.id === 'string') this.baseTextId = part.id
        return
      case 'text-delta':
        return this.apply(this.sieve.push(typeof part.delta === 'string' ? part.delta : ''))
      case 'text-end':
        // our part ends where the upstream's did; text the sieve still holds goes into a new part later
        return this.closeText()
      case 'finish':
        this.end()
        return this.out(this.rescued > 0 ? { ...part, finishReason: toolCallsReason(part.finishReason as FinishReasonLike) } : part)
    }
    if (isNativeCall(part)) this.gate.sawNative()
    this.out(part)
  }

  /** The stream is over (its finish part, or its close without one): what the sieve holds, then the held calls. */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.apply(this.sieve.end())
    this.closeText()
    // the rescued calls held for prefer-native, unless a native call came
    for (const a of this.gate.finish()) this.action(a)
  }

  private apply(actions: AdapterAction[]): void {
    for (const a of this.gate.pass(actions)) this.action(a)
  }

  private action(a: AdapterAction): void {
    switch (a.type) {
      case 'text':
        if (this.textId === null) {
          this.textId = this.textParts === 0 ? (this.baseTextId ?? 'txt-0') : `${this.baseTextId ?? 'txt-0'}-${this.textParts}`
          this.textParts++
          this.out({ type: 'text-start', id: this.textId })
        }
        return this.out({ type: 'text-delta', id: this.textId, delta: a.text })
      case 'reasoning-start':
        this.closeText()
        this.reasoningId = 'reasoning-toolsieve'
        return this.out({ type: 'reasoning-start', id: this.reasoningId })
      case 'reasoning':
        return this.out({ type: 'reasoning-delta', id: this.reasoningId ?? 'reasoning-toolsieve', delta: a.text })
      case 'reasoning-end':
        this.out({ type: 'reasoning-end', id: this.reasoningId ?? 'reasoning-toolsieve' })
        this.reasoningId = null
        return
      case 'call-start':
        this.closeText()
        return this.out({ type: 'tool-input-start', id: a.id, toolName: a.name })
      case 'call-delta':
        return this.out({ type: 'tool-input-delta', id: a.id, delta: a.delta })
      case 'call-end':
        this.rescued++
        this.out({ type: 'tool-input-end', id: a.id })
        return this.out({ type: 'tool-call', toolCallId: a.id, toolName: a.call.name, input: a.call.arguments })
      case 'call-abort':
        // the block failed: its input part ends and no call follows (its markup comes next, as text)
        return this.out({ type: 'tool-input-end', id: a.id })
    }
  }

  private closeText(): void {
    if (this.textId === null) return
    this.out({ type: 'text-end', id: this.textId })
    this.textId = null
  }
}

/**
 * The upstream stream, sieved. A native call in a turn with a rescued call
 * errors the stream with `native-conflict` (`onConflict: 'error'`, the
 * default) before the later of the two goes out; with `'prefer-native'` the
 * rescued calls wait for the finish and are dropped if a native call came.
 */
export function sieveStreamParts(source: ReadableStream<StreamPartLike>, resolved: ResolvedAdapterOptions): ReadableStream<StreamPartLike> {
  let state: StreamSieve | undefined
  return source.pipeThrough(
    new TransformStream<StreamPartLike, StreamPartLike>({
      start(controller) {
        state = new StreamSieve(resolved, (p) => controller.enqueue(p))
      },
      transform(part) {
        state!.part(part)
      },
      flush() {
        // a stream that closes without a finish part still gives out what the sieve holds
        state!.end()
      },
    }),
  )
}
