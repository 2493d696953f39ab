/**
 * The one error class of toolsieve. `push()` never throws on a string; these
 * come from configuration (a bad option or grammar, a checkpoint from another
 * grammar) and from misuse (pushing a non-string, or after `end()`).
 */

/** Stable codes of {@link ToolsieveError}. */
export type ToolsieveErrorCode =
  /** A grammar config failed validation; `field` names the bad field. */
  | 'invalid-grammar'
  /** A dialect pack failed validation; `field` names the bad field (`blocks[0].call.name.from`). */
  | 'invalid-dialect'
  /** A grammar file could not be read or is not JSON. */
  | 'grammar-unreadable'
  /** A checkpoint is malformed or was taken with another grammar. */
  | 'invalid-checkpoint'
  /** An option has a value of the wrong type or range. */
  | 'invalid-option'
  /** `push()` was called after `end()` (a second `end()` just returns `[]`). */
  | 'sieve-finished'
  /**
   * `push()` was given something other than a string, `null` or `undefined`
   * (a `Uint8Array`: decode it first); or an adapter was given upstream data
   * (a chunk, event, part or whole response) of the wrong shape, `field`
   * naming the bad field (`choices[0].delta.tool_calls`).
   */
  | 'invalid-chunk'
  /**
   * An adapter saw native tool calls from upstream and calls rescued from the
   * text in the same turn: running both could run one call twice, so the
   * stream stops before the rescued call goes out (see `onConflict`).
   */
  | 'native-conflict'
  /**
   * An adapter had already streamed the start of a rescued call to its
   * consumer when the call's block failed (`tool-call-abort`): the wire format
   * cannot take a call back, so the stream stops instead of leaving a partial
   * call to be run.
   */
  | 'call-aborted'

export class ToolsieveError extends Error {
  override readonly name: string = 'ToolsieveError'
  readonly code: ToolsieveErrorCode
  /** JSON-pointer-like path of the offending field (`frames[0].open[1]`), when there is one. */
  readonly field: string | undefined

  constructor(code: ToolsieveErrorCode, message: string, field?: string) {
    super(message)
    this.code = code
    this.field = field
  }
}

/** Thrown by `loadGrammar` / `extendGrammar` for a bad grammar config. */
export class GrammarError extends ToolsieveError {
  override readonly name: string = 'GrammarError'
  constructor(message: string, field: string, code: 'invalid-grammar' | 'grammar-unreadable' = 'invalid-grammar') {
    super(code, `${field}: ${message}`, field)
  }
}

/**
 * `read()`, with anything but a {@link ToolsieveError} it throws refused as
 * `invalid-option` naming `field` ('' for the options themselves): a
 * caller's value can be a revoked Proxy (on which even `Array.isArray`
 * throws) or have a getter that throws, and what escapes must still be the
 * library's error with a stable code. Internal: not exported from the package.
 */
export function readOption<T>(field: string, read: () => T): T {
  try {
    return read()
  } catch (e) {
    if (isToolsieveError(e)) throw e
    throw new ToolsieveError('invalid-option', `${field === '' ? 'the options' : field}: could not be read (a getter or proxy threw)`, field)
  }
}

// `instanceof` itself throws when what was thrown is a revoked Proxy
function isToolsieveError(e: unknown): boolean {
  try {
    return e instanceof ToolsieveError
  } catch {
    return false
  }
}
