/**
 * Differential check: the working tree's sieve against a reference commit's,
 * event for event, over the property tests' generated documents, the
 * benchmarks' large documents and the DeepSeek encoder fixtures, each under
 * many chunkings, capture limits and lexer windows. A restructure or a speed
 * change must show 0 differences.
 *
 *   git worktree add -f /tmp/ref <rev> && ln -sf "$PWD/node_modules" /tmp/ref/node_modules
 *   npx tsx scripts/differential.ts [--ref /tmp/ref] [--docs 3000] [--quick]
 *
 * Prints how many runs were compared, how many differed, and the first few
 * differences with a minimal repro (the shortest chunking that differs).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { document, arbitraryText, markdownDocument, guardLine, htmlLine, blockLine } from '../test/properties/generator.js'
import { heldParagraphs } from '../test/properties/paragraphs.js'
import { nativeBlock } from '../test/properties/values.js'
import { ADVERSARIAL } from '../bench/adversarial.js'
import { generateTranscript, mulberry32 } from '../bench/generate.js'
import { generateTurns } from '../bench/transcripts.js'
import { fixedChunks, randomSplit, tokenChunks } from '../bench/chunks.js'
import type { SieveEvent, SieveOptions } from '../src/index.js'
import { firstDifference, normalised } from './differential-events.js'
import { flagValue } from './args.js'

interface Internals { windowSize?: number }
type Make = (options: SieveOptions, internals: Internals) => { push(c: string): SieveEvent[]; end(): SieveEvent[] }

const args = process.argv.slice(2)
const flag = (name: string, fallback: string): string => flagValue(args, name, fallback)
const refRoot = flag('--ref', '/tmp/ref')
const docCount = Number(flag('--docs', '3000'))
const quick = args.includes('--quick')

async function load(root: string): Promise<Make> {
  const mod = (await import(pathToFileURL(join(root, 'src/sieve/create.ts')).href)) as { sieveWith: Make }
  return mod.sieveWith
}

const mine = await load(new URL('..', import.meta.url).pathname)
const theirs = await load(refRoot)

/** One run of `make` over `chunks`: its events, normalised (`differential-events.ts`), or what it threw. */
function run(make: Make, chunks: readonly string[], options: SieveOptions, internals: Internals): string {
  let n = 0
  const sieve = make({ ...options, generateId: () => `id${n++}` }, internals)
  const events: SieveEvent[] = []
  try {
    for (const c of chunks) for (const e of sieve.push(c)) events.push(e)
    for (const e of sieve.end()) events.push(e)
  } catch (e) {
    return `threw ${String((e as Error).message)}`
  }
  return normalised(events)
}

type Chunker = { name: string; cut: (text: string) => string[] }

const randomCuts = (text: string, seed: number, max: number): string[] => randomSplit(text, mulberry32(seed), max)

const small: Chunker[] = [
  { name: 'whole', cut: (t) => [t] },
  { name: '1', cut: (t) => fixedChunks(t, 1) },
  { name: '4', cut: (t) => fixedChunks(t, 4) },
  { name: '16', cut: (t) => fixedChunks(t, 16) },
  { name: '4096', cut: (t) => fixedChunks(t, 4096) },
  { name: 'token', cut: (t) => tokenChunks(t, 7) },
  { name: 'random', cut: (t) => randomCuts(t, t.length, 12) },
  { name: 'random-64', cut: (t) => randomCuts(t, t.length + 1, 64) },
]
const large: Chunker[] = small.filter((c) => c.name !== '1' && c.name !== 'random-64')

interface Config { label: string; options: SieveOptions; internals: Internals }
const configs: Config[] = [
  { label: 'default', options: {}, internals: {} },
  { label: 'limit 64', options: { captureLimit: 64 }, internals: {} },
  { label: 'limit 200', options: { captureLimit: 200 }, internals: {} },
  { label: 'window 7', options: {}, internals: { windowSize: 7 } },
  { label: 'window 33, limit 200', options: { captureLimit: 200 }, internals: { windowSize: 33 } },
  { label: 'streamArguments', options: { streamArguments: true }, internals: {} },
  { label: 'streamArguments, limit 200, window 7', options: { streamArguments: true, captureLimit: 200 }, internals: { windowSize: 7 } },
  { label: 'reasoningCalls call', options: { reasoningCalls: 'call', startInReasoning: true }, internals: {} },
]

let runs = 0
let documents = 0
const diffs: string[] = []


function compare(source: string, text: string, chunkers: readonly Chunker[], cfgs: readonly Config[], options: SieveOptions = {}): void {
  documents++
  for (const cfg of cfgs) {
    const opts = { ...options, ...cfg.options }
    for (const ch of chunkers) {
      const chunks = ch.cut(text)
      runs++
      const a = run(mine, chunks, opts, cfg.internals)
      const b = run(theirs, chunks, opts, cfg.internals)
      if (a === b) continue
      if (diffs.length < 8) {
        const repro = text.length < 400 ? JSON.stringify(text) : `(${text.length} chars)`
        diffs.push(`${source} · ${cfg.label} · chunks ${ch.name}\n  input ${repro}\n  chunks ${chunks.length <= 40 ? JSON.stringify(chunks) : chunks.length}\n  ${firstDifference(a, b)}`)
      } else diffs.push('')
    }
  }
}

const t0 = Date.now()
const seed = 20261201
const sample = <T>(arb: fc.Arbitrary<T>, n: number, s: number): T[] => fc.sample(arb, { seed: s, numRuns: n })
const generated: Array<[string, string[]]> = [
  ['document(12)', sample(document(), docCount, seed)],
  ['document(16)', sample(document(16), Math.ceil(docCount / 3), seed + 1)],
  ['arbitraryText', sample(arbitraryText, Math.ceil(docCount / 3), seed + 2)],
  ['heldParagraphs', sample(heldParagraphs, Math.ceil(docCount / 3), seed + 3)],
  ['markdown guard', sample(markdownDocument(fc.oneof(guardLine, htmlLine, blockLine)), Math.ceil(docCount / 3), seed + 4)],
  ['nativeBlock', sample(nativeBlock, Math.ceil(docCount / 6), seed + 5).map((b) => (b as { markup?: string }).markup ?? String(b))],
]
for (const [name, docs] of generated) for (const d of docs) compare(name, d, small, configs)
console.log(`generated: ${documents} documents, ${runs} runs, ${diffs.length} differences (${((Date.now() - t0) / 1000).toFixed(0)} s)`)

const big = configs.filter((c) => c.label === 'default' || c.label === 'limit 200' || c.label === 'streamArguments')
const scale = quick ? 0.05 : 0.25
for (const make of ADVERSARIAL) {
  const a = make(scale)
  compare(`adversarial ${a.id}`, a.text, large, big)
}
compare('transcript 1 MB', generateTranscript({ seed: 20240601, size: quick ? 128 * 1024 : 1024 * 1024 }).text, large, big)
for (const turn of generateTurns({ seed: 7, size: quick ? 64 * 1024 : 512 * 1024 }).slice(0, quick ? 40 : 400)) {
  compare('bench turn', turn.text, large, configs.slice(0, 1))
}
console.log(`+ large: ${documents} documents, ${runs} runs, ${diffs.length} differences (${((Date.now() - t0) / 1000).toFixed(0)} s)`)

const fixtures = '/work/shared/fixtures/deepseek-encoder/'
for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.jsonl'))) {
  const records = readFileSync(join(fixtures, file), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; text: string; thinking_mode: string })
  for (const r of quick ? records.slice(0, 50) : records) {
    compare(`encoder ${r.id}`, r.text, [small[0]!, small[1]!, small[5]!, small[6]!], [configs[0]!, configs[1]!, configs[5]!], { startInReasoning: r.thinking_mode === 'thinking' })
  }
}
console.log(`+ encoder: ${documents} documents, ${runs} runs, ${diffs.length} differences (${((Date.now() - t0) / 1000).toFixed(0)} s)`)

for (const d of diffs.filter((x) => x !== '').slice(0, 5)) console.log(`\n${d}`)
console.log(`\ndifferential: ${documents} documents × chunkings × configs = ${runs} runs, ${diffs.length} differences`)
process.exit(diffs.length === 0 ? 0 : 1)
