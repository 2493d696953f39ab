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

/**
 * Longest id the model may give its call (UTF-16 units): past any real one
 * (Kimi K2's `functions.` + a 64-character tool name + `:` + a count;
 * Mistral's nine characters), short of what would make every event of the
 * call, and the ids a checkpoint carries, grow with what a model writes.
 */
export const maxModelIdLength = 128

/**
 * A character an id passed on must not hold: a control (C0, DEL, C1), a
 * format character (zero-width, bidi overrides, BOM), a blank or line
 * separator, half a surrogate pair (not text in UTF-8). An id is read back
 * by a program, written into a prompt, shown in a log: these would change
 * how it reads, or not survive the trip.
 */
const unprintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}]/u

/** Why the model's `id` cannot be a call's id, or null when it can. Empty ids are no ids: the readers leave them out. */
export function modelIdProblem(id: string): string | null {
  if (id.length > maxModelIdLength) return `the model's call id is ${id.length} characters long, more than ${maxModelIdLength}`
  const bad = unprintable.exec(id)
  if (bad !== null) return `the model's call id ${JSON.stringify(id)} holds U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, a control, format, blank or unpaired surrogate character`
  return null
}

/**
 * The stream's given model ids as a set, for lookups: kept beside the list
 * (which a checkpoint carries), made again when the list grew past it or is
 * another (a restored checkpoint's). A search of the list per call was
 * quadratic in a stream of many calls. Both hold at most
 * {@link maxModelIds} (the set the list's own strings, not copies).
 */
const sets = new WeakMap<readonly string[], Set<string>>()

function setOf(given: readonly string[]): Set<string> {
  let set = sets.get(given)
  if (set === undefined) sets.set(given, (set = new Set(given)))
  else for (let i = set.size; i < given.length; i++) set.add(given[i]!)
  return set
}

/**
 * Most model ids a stream remembers (`DriverState.modelIds`): far past the
 * calls of any real answer, short of letting a stream of calls grow the
 * sieve's memory, and every checkpoint, without bound (at most 1,024 ids of
 * 128 characters: 128 K UTF-16 units). A call past it gets a made id
 * (random: unique with nothing remembered) and an `invalid-call-id` saying why.
 */
export const maxModelIds = 1024

/**
 * The id of a call whose markup carries `own`: `own`, unless it cannot be
 * passed on ({@link modelIdProblem}), names another call already (one of
 * `given`, the stream's, or of `took`, its block's), or the stream has
 * given {@link maxModelIds} already: then a default id, and why. Ids stay
 * unique in the stream whatever the model repeats.
 */
export function modelCallId(own: string, given: readonly string[] | undefined, took: ReadonlySet<string>): CallId {
  const problem =
    modelIdProblem(own) ??
    ((given !== undefined && setOf(given).has(own)) || took.has(own)
      ? `the model's call id ${JSON.stringify(own)} was given to an earlier call of the stream`
      : (given?.length ?? 0) + took.size >= maxModelIds
        ? `the stream's calls have had ${maxModelIds} ids of the model's own, as many as the sieve remembers to keep them unique`
        : null)
  return problem === null ? { id: own, problem: null } : madeId(problem)
}

/** A made id for a call whose own id could not be used, and `why`. */
export function madeId(why: string): CallId {
  return { id: randomCallId(), problem: `${why}; the call got a default id` }
}
