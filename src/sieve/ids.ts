/**
 * `call_` + 24 random hex digits, from the platform's CSPRNG (Node 20+ and
 * browsers have `crypto`). Random bytes are drawn for 1,024 ids at a time: a
 * `getRandomValues` call costs about as much for 12 KB as for 768 bytes, and
 * drawn 64 ids at a time it still showed in profiles of block-heavy streams.
 * Each id is made in one piece from character codes, not joined from 13.
 */
import { codeAt } from '../lexer/codes.js'
const perBatch = 1024
const bytes = new Uint8Array(12 * perBatch)
let next = perBatch
const hexDigits = Array.from('0123456789abcdef', (c) => codeAt(c, 0))
/** `call_`, then the 24 digits of the current id. */
const codes: number[] = [...Array.from('call_', (c) => codeAt(c, 0)), ...new Array<number>(24).fill(0)]

export function randomCallId(): string {
  if (next === perBatch) {
    globalThis.crypto.getRandomValues(bytes)
    next = 0
  }
  for (let i = 0, j = next * 12; i < 12; i++, j++) {
    const b = bytes[j]!
    codes[5 + 2 * i] = hexDigits[b >> 4]!
    codes[6 + 2 * i] = hexDigits[b & 15]!
  }
  next++
  return String.fromCharCode.apply(null, codes)
}

/** A call's id, and why the caller's `generateId` could not give it (null when it did). */
export interface CallId {
  id: string
  problem: string | null
}

/**
 * An id from `generate` (the `generateId` option). A generator that throws
 * or gives something other than a non-empty string is a bug on the caller's
 * side; the call is still good, so it gets a default id and the problem is
 * reported, instead of the call becoming lost text.
 */
export function callId(generate: () => string): CallId {
  let id: unknown
  try {
    id = generate()
  } catch (e) {
    return { id: randomCallId(), problem: `generateId threw (${String((e as Error)?.message ?? e)}); the call got a default id` }
  }
  if (typeof id === 'string' && id !== '') return { id, problem: null }
  const got = id === '' ? 'an empty string' : id === null ? 'null' : typeof id === 'object' ? 'an object' : `${typeof id} ${String(id)}`
  return { id: randomCallId(), problem: `generateId returned ${got}, not a non-empty string; the call got a default id` }
}
