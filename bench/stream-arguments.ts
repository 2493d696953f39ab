/**
 * What `streamArguments` costs: the same seeded turns streamed with and
 * without it, rounds interleaved in one process, in token-sized, 4096-char
 * and whole-turn chunkings; MB/s side by side and the ratio. Every run's
 * calls are checked against the generator's manifest, and with the option
 * every call's deltas must be its arguments.
 *
 *     npx tsx bench/stream-arguments.ts [--mb 4] [--rounds 5]
 */
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createSieve, type SieveEvent } from '../src/index.js'
import { fixedChunks, tokenChunks } from './chunks.js'
import { generateTurns } from './transcripts.js'

const { values } = parseArgs({ options: { mb: { type: 'string', default: '4' }, rounds: { type: 'string', default: '5' } } })
const turns = generateTurns({ seed: 20261201, size: Number(values.mb) * 1024 * 1024 })
const bytes = turns.reduce((n, t) => n + Buffer.byteLength(t.text), 0)
const expected = turns.reduce((n, t) => n + t.calls.length, 0)
const chunkings: Array<[string, (text: string, i: number) => string[]]> = [
  ['token-sized', (text, i) => tokenChunks(text, i + 1)],
  ['4096 chars', (text) => fixedChunks(text, 4096)],
  ['whole turn', (text) => [text]],
]

function pass(chunked: string[][], streamArguments: boolean): number {
  let calls = 0
  const t0 = performance.now()
  for (const chunks of chunked) {
    const sieve = createSieve({ streamArguments })
    const deltas = new Map<string, string>()
    const check = (events: SieveEvent[]) => {
      for (const e of events) {
        if (e.type === 'tool-call-delta') deltas.set(e.id, (deltas.get(e.id) ?? '') + e.delta)
        else if (e.type === 'tool-call') {
          calls++
          if (streamArguments && deltas.get(e.id) !== e.arguments) throw new Error(`call ${e.id}: deltas are not its arguments`)
        }
      }
    }
    for (const c of chunks) check(sieve.push(c))
    check(sieve.end())
  }
  const ms = performance.now() - t0
  if (calls !== expected) throw new Error(`found ${calls} calls, the manifest says ${expected}`)
  return bytes / 1024 / 1024 / (ms / 1000)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
console.log(`${turns.length} turns, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${expected} calls; median of ${values.rounds} interleaved rounds`)
console.log('chunking       off MB/s   on MB/s   on / off')
for (const [name, cut] of chunkings) {
  const chunked = turns.map((t, i) => cut(t.text, i))
  pass(chunked, false)
  pass(chunked, true)
  const off: number[] = []
  const on: number[] = []
  for (let r = 0; r < Number(values.rounds); r++) {
    off.push(pass(chunked, false))
    on.push(pass(chunked, true))
  }
  const a = median(off)
  const b = median(on)
  console.log(`${name.padEnd(13)} ${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(9)} ${(b / a).toFixed(2).padStart(10)}`)
}
