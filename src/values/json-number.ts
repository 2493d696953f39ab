/**
 * Numbers that keep their digits. Apart from the parser so that `own.ts`
 * (which the parser uses) can tell one from a plain object.
 */

/**
 * A number whose written text differs from how JavaScript would write it
 * back (`1.0`, `1e5`, `-0`, integers past 2^53, more digits than a double
 * holds). Anything else stays a plain number, so the common case allocates
 * nothing.
 */
export class JsonNumber {
  constructor(
    /** The number exactly as written (JSON's number grammar). */
    readonly source: string,
    /** The nearest double: what `JSON.parse` gives for `source`. */
    readonly value: number,
  ) {}
}

/** A number from JSON text, or null when it is not one JavaScript can hold (`1e400`). */
export function jsonNumber(source: string): number | JsonNumber | null {
  const n = Number(source)
  if (!Number.isFinite(n)) return null
  return String(n) === source ? n : new JsonNumber(source, n)
}
