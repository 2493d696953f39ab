/**
 * The timed and checked passes of `bench/dialects.ts`: one fresh parser per
 * turn, the turns chunked up front, CPU time of the process (the machine is
 * shared: time spent waiting for a core is not the parser's).
 *
 * A timed pass counts the calls it read, so every round also guards
 * correctness cheaply; the warm-up pass checks each turn in full.
 */
import type { TCMProtocol } from '@ai-sdk-tool/parser'
import type { ManifestCall } from './generate.js'
import { toolsieve } from './lib.js'
import { drainTimers, parser } from './peers.js'

/** Timed from the compiled package, as users run it (see `bench/lib.ts`). */
const { createSieve } = toolsieve

/** A call's input as text, keys sorted: inputs compare key-order-blind. */
const canonical = (input: Record<string, unknown>): string => JSON.stringify(Object.keys(input).sort().map((k) => [k, input[k]]))

/**
 * Same calls in the same order, by name and input. (`bench/passes.ts` has
 * one too, but importing it reads the main bench's flags from the command line.)
 */
export function sameCalls(a: readonly ManifestCall[], b: readonly ManifestCall[]): boolean {
  return a.length === b.length && a.every((x, i) => x.name === b[i]!.name && canonical(x.input) === canonical(b[i]!.input))
}

/** Keeps the text the sieve passes on observable, so no work is optimised away. */
let sink = 0

export const sinkValue = (): number => sink

/** How the turns are cut into pushes (`seed`: the turn's, for token-sized chunks). */
export interface Chunking {
  id: string
  label: string
  split(text: string, seed: number): string[]
}

/** What a timed pass took and read. */
export interface Timed {
  ms: number
  calls: number
}

function cpuMs(t0: NodeJS.CpuUsage): number {
  const t = process.cpuUsage(t0)
  return (t.user + t.system) / 1000
}

/** Every turn through a fresh `createSieve({ dialect })`. */
export function sievePass(dialect: string, chunked: ReadonlyArray<readonly string[]>): Timed {
  let calls = 0
  const t0 = process.cpuUsage()
  for (let i = 0; i < chunked.length; i++) {
    const chunks = chunked[i]!
    const sieve = createSieve({ dialect })
    for (let k = 0; k < chunks.length; k++) {
      for (const e of sieve.push(chunks[k]!)) {
        if (e.type === 'tool-call') calls++
        else if (e.type === 'text') sink += e.text.length
      }
    }
    for (const e of sieve.end()) {
      if (e.type === 'tool-call') calls++
      else if (e.type === 'text') sink += e.text.length
    }
  }
  return { ms: cpuMs(t0), calls }
}

/**
 * Every turn through a fresh sieve, checked: the calls in order with their
 * inputs, no diagnostic, and every character out once (text plus the calls'
 * raw markup). Returns one line per wrong turn (at most `limit`), and the count.
 */
export function checkPass(dialect: string, chunked: ReadonlyArray<readonly string[]>, texts: readonly string[], expected: ReadonlyArray<readonly ManifestCall[]>, limit = 3): { wrong: number; problems: string[] } {
  let wrong = 0
  const problems: string[] = []
  for (let i = 0; i < chunked.length; i++) {
    const sieve = createSieve({ dialect })
    const events = chunked[i]!.flatMap((c) => sieve.push(c))
    events.push(...sieve.end())
    const calls: ManifestCall[] = []
    const diagnostics: string[] = []
    let chars = 0
    for (const e of events) {
      if (e.type === 'text') chars += e.text.length
      else if (e.type === 'tool-call') {
        calls.push({ name: e.name, input: e.input as Record<string, string> })
        chars += e.raw.length
      } else if (e.type === 'diagnostic' || e.type === 'error') diagnostics.push(e.code)
      else if (e.type === 'reasoning') chars += e.text.length
      else if (e.type === 'reasoning-start' || e.type === 'reasoning-end') chars += e.raw.length
    }
    const why: string[] = []
    if (!sameCalls(calls, expected[i]!)) why.push(`read ${calls.length} call(s) of ${expected[i]!.length}${calls.length === expected[i]!.length ? ', inputs differ' : ''}`)
    if (diagnostics.length > 0) why.push(`diagnostics ${diagnostics.join(', ')}`)
    if (chars !== texts[i]!.length) why.push(`${chars} of ${texts[i]!.length} characters out`)
    if (why.length > 0) {
      wrong++
      if (problems.length < limit) problems.push(`turn ${i}: ${why.join('; ')}`)
    }
  }
  return { wrong, problems }
}

/** A peer's pass: every turn through a fresh stream parser of `make()`; the turns it read exactly, and its deferred timers drained after the clock stops. */
export async function peerPass(make: () => TCMProtocol, chunked: ReadonlyArray<readonly string[]>, expected: ReadonlyArray<readonly ManifestCall[]>): Promise<Timed & { exact: number }> {
  let calls = 0
  let exact = 0
  let ms = 0
  for (let i = 0; i < chunked.length; i++) {
    const chunks = chunked[i]!
    const t0 = process.cpuUsage()
    const p = parser(make())
    for (let k = 0; k < chunks.length; k++) p.push(chunks[k]!)
    p.end()
    ms += cpuMs(t0)
    calls += p.calls.length
    if (sameCalls(p.calls, expected[i]!)) exact++
    sink += p.textChars
  }
  await drainTimers()
  return { ms, calls, exact }
}
