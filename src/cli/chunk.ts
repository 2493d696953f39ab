/**
 * `--chunk`: how a turn's text is cut into pushes, to simulate streaming.
 *
 * - `input`: as the input gives it (a recorded SSE stream's deltas, a JSONL
 *   turn whole, a text file in the reads of its stream);
 * - `token`: token-sized pieces of 1–12 UTF-16 units (mean ≈ 4), seeded, with
 *   the weights `bench/chunks.ts` uses, so the figures compare with `npm run bench`;
 * - `N`: pieces of N UTF-16 units;
 * - `whole`: the turn in one push.
 *
 * A chunker is fed the input's pieces as they come and never joins more than
 * one push's worth, except `whole`, which holds the turn by definition.
 */
import { UsageError } from './args.js'

export type Chunking = { kind: 'input' } | { kind: 'token' } | { kind: 'whole' } | { kind: 'size'; size: number }

/** Reads one `--chunk` value. */
export function parseChunking(command: string, value: string): Chunking {
  if (value === 'input' || value === 'token' || value === 'whole') return { kind: value }
  const size = Number(value)
  if (/^\d+$/.test(value) && size >= 1) return { kind: 'size', size }
  throw new UsageError(`${command}: --chunk must be input, token, whole or a size in characters, not ${JSON.stringify(value)}`)
}

/** The name a chunking is reported under: `input`, `token`, `whole`, or its size. */
export function chunkingName(c: Chunking): string {
  return c.kind === 'size' ? String(c.size) : c.kind
}

/** Token lengths 1–12 weighted like a BPE tokenizer's output on English and code (the weights of `bench/chunks.ts`). */
const TOKEN_WEIGHTS = [12, 16, 19, 17, 12, 8, 6, 4, 2, 2, 1, 1]
const TOKEN_TOTAL = TOKEN_WEIGHTS.reduce((a, b) => a + b, 0)

/** mulberry32: a tiny 32-bit PRNG (the benchmarks' generators and chunkings use it too). Floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A token's length, 1–12 UTF-16 units, drawn from `rng` with the weights above (mean ≈ 4.1). */
export function tokenLength(rng: () => number): number {
  let r = rng() * TOKEN_TOTAL
  let n = 1
  for (const w of TOKEN_WEIGHTS) {
    if ((r -= w) < 0) break
    n++
  }
  return Math.min(n, TOKEN_WEIGHTS.length)
}

/** Cuts a stream of pieces into pushes. `feed` returns the pushes ready so far; `flush` the rest at the turn's end. */
export interface Chunker {
  feed(piece: string): string[]
  flush(): string[]
}

/** A chunker for one turn; `seed` makes `token` deterministic (the turn's index). */
export function chunker(c: Chunking, seed: number): Chunker {
  if (c.kind === 'input') return { feed: (piece) => (piece === '' ? [] : [piece]), flush: () => [] }
  // Fragments of the next push(es), joined once a push is complete (never prefix + piece on a growing string).
  let held: string[] = []
  let heldLength = 0
  if (c.kind === 'whole') {
    return {
      feed(piece) {
        held.push(piece)
        return []
      },
      flush() {
        const text = held.join('')
        held = []
        return text === '' ? [] : [text]
      },
    }
  }
  const rng = mulberry32(seed)
  const next = c.kind === 'size' ? () => c.size : () => tokenLength(rng)
  let want = next()
  return {
    feed(piece) {
      if (piece === '') return []
      held.push(piece)
      heldLength += piece.length
      if (heldLength < want) return []
      const text = held.join('')
      const out: string[] = []
      let i = 0
      while (text.length - i >= want) {
        out.push(text.slice(i, i + want))
        i += want
        want = next()
      }
      held = i < text.length ? [text.slice(i)] : []
      heldLength = text.length - i
      return out
    },
    flush() {
      const text = held.join('')
      held = []
      heldLength = 0
      return text === '' ? [] : [text]
    },
  }
}

/** All of a turn's pushes at once (bench splits before it times). */
export function split(c: Chunking, pieces: readonly string[], seed: number): string[] {
  const k = chunker(c, seed)
  const out: string[] = []
  for (const p of pieces) for (const push of k.feed(p)) out.push(push)
  for (const push of k.flush()) out.push(push)
  return out
}
