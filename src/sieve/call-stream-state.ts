/**
 * Where `streamArguments` stands in the block being captured
 * (`call-stream.ts` reads and writes it): plain JSON, part of the driver
 * state, so that a checkpoint carries it.
 */

/** One invoke of the capture being read. */
export interface StreamedCall {
  /** Null when the call must never start: no name, or one `onInvalid: 'reject'` refuses. */
  name: string | null
  /** Where its raw markup begins (the block's start for the first call, else the previous invoke's closer's end). */
  start: number
  /** Null until the call has started (its block may still be a quoted example, or a bare invoke a mention). */
  id: string | null
  idProblem: string | null
  index: number
  /** Its `arguments` as far as known: `sent` went out as deltas, `pending` is to go once the call may start. */
  sent: string
  pending: string
  /** Nothing more is sent before the block's end: the next text could not be told for certain. */
  stalled: boolean
  /** Its final `arguments` do not continue what its parameters, read in order, would send: the block fails, in every chunking. */
  changed: boolean
  keys: string[]
}

/** Where the reading of the current capture stands; plain JSON (checkpoints). */
export interface CallStreamState {
  /** The stream's calls so far: the next start's `index`. */
  next: number
  /** The capture read (its start), or -1. */
  capture: number
  /** Tokens of it read, and the stream offset after them. */
  seen: number
  at: number
  /** Where the next call's raw markup begins. */
  callStart: number
  calls: StreamedCall[]
  /** Token index of the open invoke's opener, of its tag's end (+1), of the open parameter's opener and tag end; -1: none. */
  invokeAt: number
  invokeBody: number
  paramAt: number
  paramBody: number
  /** The open parameter's value streams as it arrives; a high surrogate at its end waits for its pair. */
  live: boolean
  high: string
  /** Indexes of this block's calls that are, or may still be, quoted ones (`quoted.ts`): nothing is sent while any is; null: no quoted calls. */
  quoted: number[] | null
}

export function initialCallStream(): CallStreamState {
  return { next: 0, capture: -1, seen: 0, at: 0, callStart: 0, calls: [], invokeAt: -1, invokeBody: -1, paramAt: -1, paramBody: -1, live: false, high: '', quoted: null }
}
