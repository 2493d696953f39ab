/**
 * `createSieve`: the factory (STYLE 1) that wires the compiled lexer, the
 * driver and the checkpoint format together behind `{ push, end, checkpoint, stats }`.
 */
import { defaultGrammar } from '../grammar/default.js'
import { grammarFingerprint } from '../grammar/fingerprint.js'
import { compileLexer } from '../lexer/lexer.js'
import { ToolsieveError } from '../errors.js'
import type { Sieve, SieveCheckpoint, SieveEvent, SieveOptions } from '../types.js'
import { initialState, type DriverOptions } from './state.js'
import { Driver } from './driver.js'
import { restoreState, saveState } from './checkpoint.js'
import { randomCallId } from './ids.js'
import { toolTable } from '../schema/tools.js'
import type { ValueOptions } from '../values/decode.js'
import type { Grammar } from '../grammar/types.js'

/** What value decoding reads from the grammar; one per grammar, since a sieve per turn is common. */
function valueOptions(grammar: Grammar): ValueOptions {
  let hit = valueOptionsCache.get(grammar)
  if (hit === undefined) {
    hit = {
      nameAttr: grammar.attributes?.name ?? 'name',
      stringAttr: grammar.attributes?.string ?? 'string',
      rawText: new Set((grammar.rawTextParameters ?? []).map((n) => n.toLowerCase())),
    }
    // a frozen grammar (every validated one) cannot change under the cache
    if (Object.isFrozen(grammar)) valueOptionsCache.set(grammar, hit)
  }
  return hit
}
const valueOptionsCache = new WeakMap<Grammar, ValueOptions>()

/** Strict mode: each diagnostic event becomes an error event with the same fields. */
function toErrors(events: SieveEvent[]): SieveEvent[] {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    if (e.type !== 'diagnostic') continue
    const err: SieveEvent = { type: 'error', code: e.code, message: e.message, span: e.span }
    if (e.path !== undefined) err.path = e.path
    events[i] = err
  }
  return events
}

/**
 * Create a streaming sieve.
 *
 * ```ts
 * const sieve = createSieve()
 * for await (const chunk of stream) for (const e of sieve.push(chunk)) handle(e)
 * for (const e of sieve.end()) handle(e)
 * ```
 *
 * `push()` never throws on any input; it throws a {@link ToolsieveError}
 * (`sieve-finished`) only when called after `end()`.
 */
export function createSieve(options: SieveOptions = {}): Sieve & { sawToolCallSyntax(): boolean } {
  return sieveWith(options, {})
}

/** What tests may set beyond {@link SieveOptions}: internal, not exported from the package. */
export interface SieveInternals {
  /** The driver's lexer window ({@link DriverOptions.windowSize}). */
  windowSize?: number
}

/** {@link createSieve} with internals set. */
export function sieveWith(options: SieveOptions, internals: SieveInternals): Sieve & { sawToolCallSyntax(): boolean } {
  const w = internals.windowSize
  // a window of 0 never moves on and NaN slices text away: only a positive integer makes sense
  if (w !== undefined && !(Number.isInteger(w) && w >= 1)) throw new ToolsieveError('invalid-option', `windowSize must be a positive integer, got ${String(w)}`, 'windowSize')
  const grammar = options.grammar ?? defaultGrammar
  const captureLimit = options.captureLimit ?? grammar.limits?.captureLimit ?? 262144
  if (!Number.isInteger(captureLimit) || captureLimit < 1) {
    throw new ToolsieveError('invalid-option', `captureLimit must be a positive integer, got ${String(captureLimit)}`, 'captureLimit')
  }
  const onInvalid = options.onInvalid ?? 'emit'
  if (onInvalid !== 'emit' && onInvalid !== 'reject') {
    throw new ToolsieveError('invalid-option', `onInvalid must be 'emit' or 'reject', got ${String(onInvalid)}`, 'onInvalid')
  }
  const strict = options.strict === true
  // compiled here, once: a schema that does not compile fails at creation, not mid-stream
  const tools = options.tools === undefined ? null : toolTable(options.tools)
  const lexer = compileLexer(grammar)
  const fingerprint = grammarFingerprint(grammar)
  const state = options.resume ? restoreState(options.resume, fingerprint, lexer) : initialState()
  const driver = new Driver(lexer, { captureLimit, newId: options.generateId ?? randomCallId, values: valueOptions(grammar), tools, onInvalid, strict, windowSize: internals.windowSize }, state)
  let finished = false

  function started(): void {
    if (finished) throw new ToolsieveError('sieve-finished', 'the sieve has ended; create a new one')
  }

  function events(): SieveEvent[] {
    const out = driver.out.take()
    return strict ? toErrors(out) : out
  }

  // push and end catch inline, not through a shared callback: a closure per chunk showed in profiles at token-sized chunks
  return {
    push: (chunk: string) => {
      started()
      try {
        driver.push(typeof chunk === 'string' ? chunk : String(chunk))
      } catch (e) {
        // a bug must not lose input or throw into the caller's stream: release everything held as text
        driver.recover(e)
      }
      return events()
    },
    end: () => {
      started()
      try {
        driver.end()
      } catch (e) {
        driver.recover(e)
      }
      finished = true
      return events()
    },
    checkpoint: (): SieveCheckpoint => ({ version: 1, grammar: fingerprint, state: saveState(driver.s) }),
    stats: () => ({ ...driver.stats }),
    sawToolCallSyntax: () => driver.s.sawSyntax,
  }
}
