/** Hostile objects and the places in a value they can be put: the hostile-object tests of every adapter share them. */

/**
 * Objects that JSON can spell and that no code may turn into a string or a
 * number: their `toString` and `valueOf` are data, so `String(v)`, a
 * template, `+` or a comparison on them throws a TypeError.
 */
export const hostile: readonly unknown[] = [{ toString: 0 }, { toString: 0, valueOf: 0 }, [{ toString: 0 }], { valueOf: {}, toString: {} }]

export type Path = Array<string | number>

/** Every place in `value` a field can be replaced, the value itself first. */
export function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out)
  return out
}

/** A copy of `value` with `replacement` at `path`. */
export function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), replacement)
  return copy
}
