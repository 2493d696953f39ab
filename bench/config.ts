/**
 * The benchmark's flags (`npm run bench -- --help`), the sections to run and
 * the targets.
 */
import { parseArgs } from 'node:util'

// ---------------------------------------------------------------------------
// Flags

const HELP = `npm run bench -- [flags]
  --quick              small sizes for a fast look (2 MB transcript, scaling to 1 MB, 10 MB heap run)
  --mb N               transcript size in MB (default 20; quick 2)
  --rounds N           timed rounds after the warm-up, median reported (default 5)
  --seed N             generator seed (default 20240601)
  --only LIST          sections to run: transcript,guard,scaling,adversarial,heap (default all)
  --no-peers           skip @ai-sdk-tool/parser
  --peer-mb N          most MB of turns a peer streams per chunking (default 2; quick 0.5)
  --peer-budget S      a peer's warm-up pass stops after S seconds; rounds reuse its turns (default 4; quick 1)
  --peer-turn-kb N     peers skip turns larger than N KB (default 32): their time grows with the square of a call's length
  --scale-max-kb N     largest parameter in the scaling table (default 4096; quick 1024)
  --adv-scale X        size factor of the adversarial inputs (default 1; quick 0.25)
  --heap-mb N          size of the heap-check stream (default 100; quick 10)
  --out DIR            write latest.json, latest.md, chart.svg to DIR (default bench/results on full runs; quick and --only runs write nothing unless given)`

const { values: flags } = parseArgs({
  options: {
    help: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    mb: { type: 'string' },
    rounds: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'no-peers': { type: 'boolean', default: false },
    'peer-mb': { type: 'string' },
    'peer-budget': { type: 'string' },
    'peer-turn-kb': { type: 'string' },
    'scale-max-kb': { type: 'string' },
    'adv-scale': { type: 'string' },
    'heap-mb': { type: 'string' },
    out: { type: 'string' },
  },
})
if (flags.help) {
  console.log(HELP)
  process.exit(0)
}

function num(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} wants a positive number, got ${value}`)
    process.exit(2)
  }
  return n
}

export const quick = flags.quick
export const config = {
  quick,
  mb: num(flags.mb, quick ? 2 : 20, 'mb'),
  rounds: Math.round(num(flags.rounds, 5, 'rounds')),
  seed: Math.round(num(flags.seed, 20240601, 'seed')),
  peers: !flags['no-peers'],
  peerMb: num(flags['peer-mb'], quick ? 0.5 : 2, 'peer-mb'),
  peerBudgetS: num(flags['peer-budget'], quick ? 1 : 4, 'peer-budget'),
  peerTurnKb: num(flags['peer-turn-kb'], 32, 'peer-turn-kb'),
  scaleMaxKb: num(flags['scale-max-kb'], quick ? 1024 : 4096, 'scale-max-kb'),
  advScale: num(flags['adv-scale'], quick ? 0.25 : 1, 'adv-scale'),
  heapMb: num(flags['heap-mb'], quick ? 10 : 100, 'heap-mb'),
}
export const SECTIONS = ['transcript', 'guard', 'scaling', 'adversarial', 'heap'] as const
export type Section = (typeof SECTIONS)[number]
const only = new Set((flags.only ?? SECTIONS.join(',')).split(',').map((s) => s.trim()))
for (const s of only) {
  if (!(SECTIONS as readonly string[]).includes(s)) {
    console.error(`--only: unknown section ${s} (know ${SECTIONS.join(', ')})`)
    process.exit(2)
  }
}
export const runs = (s: Section): boolean => only.has(s)
// only a full run replaces the committed results README quotes: a part of one (`--only`) would leave them half new
export const outDir = flags.out ?? (quick || flags.only !== undefined ? undefined : 'bench/results')

/** The targets. */
export const TARGETS = {
  floorShare: 0.25,
  peerSpeedup: 20,
  doubling: 2.2,
  adversarialSlowdown: 5,
}

/** Warm-up before timing: passes repeat until this much time went by. */
export const WARM_UP_MS = 2000

/**
 * In each round toolsieve's own pass over a peer's turns repeats until it has run about this long, half
 * the repetitions before the peer's pass and half after: a single pass of toolsieve takes a twentieth of
 * the peer's, so alone it samples the machine's load over a far shorter window than the peer's pass
 * averages over, and one slow spell decides the round's ratio.
 */
export const OWN_WINDOW_MS = 2000

/** Turns per pairing block in the peer passes (see `peerPass`). */
export const PAIR_BLOCK = 64
