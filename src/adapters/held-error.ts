/**
 * A stream's `onDiagnostic`, whose throw waits. The callback runs inside a
 * push, and a diagnostic is one of the push's events among others (the text
 * around a failed block, a call after it): thrown there, the error would
 * take the push's output with it. Held instead, the push ends and what it
 * made goes out; the stream then fails with the error as it fails for an
 * upstream break, after what its sieves held (`Reading.held` of
 * `readThrough`), so the answer reads as if the upstream had broken off
 * right after that chunk.
 */
import type { DiagnosticEvent, ErrorEvent } from '../types.js'
import type { ResolvedAdapterOptions } from './options.js'

export class HeldError {
  /** The callback's first error not yet taken: a later one (while the stream already fails) adds nothing. */
  private first: { error: unknown } | undefined = undefined

  /** The options with their callback's throws held here (every sieve made from them shares this). */
  options<R extends ResolvedAdapterOptions>(resolved: R): R {
    const callback = resolved.onDiagnostic
    if (callback === undefined) return resolved
    return {
      ...resolved,
      onDiagnostic: (event: DiagnosticEvent | ErrorEvent) => {
        try {
          callback(event)
        } catch (error) {
          this.first ??= { error }
        }
      },
    }
  }

  /** The held error, handed over once. */
  take(): { error: unknown } | undefined {
    const first = this.first
    this.first = undefined
    return first
  }
}
