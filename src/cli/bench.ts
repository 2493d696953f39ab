/**
 * `toolsieve bench FILE…`: the user's own transcripts through the sieve in
 * the chosen chunkings. Files are read as streams, turn by turn, and handed
 * to the jobs in batches; the reader waits while every job has a batch
 * waiting, so a 2 GB JSONL runs in the memory of a few batches.
 */
import { availableParallelism } from 'node:os'
import { choiceFlag, exit, integerFlag, parseCommand, UsageError } from './args.js'
import { inlinePool, workerPool } from './bench-pool.js'
import { renderSummary, Totals, type BenchSummary } from './bench-report.js'
import type { Batch, BatchTurn } from './bench-run.js'
import { chunkingName, parseChunking, type Chunking } from './chunk.js'
import { sieveFlags, sieveOptions } from './sieve-options.js'
import { openSource, type Source } from './source.js'
import { readInput, type InputFormat } from './turns.js'

export const benchHelp = `Usage: toolsieve bench FILE... [options]

Streams each FILE (plain text, JSONL or recorded SSE, as toolsieve parse
reads them; - for stdin) through a fresh sieve per turn in every chunking,
and prints MB/s, turns, calls and diagnostics by chunking, the slowest
turns, peak memory and the speed-up of the jobs.

Options:
  --chunk LIST          chunkings, comma-separated or repeated: token, N
                        (characters), whole, input (default: token,4096,whole)
  --jobs N              worker threads, at most: never more than the cores
                        (${availableParallelism()} here, the default) or the turns; 1 runs in
                        the main thread
  --json                one JSON object on stdout: per chunking mbps, turns,
                        calls, diagnostics; files, speedup, cpuMs, peakRssMB,
                        slowest
  --slowest N           how many of the slowest turns to list (default 5)
  --input text|jsonl|sse, --field PATH   as for toolsieve parse
  --grammar FILE, --dialect NAME, --model ID, --tools FILE, --strict, --thinking
                                                      the sieve's options
  -h, --help            this help

MB/s is UTF-8 input (2^20 bytes) over the sieve's own time in that chunking
(pushes and end(), one thread's view, as npm run bench reports it). The
speed-up is the jobs' busy time over the wall time; the CPU time the
process got over the wall time says how many cores the machine gave.
Progress goes to stderr: a bar on a terminal, a line per file otherwise.

Exit: 0 ok, 1 diagnostics or unreadable lines under --strict, 2 usage.
`

/** A batch is sent once it holds this many UTF-16 units or turns. */
const BATCH_UNITS = 256 * 1024
const BATCH_TURNS = 256

/** Runs `bench`; resolves to the exit code. */
export async function benchCommandMain(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('bench', argv, {
    ...sieveFlags,
    chunk: { type: 'string', multiple: true },
    jobs: { type: 'string' },
    json: { type: 'boolean' },
    slowest: { type: 'string' },
    input: { type: 'string' },
    field: { type: 'string' },
  })
  if (values.help === true) {
    process.stdout.write(benchHelp)
    return exit.ok
  }
  if (positionals.length === 0) throw new UsageError('bench: give one or more FILEs (- for stdin; see --help)')
  const chunkings: Chunking[] = (values.chunk ?? ['token,4096,whole']).flatMap((v) => v.split(',')).filter((v) => v !== '').map((v) => parseChunking('bench', v))
  const names = chunkings.map(chunkingName)
  if (new Set(names).size !== names.length) throw new UsageError(`bench: --chunk names a chunking twice (${names.join(', ')})`)
  // More workers than cores only share them (and each costs its own heap); more than the turns would sit idle.
  const jobs = Math.min(integerFlag('bench', 'jobs', values.jobs, availableParallelism()), availableParallelism())
  const top = integerFlag('bench', 'slowest', values.slowest, 5, 0)
  const inputFormat: InputFormat | undefined = values.input === undefined ? undefined : choiceFlag('bench', 'input', values.input, ['text', 'jsonl', 'sse'] as const, 'text')
  const flags = { grammar: values.grammar, tools: values.tools, strict: values.strict, thinking: values.thinking }
  const options = sieveOptions('bench', flags)
  // Every file is opened (checked) before any work starts: a typo in the third name is a usage error now, not in ten minutes.
  const sources = positionals.map((file) => openSource('bench', file))

  const totals = new Totals(names, top)
  const progress = new Progress(sources)
  const fileTurns = sources.map(() => ({ turns: 0, bytes: 0, pending: 0, read: false }))
  const files: BenchSummary['files'] = []
  const done = (file: number): void => {
    const f = fileTurns[file]!
    if (f.read && f.pending === 0) progress.fileDone(sources[file]!, f.turns, f.bytes)
  }
  const onResult = (r: import('./bench-run.js').BatchResult): void => {
    totals.add(r)
    const f = fileTurns[r.file]!
    f.turns += r.turns
    f.bytes += r.bytes
    f.pending--
    done(r.file)
    progress.update()
  }
  const pool = jobs === 1 ? inlinePool(chunkings, options, onResult) : workerPool(jobs, { chunkings, flags }, onResult)
  const start = performance.now()
  let unreadable = 0
  let id = 0
  try {
    for (const [fileIndex, source] of sources.entries()) {
      const input = await readInput(source, { format: inputFormat, field: values.field })
      files.push({ file: source.name, format: input.format, turns: 0, bytes: 0 })
      let turns: BatchTurn[] = []
      let units = 0
      const send = async (): Promise<void> => {
        if (turns.length === 0) return
        const batch: Batch = { id: id++, file: fileIndex, turns }
        turns = []
        units = 0
        fileTurns[fileIndex]!.pending++
        await pool.submit(batch)
      }
      for await (const turn of input.turns()) {
        if (turn.kind === 'unreadable') {
          unreadable++
          progress.note(`${turn.where}: ${turn.message}; skipped`)
          continue
        }
        turns.push({ where: turn.where, index: turn.index, pieces: turn.pieces })
        for (const p of turn.pieces) units += p.length
        if (units >= BATCH_UNITS || turns.length >= BATCH_TURNS) await send()
      }
      await send()
      fileTurns[fileIndex]!.read = true
      done(fileIndex)
    }
    await pool.drain()
  } finally {
    await pool.close()
  }
  const wallMs = performance.now() - start
  progress.finish()
  files.forEach((f, i) => {
    f.turns = fileTurns[i]!.turns
    f.bytes = fileTurns[i]!.bytes
  })
  const usage = process.resourceUsage()
  const summary = totals.summary(files, unreadable, pool.threads(), wallMs, (usage.userCPUTime + usage.systemCPUTime) / 1000, usage.maxRSS / 1024)
  process.stdout.write(values.json === true ? JSON.stringify(summary) + '\n' : renderSummary(summary))
  const failed = unreadable > 0 || Object.values(summary.chunkings).some((c) => Object.keys(c.diagnostics).length > 0)
  return options.strict === true && failed ? exit.diagnostics : exit.ok
}

/** Progress on stderr: a bar by bytes read when stderr is a terminal, one line per finished file otherwise. */
class Progress {
  private readonly tty = process.stderr.isTTY === true
  private readonly total: number | undefined
  private last = 0
  private drawn = false

  constructor(private readonly sources: readonly Source[]) {
    const sizes = sources.map((s) => s.bytes)
    this.total = sizes.every((b) => b !== undefined) ? sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined
  }

  update(): void {
    if (!this.tty) return
    const now = performance.now()
    if (now - this.last < 100) return
    this.last = now
    const read = this.sources.reduce((a, s) => a + s.read(), 0)
    const mb = (read / 1024 / 1024).toFixed(1)
    if (this.total === undefined || this.total === 0) {
      process.stderr.write(`\r\x1b[Kbench: ${mb} MB read`)
    } else {
      const share = Math.min(1, read / this.total)
      const width = 30
      const filled = Math.round(share * width)
      process.stderr.write(`\r\x1b[Kbench [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0)}% ${mb} MB`)
    }
    this.drawn = true
  }

  note(message: string): void {
    this.clear()
    process.stderr.write(`toolsieve bench: ${message}\n`)
  }

  fileDone(source: Source, turns: number, bytes: number): void {
    if (this.tty) return
    process.stderr.write(`toolsieve bench: ${source.name}: ${turns} turns, ${(bytes / 1024 / 1024).toFixed(2)} MB\n`)
  }

  finish(): void {
    this.clear()
  }

  private clear(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K')
    this.drawn = false
  }
}
