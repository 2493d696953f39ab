/** `call_` + 24 random hex digits, from the platform's CSPRNG (Node 20+ and browsers have `crypto`). */
export function randomCallId(): string {
  const bytes = new Uint8Array(12)
  globalThis.crypto.getRandomValues(bytes)
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return 'call_' + hex
}
