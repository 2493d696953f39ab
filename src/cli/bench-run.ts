/**
 * The work of `bench`, one batch of turns at a time: each turn through a
 * fresh sieve in every chunking (interleaved turn by turn, so that the
 * machine's load falls on every chunking alike), timing the pushes and
 * `end()` only, as `npm run bench` does; splitting happens before the clock
 * starts. Runs in a worker thread, or in the main thread with `--jobs 1`.
 */
import { createSieve, type SieveOptions } from '../index.js'
import { split, type Chunking } from './chunk.js'

/** A turn as the reader hands it over: plain data, so it can cross to a worker. */
export interface BatchTurn {
  where: string
  index: number
  pieces: string[]
}

export interface Batch {
  id: number
  file: number
  turns: BatchTurn[]
}

/** Per chunking, for one batch (summed by the caller). */
export interface ChunkingTally {
  ms: number
  calls: number
  diagnostics: Record<string, number>
}

export interface BatchResult {
  id: number
  file: number
  bytes: number
  turns: number
  /** Wall time of the whole batch in its thread, splitting included: the busy time the speed-up is computed from. */
  busyMs: number
  /** By chunking, in the order given. */
  chunkings: ChunkingTally[]
  /** Each turn's place, UTF-8 bytes and time over all chunkings, for the slowest turns. */
  perTurn: [where: string, bytes: number, ms: number][]
}

/** Runs one batch in every chunking. */
export function runBatch(batch: Batch, chunkings: readonly Chunking[], options: SieveOptions): BatchResult {
  const start = performance.now()
  const tallies: ChunkingTally[] = chunkings.map(() => ({ ms: 0, calls: 0, diagnostics: {} }))
  const perTurn: BatchResult['perTurn'] = []
  let bytes = 0
  for (const turn of batch.turns) {
    let turnBytes = 0
    for (const p of turn.pieces) turnBytes += Buffer.byteLength(p, 'utf8')
    bytes += turnBytes
    let turnMs = 0
    chunkings.forEach((chunking, c) => {
      const pushes = split(chunking, turn.pieces, turn.index)
      const tally = tallies[c]!
      const t0 = performance.now()
      const sieve = createSieve(options)
      let events = 0
      const counted = (list: ReturnType<typeof sieve.push>): void => {
        events += list.length
        for (const e of list) {
          if (e.type === 'tool-call') tally.calls++
          else if (e.type === 'diagnostic' || e.type === 'error') tally.diagnostics[e.code] = (tally.diagnostics[e.code] ?? 0) + 1
        }
      }
      for (const push of pushes) counted(sieve.push(push))
      counted(sieve.end())
      const dt = performance.now() - t0
      tally.ms += dt
      turnMs += dt
      // Keeps the count of events observable, so the engine cannot drop a push whose result looks unused.
      if (events < 0) throw new Error('unreachable')
    })
    perTurn.push([turn.where, turnBytes, turnMs])
  }
  return { id: batch.id, file: batch.file, bytes, turns: batch.turns.length, busyMs: performance.now() - start, chunkings: tallies, perTurn }
}
