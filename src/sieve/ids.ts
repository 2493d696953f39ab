/**
 * `call_` + 24 random hex digits, from the platform's CSPRNG (Node 20+ and
 * browsers have `crypto`). Random bytes are drawn 64 ids at a time: one
 * `getRandomValues` call per id showed up in profiles of block-heavy streams.
 */
const perBatch = 64
const bytes = new Uint8Array(12 * perBatch)
let next = perBatch

export function randomCallId(): string {
  if (next === perBatch) {
    globalThis.crypto.getRandomValues(bytes)
    next = 0
  }
  let hex = 'call_'
  for (let i = next * 12, end = i + 12; i < end; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16)
  next++
  return hex
}
