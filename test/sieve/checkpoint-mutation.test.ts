/**
 * The checkpoint mutation property (`checkpoint-mutation.run.ts`): random
 * checkpoints of random streams, one field mutated, must be refused with
 * `invalid-checkpoint` or resume to a stream that finishes without an
 * `internal-error`; unmutated, they resume to the uninterrupted events. It
 * runs in a child process: a push that never returns is a child that never
 * exits, killed by the watchdog below, and the case it was on is reported.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const runner = fileURLToPath(new URL('./checkpoint-mutation.run.ts', import.meta.url))
/** A watchdog, not a timing assertion: 300 runs take seconds; a hang never ends. */
const watchdog = 240_000

function property(seed: number, runs: number): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', runner, String(seed), String(runs)], { encoding: 'utf8', timeout: watchdog, maxBuffer: 1 << 28 })
  const cases = r.stderr.split('\n').filter((l) => l.startsWith('case '))
  const last = cases[cases.length - 1] ?? '(none)'
  expect(r.error === undefined || (r.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT', `a resume did not finish; the case: ${last}`).toBe(true)
  const failure = r.stderr.split('\n').filter((l) => !l.startsWith('case ')).join('\n')
  expect(r.status, `the property failed:\n${failure.slice(0, 4000)}`).toBe(0)
  const { mutated, refused } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { mutated: number; refused: number }
  expect(mutated).toBe(runs)
  // both outcomes occur: the property is not vacuous
  expect(refused).toBeGreaterThan(0)
  expect(refused).toBeLessThan(runs)
}

describe('checkpoint mutations', () => {
  it('should support any single-field mutation of a checkpoint: refused (invalid-checkpoint) or resumed without internal-error or hang', () => {
    property(20261203, 300)
  }, watchdog + 30_000)
})
