/**
 * A `bench` worker thread: builds the sieve options from the same flags as
 * the main thread (a grammar object does not cross threads as is), then
 * runs each batch it is sent and posts the result back.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Chunking } from './chunk.js'
import { runBatch, type Batch } from './bench-run.js'
import { sieveOptions, type SieveFlagValues } from './sieve-options.js'

/** What the main thread gives each worker at start. */
export interface WorkerInit {
  chunkings: Chunking[]
  flags: SieveFlagValues
}

const init = workerData as WorkerInit
const options = sieveOptions('bench', init.flags)
parentPort?.on('message', (batch: Batch) => {
  parentPort?.postMessage(runBatch(batch, init.chunkings, options))
})
