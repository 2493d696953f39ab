/**
 * `createSieve`: the factory (STYLE 1) that wires the compiled lexer, the
 * driver and the checkpoint format together behind `{ push, end, checkpoint, stats }`.
 */
import { defaultGrammar } from '../grammar/default.js'
import { grammarFingerprint } from '../grammar/fingerprint.js'
import { compileLexer } from '../lexer/lexer.js'
import { ToolsieveError } from '../errors.js'
import type { Sieve, SieveCheckpoint, SieveEvent, SieveOptions } from '../types.js'
import { Driver } from './driver.js'
import { restoreState, saveState } from './checkpoint.js'
import { randomCallId } from './ids.js'

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
  const grammar = options.grammar ?? defaultGrammar
  const captureLimit = options.captureLimit ?? grammar.limits?.captureLimit ?? 262144
  if (!Number.isInteger(captureLimit) || captureLimit < 1) {
    throw new ToolsieveError('invalid-option', `captureLimit must be a positive integer, got ${String(captureLimit)}`, 'captureLimit')
  }
  const lexer = compileLexer(grammar)
  const fingerprint = grammarFingerprint(grammar)
  const state = options.resume ? restoreState(options.resume, fingerprint, lexer) : Driver.initial()
  const driver = new Driver(lexer, { captureLimit, newId: options.generateId ?? randomCallId, nameAttr: grammar.attributes?.name ?? 'name' }, state)
  let finished = false

  function guarded(work: () => void): SieveEvent[] {
    if (finished) throw new ToolsieveError('sieve-finished', 'the sieve has ended; create a new one')
    try {
      work()
    } catch (e) {
      // a bug must not lose input or throw into the caller's stream: release everything held as text
      driver.recover(e)
    }
    return driver.out.take()
  }

  return {
    push: (chunk: string) => guarded(() => driver.push(String(chunk))),
    end: () => {
      const events = guarded(() => driver.end())
      finished = true
      return events
    },
    checkpoint: (): SieveCheckpoint => ({ version: 1, grammar: fingerprint, state: saveState(driver.s) }),
    stats: () => ({ ...driver.stats }),
    sawToolCallSyntax: () => driver.s.sawSyntax,
  }
}
