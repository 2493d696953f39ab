/** Command-line flags of the dev scripts (`scripts/differential.ts`, `bench/ab.ts`). */

/** The value after `--name` in `argv`, or `fallback` when the flag is absent or last. */
export function flagValue(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(name)
  return i >= 0 && i + 1 < argv.length ? argv[i + 1]! : fallback
}
