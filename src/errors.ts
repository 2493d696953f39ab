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

/**
 * Refuses an own enumerable key of `given` that is not in `known`, as
 * `invalid-option` naming it: a misspelled option (`onInvalide`, `dialects`)
 * would otherwise be ignored and its default used without a word. The message
 * names the option it may mean (the same name in another case, or one at
 * most two edits away), else `hints[key]` or the known options. Every entry
 * point checks its own options this way, against the names it reads (the
 * adapters' names include the sieve's). Internal: not exported from the package.
 *
 * @param hints what to say of a key known to be given by mistake (`fetch` to `sieveFetch`)
 */
export function refuseUnknownOptions(given: object, known: readonly string[], hints?: Readonly<Record<string, string>>): void {
  const keys = readOption('', () => Object.keys(given))
  for (const key of keys) {
    if (known.includes(key)) continue
    const hint = hints !== undefined && Object.hasOwn(hints, key) ? hints[key] : undefined
    const near = hint === undefined ? nearest(key, known) : undefined
    const why = hint ?? (near !== undefined ? `did you mean ${near}?` : `expected ${known.join(', ')}`)
    throw new ToolsieveError('invalid-option', `${key}: is not an option (${why})`, key)
  }
}

/** The known name `key` may be a slip for: the same in another case, else the nearest at most two edits away. */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase()
  const sameCase = known.find((k) => k.toLowerCase() === lower)
  if (sameCase !== undefined) return sameCase
  let best: string | undefined
  let bestDistance = 3
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase(), bestDistance)
    if (d < bestDistance) {
      best = k
      bestDistance = d
    }
  }
  return best
}

/** Levenshtein distance of `a` and `b`, or `limit` once it is certain to be at least that (names can be long: a caller's key is any string). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let least = i
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      row.push(v)
      if (v < least) least = v
    }
    if (least >= limit) return limit
    previous = row
  }
  return Math.min(previous[b.length]!, limit)
}
