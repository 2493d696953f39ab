/** Command-line flags of the dev scripts (`scripts/differential.ts`, the fuzz scripts, `bench/ab.ts`). */

/** The value after `--name` in `argv`, or `fallback` when the flag is absent or last. */
export function flagValue(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(name)
  return i >= 0 && i + 1 < argv.length ? argv[i + 1]! : fallback
}

/** `raw` as a non-negative integer, or a one-line usage error for `--name` and exit 2. */
export function nonNegativeInt(name: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got ${raw}`)
    process.exit(2)
  }
  return n
}
