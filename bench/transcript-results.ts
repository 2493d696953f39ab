/**
 * What section 1 (`bench/transcript-section.ts`) reports per chunking, per
 * runner and per peer: the shapes under `transcript.chunkings` in
 * `latest.json`, which `chart.ts` draws from.
 */
import { MB, median } from './measure.js'
import type { Pass } from './passes.js'

export interface RunnerResult {
  id: string
  label: string
  turns: number
  bytes: number
  roundsMs: number[]
  mbps: number
  bestMbps: number
  peakHeapMB: number
  exact: number | null
  total: number | null
}

export interface PeerComparison {
  peer: string
  turns: number
  /**
   * The issue's method, interleaved rounds: in every round toolsieve streams exactly the peer's turns in a
   * pass of its own, and the peer streams them in its pass. Medians over rounds; `speedup` is the median of
   * the rounds' time ratios (the peer's time over toolsieve's, same turns).
   */
  sieveMs: number
  /** toolsieve's own passes per round (`OWN_WINDOW_MS`), half before the peer's pass and half after; `sieveMs` is their mean. */
  ownPasses: number
  peerMs: number
  speedup: number
  sieveMbps: number
  /**
   * Paired by blocks of turns: each block through toolsieve, then through the peer, back to back. Each short
   * toolsieve block then runs right after the peer's far longer work on the block before, on the caches and
   * the garbage that work left behind, which slows it (see README).
   */
  blocks: { sieveMs: number; speedup: number; sieveMbps: number }
  /** One pass pairing single turns (toolsieve, then the peer, per turn): the same effect, per turn. */
  turnByTurn: { sieveMs: number; speedup: number; sieveMbps: number }
}

export interface ChunkingResult {
  id: string
  label: string
  chunks: number
  runners: RunnerResult[]
  floorShare: number
  peers: PeerComparison[]
}

/** `passes` are the timed rounds; `warm` the fresh warm-up pass the heap peak comes from. */
export function runnerResult(id: string, label: string, bytes: number, passes: readonly Pass[], warm: Pass, checked: boolean): RunnerResult {
  const roundsMs = passes.map((p) => p.ms)
  const first = passes[0]!
  const exact = checked ? Math.min(warm.exact, ...passes.map((p) => p.exact)) : null
  return {
    id,
    label,
    turns: first.turns,
    bytes,
    roundsMs,
    mbps: bytes / MB / (median(roundsMs) / 1000),
    bestMbps: bytes / MB / (Math.min(...roundsMs) / 1000),
    peakHeapMB: (warm.peakBytes - warm.baseBytes) / MB,
    exact,
    total: checked ? first.turns : null,
  }
}
