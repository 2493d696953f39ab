/**
 * How the playground cuts the pasted text into pushes, to show that the
 * sieve's answer does not depend on where a stream's chunks happen to end.
 * Lengths are UTF-16 units, as the sieve counts them (a surrogate pair can be
 * cut in two, as a network stream can cut it).
 */

export type Chunking =
  | { kind: 'whole' }
  | { kind: 'fixed'; size: number }
  | { kind: 'tokens'; seed: number; longest: number }
  | { kind: 'units' }

/** mulberry32: a tiny seeded PRNG, so a seed gives the same cuts on every run and machine. Floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The pushes for `text`; they join back to `text`. `whole` of an empty text
 * is one empty push (the sieve is still ended), every other chunking of it none.
 */
export function cut(text: string, chunking: Chunking): string[] {
  switch (chunking.kind) {
    case 'whole':
      return [text]
    case 'units':
      return fixed(text, 1)
    case 'fixed':
      return fixed(text, chunking.size)
    case 'tokens': {
      const random = mulberry32(chunking.seed)
      const out: string[] = []
      for (let i = 0; i < text.length; ) {
        const n = 1 + Math.floor(random() * chunking.longest)
        out.push(text.slice(i, i + n))
        i += n
      }
      return out
    }
  }
}

function fixed(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

/** A positive whole number from a form field, or the reason it is not one (`field` names it). */
export function positiveInteger(value: string, field: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) throw new RangeError(`${field} must be a whole number of at least 1, got ${JSON.stringify(value)}`)
  return n
}
