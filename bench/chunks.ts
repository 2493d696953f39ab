/**
 * How a text is cut into pushes, shared by the benchmarks and the tests:
 * token-sized chunks, as a model's stream delivers them, and fixed sizes.
 * Seeded like the generators: same seed, same chunking.
 */
import { mulberry32 } from './generate.js'

/**
 * Token lengths 1–12 (UTF-16 units), weighted like a BPE tokenizer's output on
 * English and code: mean ≈ 4.1.
 */
const TOKEN_WEIGHTS = [12, 16, 19, 17, 12, 8, 6, 4, 2, 2, 1, 1]
const TOKEN_TOTAL = TOKEN_WEIGHTS.reduce((a, b) => a + b, 0)

/** Split `text` into token-sized chunks of 1–12 UTF-16 units (mean ≈ 4), seeded. */
export function tokenChunks(text: string, seed: number): string[] {
  const rng = mulberry32(seed)
  const chunks: string[] = []
  for (let i = 0; i < text.length; ) {
    let r = rng() * TOKEN_TOTAL
    let n = 1
    for (const w of TOKEN_WEIGHTS) {
      if ((r -= w) < 0) break
      n++
    }
    if (n > TOKEN_WEIGHTS.length) n = TOKEN_WEIGHTS.length
    chunks.push(text.slice(i, i + n))
    i += n
  }
  return chunks
}

/** Split `text` into fixed-size chunks. */
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
