/** Streams chunks through one sieve and sums up what came out: calls, diagnostic codes, and the rebuilt input. */
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/index.js'
import type { ManifestCall } from '../../bench/generate.js'

export function stream(chunks: readonly string[], options: SieveOptions = {}) {
  const sieve = createSieve(options)
  const events: SieveEvent[] = []
  for (const chunk of chunks) events.push(...sieve.push(chunk))
  events.push(...sieve.end())
  const calls: ManifestCall[] = []
  const codes: string[] = []
  const parts: string[] = []
  for (const e of events) {
    if (e.type === 'text') parts.push(e.text)
    else if (e.type === 'tool-call') {
      calls.push({ name: e.name, input: e.input as Record<string, string> })
      parts.push(e.raw)
    } else if (e.type === 'diagnostic' || e.type === 'error') codes.push(e.code)
    else if (e.type === 'reasoning') parts.push(e.text)
    else if (e.type === 'reasoning-start' || e.type === 'reasoning-end') parts.push(e.raw)
  }
  return { calls, codes, rebuilt: parts.join('') }
}
