/**
 * How a text is cut into pushes, shared by the benchmarks and the tests:
 * token-sized chunks, as a model's stream delivers them, and fixed sizes.
 * Seeded like the generators: same seed, same chunking.
 */
import { mulberry32, tokenLength } from '../src/cli/chunk.js'

/** Split `text` into token-sized chunks of 1–12 UTF-16 units (mean ≈ 4), seeded: the lengths `toolsieve bench --chunk token` draws. */
export function tokenChunks(text: string, seed: number): string[] {
  const rng = mulberry32(seed)
  const chunks: string[] = []
  for (let i = 0; i < text.length; ) {
    const n = tokenLength(rng)
    chunks.push(text.slice(i, i + n))
    i += n
  }
  return chunks
}

/** Split `text` into fixed-size chunks. */
/** The benchmark's chunkings by id: token-sized (seeded per text), 16 and 4096 characters, the whole text. */
export const CHUNKINGS: ReadonlyArray<readonly [string, (text: string, seed: number) => string[]]> = [
  ['token', (t, seed) => tokenChunks(t, seed)],
  ['16', (t) => fixedChunks(t, 16)],
  ['4096', (t) => fixedChunks(t, 4096)],
  ['whole', (t) => [t]],
]

export function fixedChunks(text: string, size: number): string[] {
  const chunks: string[] = []
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size))
  return chunks
}

/** Splits `input` into pieces of 1..maxSize UTF-16 units, drawn from `random` (the tests' random chunkings too). */
export function randomSplit(input: string, random: () => number, maxSize = 12): string[] {
  const chunks: string[] = []
  for (let i = 0; i < input.length; ) {
    const size = 1 + Math.floor(random() * maxSize)
    chunks.push(input.slice(i, i + size))
    i += size
  }
  return chunks
}
