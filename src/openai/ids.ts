/**
 * Ids for calls that arrive without one: a legacy `function_call` (the
 * shape before `tool_calls` had no id, and a tool call needs one).
 */
import type { ResolvedAdapterOptions } from '../adapters/index.js'
import { randomCallId } from '../sieve/ids.js'

/** An id from the caller's `generateId` (so tests stay deterministic), else `call_` + 24 hex digits. */
export function legacyCallId(resolved: ResolvedAdapterOptions): string {
  const generate = resolved.sieve.generateId
  try {
    const id = typeof generate === 'function' ? generate() : undefined
    if (typeof id === 'string' && id !== '') return id
  } catch {
    // the core reports a failing generateId on the calls it makes; a legacy call just gets a default id
  }
  return randomCallId()
}
