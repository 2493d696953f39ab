/**
 * Sieve events as adapter-neutral actions: what every wire format needs to
 * write (content, reasoning, a call's start, its argument pieces, its end)
 * with the streaming decision and the blank-line trimming already made, so
 * that each adapter only maps actions to its own shapes.
 *
 * Fail closed on the wire: a call, once its start is sent, cannot be taken
 * back. Without `streamArguments` a call's start, arguments and end come
 * together, when the sieve has the whole call; with it they follow the
 * core's `tool-call-start` / `-delta` events, and a `call-abort` for a call
 * already sent is the adapter's cue to stop the stream (see
 * {@link abortedCallError}).
 */
import { ToolsieveError } from '../errors.js'
import type { DiagnosticCode, ToolCallEvent } from '../types.js'

/** Content to send. Adjacent text actions of one push are merged; never empty. */
export interface TextAction {
  type: 'text'
  text: string
}

/** The reasoning has begun (its first text, or its opening tag). Once per stream at most. */
export interface ReasoningStartAction {
  type: 'reasoning-start'
}

/** Reasoning text. Comes between `reasoning-start` and `reasoning-end`; never empty. */
export interface ReasoningAction {
  type: 'reasoning'
  text: string
}

/** The reasoning is over (its closing tag, or the end of the stream). */
export interface ReasoningEndAction {
  type: 'reasoning-end'
}

/** A rescued call begins. `index` counts this stream's rescued calls from 0, in the order they start. */
export interface CallStartAction {
  type: 'call-start'
  id: string
  name: string
  index: number
}

/** The next piece of a started call's `arguments`; the pieces of one call concatenate to its final `arguments`. */
export interface CallDeltaAction {
  type: 'call-delta'
  id: string
  index: number
  delta: string
}

/** A started call is complete: `call` is the sieve's event (input, arguments, raw, diagnostics). */
export interface CallEndAction {
  type: 'call-end'
  id: string
  index: number
  call: ToolCallEvent
}

/**
 * A started call will not be emitted (with `streamArguments` only). Its
 * start and maybe some arguments were already given out: an adapter that
 * sent them must stop the stream with {@link abortedCallError}.
 */
export interface CallAbortAction {
  type: 'call-abort'
  id: string
  index: number
  code: DiagnosticCode
}

/**
 * The point of the text where the adapter asked for a {@link ActionSieve.mark}:
 * everything pushed before the ask has gone out before it. Marks come in the
 * order they were asked for.
 */
export interface MarkAction {
  type: 'mark'
}

/**
 * How many passed-through items may wait behind the text a sieve holds.
 * Held text is bounded by the capture limit, but what passes beside it is
 * not: a `<` held while a native call streams a thousand argument deltas
 * would hold every delta (memory, and that call's own streaming) until text
 * came. Past this many, what waits goes out ahead of the held text.
 */
export const maxMarks = 32

/** What {@link ActionSieve} gives, in stream order. */
export type AdapterAction =
  | TextAction
  | ReasoningStartAction
  | ReasoningAction
  | ReasoningEndAction
  | CallStartAction
  | CallDeltaAction
  | CallEndAction
  | CallAbortAction
  | MarkAction

/** A sieve that answers in {@link AdapterAction}s. */
export interface ActionSieve {
  /** The next piece of content (`null` / `undefined` add nothing). */
  push(chunk: string | null | undefined): AdapterAction[]
  /** The content is over: everything held, then `reasoning-end` if the reasoning was still open. A second call returns `[]`. */
  end(): AdapterAction[]
  /**
   * The content broke off (an upstream error, a malformed chunk): what is
   * held goes out as text and reasoning (`Sieve.abort`), never as a call,
   * and an open reasoning gets no `reasoning-end`; a call already started
   * gets its `call-abort`, which the adapter, about to fail the stream
   * anyway, need not turn into `call-aborted`. After `end()` or a first
   * `abort()`, `[]`.
   */
  abort(): AdapterAction[]
  /**
   * Upstream sent something here that the adapter passes through unsieved (a
   * refusal, a native call, a citation): a `mark` action comes out where it
   * stands in the text, after all that was pushed before it, so the adapter
   * writes it there and not ahead of text the sieve still holds. At once
   * when the sieve holds nothing; else in the push (or `end`, `abort`) that
   * gives out the last of that text, which is cut at the mark if need be.
   * Inside a block that becomes a call, after the call. Whitespace the
   * blank-line trimmer holds is no longer the sieve's and may follow it.
   * At most {@link maxMarks} wait for the same held text; past that they
   * come at once, ahead of it.
   */
  mark(): AdapterAction[]
  /** Rescued calls that reached `call-end` so far. */
  readonly calls: number
}

/** The error an adapter throws when a call it already sent was aborted: nothing half-sent may be run. */
export function abortedCallError(action: CallAbortAction): ToolsieveError {
  return new ToolsieveError('call-aborted', `the rescued call ${action.id} was already streamed when its block failed (${action.code}); the stream stops so that no partial call runs`)
}

/**
 * `native-conflict` and `call-aborted`: an adapter's own stop, refusing to
 * send a call that could run twice or half; it sends nothing more. Any other
 * error ends the answer because the upstream broke off, and the adapter
 * first sends what its sieves held (`ActionSieve.abort`).
 */
export function isAdapterStop(error: unknown): boolean {
  const code = error instanceof ToolsieveError ? error.code : undefined
  return code === 'native-conflict' || code === 'call-aborted'
}

/**
 * What an adapter writes of an {@link ActionSieve.abort}'s actions when the
 * upstream broke off: the text, reasoning and marks. A `call-abort` is left
 * out (a call already started is left to the failure that follows, which
 * ends the answer anyway), and so are the reasoning's start and end.
 */
export function abortedText(actions: AdapterAction[]): AdapterAction[] {
  return actions.filter((a) => a.type === 'text' || a.type === 'reasoning' || a.type === 'mark')
}
