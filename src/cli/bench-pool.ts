/**
 * Where `bench` sends its batches: worker threads (`--jobs N`), or the main
 * thread for `--jobs 1`. Workers start only when a batch finds every one
 * busy, so there are never more than the batches (a one-turn file runs in
 * one worker, whatever `--jobs`). Each worker has at most two batches in
 * flight (one running, one waiting), and `submit` waits for a free slot, so
 * the reader pauses and memory stays bounded by the batches in flight
 * whatever the input's size.
 */
import { Worker } from 'node:worker_threads'
import type { SieveOptions } from '../index.js'
import type { Chunking } from './chunk.js'
import { runBatch, type Batch, type BatchResult } from './bench-run.js'
import type { WorkerInit } from './bench-worker.js'

export interface Pool {
  /** Resolves once the batch is taken (a slot was free); its result goes to the pool's callback. */
  submit(batch: Batch): Promise<void>
  /** Resolves when every batch submitted has its result. */
  drain(): Promise<void>
  close(): Promise<void>
  /** How many threads ran batches: the workers started, or 1 for the main thread. */
  threads(): number
}

const IN_FLIGHT = 2

/**
 * A worker running `bench-worker` beside this module. From the package that
 * is `bench-worker.js`; run from the sources (`node --import tsx
 * src/cli/main.ts`, as the tests do) it is `bench-worker.ts`, and a worker
 * does not inherit tsx's loader hooks on Node 20, so it registers them first.
 */
function startWorker(init: WorkerInit): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./bench-worker.js', import.meta.url), { workerData: init })
  const url = new URL('./bench-worker.ts', import.meta.url).href
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}) })`
  return new Worker(boot, { eval: true, workerData: init })
}

/** At most `jobs` workers, each started when a batch finds the others busy. */
export function workerPool(jobs: number, init: WorkerInit, onResult: (r: BatchResult) => void): Pool {
  let failure: Error | undefined
  let closing = false
  let waiters: (() => void)[] = []
  const wake = (): void => {
    const w = waiters
    waiters = []
    for (const f of w) f()
  }
  const workers: { worker: Worker; inFlight: number }[] = []
  const start = (): { worker: Worker; inFlight: number } => {
    const worker = startWorker(init)
    const slot = { worker, inFlight: 0 }
    worker.on('message', (result: BatchResult) => {
      slot.inFlight--
      onResult(result)
      wake()
    })
    worker.on('error', (error) => {
      failure ??= error
      wake()
    })
    // A worker that stops on its own (killed, out of memory) would leave its batches in flight for ever.
    worker.on('exit', (code) => {
      if (closing) return
      failure ??= new Error(`a bench worker stopped (exit code ${code}) with ${slot.inFlight} batches in flight`)
      wake()
    })
    workers.push(slot)
    return slot
  }
  const idle = () => workers.find((w) => w.inFlight === 0)
  const free = () => workers.reduce((best, w) => (w.inFlight < best.inFlight ? w : best))
  const check = (): void => {
    if (failure !== undefined) throw failure
  }
  return {
    async submit(batch) {
      check()
      // A batch that finds no idle worker starts one, while under the jobs.
      if (idle() === undefined && workers.length < jobs) start()
      for (; free().inFlight >= IN_FLIGHT; check()) await new Promise<void>((r) => waiters.push(r))
      const slot = idle() ?? free()
      slot.inFlight++
      slot.worker.postMessage(batch)
    },
    async drain() {
      for (check(); workers.some((w) => w.inFlight > 0); check()) await new Promise<void>((r) => waiters.push(r))
    },
    async close() {
      closing = true
      await Promise.all(workers.map((w) => w.worker.terminate()))
    },
    threads: () => Math.max(1, workers.length),
  }
}

/** `--jobs 1`: the batches run in this thread, one after the other, with a turn of the event loop between them for the progress bar. */
export function inlinePool(chunkings: readonly Chunking[], options: SieveOptions, onResult: (r: BatchResult) => void): Pool {
  return {
    async submit(batch) {
      onResult(runBatch(batch, chunkings, options))
      await new Promise<void>((r) => setImmediate(r))
    },
    async drain() {},
    async close() {},
    threads: () => 1,
  }
}
