/**
 * What the caller's `onDiagnostic` throws while an answer is repaired. It is
 * the caller's, no failure of the repair: the response's body fails with
 * that very value, where a failure of the sieve becomes an error in OpenAI's
 * shape (or the upstream's answer as it came). The two are told apart by
 * who threw, not by reading the error: a `code` the caller's error carries
 * may read as one of ours (`native-conflict`).
 */
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'

export class CallerError {
  /** The first value the callback threw (boxed: `undefined` may be thrown too). */
  private first: { error: unknown } | undefined = undefined

  /** The options with their callback watched; what it throws still stops the adapter. */
  options(options: OpenAIAdapterOptions): OpenAIAdapterOptions {
    const given = options.onDiagnostic
    if (typeof given !== 'function') return options
    return {
      ...options,
      onDiagnostic: (event) => {
        try {
          given(event)
        } catch (error) {
          this.first ??= { error }
          throw error
        }
      },
    }
  }

  /** True when `error` is the first value the callback threw. */
  threw(error: unknown): boolean {
    return this.first !== undefined && error === this.first.error
  }
}

/** A thrown value as a note's text. Never throws: what a callback or a body throws may be anything, an object with no prototype among them. */
export function described(error: unknown): string {
  try {
    const message = (error as Error | null | undefined)?.message
    return typeof message === 'string' ? message : String(error)
  } catch {
    return 'a value that cannot be shown'
  }
}
