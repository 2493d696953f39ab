/**
 * Garbage collection on demand, for the tests that check what a collected
 * lexer leaves behind: `--expose-gc` set at run time, and a few turns of the
 * event loop so that finalization callbacks run.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Collects until `done()` holds, or gives up after `rounds` collections
 * (the caller's assertion then fails). A `WeakRef` read in `done` keeps its
 * object to the end of the job, so each collection waits for the next one.
 */
export async function collectUntil(done: () => boolean, rounds = 20): Promise<void> {
  for (let round = 0; round < rounds && !done(); round++) {
    await turn()
    gc()
    await turn()
  }
}
