/**
 * `call_` + 24 random hex digits, from the platform's CSPRNG (Node 20+ and
 * browsers have `crypto`). Random bytes are drawn 64 ids at a time: one
 * `getRandomValues` call per id showed up in profiles of block-heavy streams.
 */
const perBatch = 64
const bytes = new Uint8Array(12 * perBatch)
let next = perBatch
/** Two hex digits per byte value: one table read per byte instead of a `toString(16)` and a pad. */
const hex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

export function randomCallId(): string {
  if (next === perBatch) {
    globalThis.crypto.getRandomValues(bytes)
    next = 0
  }
  let id = 'call_'
  for (let i = next * 12, end = i + 12; i < end; i++) id += hex[bytes[i]!]!
  next++
  return id
}
