/**
 * Differential check over the dialect packs: one tree's sieve against a
 * reference tree's, event for event, for every pack the sieve reads (each
 * layout it reads), with most weight on blocks that end with their JSON
 * (`Grammar.blocks.json`: Mistral, Granite, Phi-4-mini's functools, Apertus)
 * and blocks anchored at the message start (Llama 3.1 JSON, Llama 3.2's
 * list, xLAM). The inputs: every fixture case of a pack (rendered ones
 * starting in reasoning as `test/dialects/read-fixtures.test.ts` starts
 * them); the suites' calls written by `formatToolCalls` in every layout,
 * around prose, indented, fenced, in a code span, cut short, broken, doubled;
 * openers alone, before 200 blanks, before JSON nested past the depth limit;
 * and seeded random strings of the pack's delimiters and JSON punctuation.
 * Each under many chunkings and configs, one of which takes a checkpoint
 * after every chunk and resumes into a new sieve (each tree its own).
 *
 *   git worktree add -f /tmp/refh HEAD && ln -sf "$PWD/node_modules" /tmp/refh/node_modules
 *   npx tsx scripts/differential-dialects.ts [--ref /tmp/refh] [--mine <root>] [--random 150] [--quick]
 *
 * `--mine` (default: this working tree) is the tree compared; `--mine X
 * --ref X` must show 0 (the script is deterministic). Prints each group's
 * runs, the differences, and the first few with a shrunk repro (chunks
 * dropped and merged while the trees still differ). Exit 1 on any difference.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { mulberry32 } from '../bench/generate.js'
import { fixedChunks, randomSplit, tokenChunks } from '../bench/chunks.js'
import { dialects, formatToolCalls } from '../src/index.js'
import type { SieveCheckpoint, SieveEvent, SieveOptions, ToolDefinition } from '../src/index.js'
import type { DialectPack } from '../src/dialects/types.js'
import { anchoredDelimiters, jsonDelimiters, wholeDelimiters } from '../src/dialects/grammar.js'
import { fixture, fixtureFiles, otherCall, readCall, readLayouts, readPacks, trickyCall, type FixtureCase } from '../test/helpers/dialects.js'
import { firstDifference, normalised } from './differential-events.js'
import { flagValue, nonNegativeInt } from './args.js'

interface Internals { windowSize?: number }
interface Sieve { push(c: string): SieveEvent[]; end(): SieveEvent[]; checkpoint(): SieveCheckpoint }
type Make = (options: SieveOptions, internals: Internals) => Sieve

const args = process.argv.slice(2)
const flag = (name: string, fallback: string): string => flagValue(args, name, fallback)
const quick = args.includes('--quick')
const refRoot = flag('--ref', '/tmp/refh')
const mineRoot = flag('--mine', new URL('..', import.meta.url).pathname)
const randomPerPack = nonNegativeInt('random', flag('--random', quick ? '30' : '150'))

async function load(root: string): Promise<Make> {
  const mod = (await import(pathToFileURL(join(root, 'src/sieve/create.ts')).href)) as { sieveWith: Make }
  return mod.sieveWith
}
const mine = await load(mineRoot)
const theirs = await load(refRoot)

/**
 * Events normalised for comparison: adjacent text and reasoning merged, everything else as given (ids are
 * deterministic). `resume`: after every chunk the checkpoint goes through JSON into a new sieve of the same tree.
 */
function run(make: Make, chunks: readonly string[], options: SieveOptions, internals: Internals, resume: boolean): string {
  let n = 0
  const opts = { ...options, generateId: () => `id${n++}` }
  const events: SieveEvent[] = []
  try {
    let sieve = make(opts, internals)
    for (const c of chunks) {
      for (const e of sieve.push(c)) events.push(e)
      if (resume) sieve = make({ ...opts, resume: JSON.parse(JSON.stringify(sieve.checkpoint())) as SieveCheckpoint }, internals)
    }
    for (const e of sieve.end()) events.push(e)
  } catch (e) {
    return `threw ${String((e as Error).message)}`
  }
  return normalised(events)
}

type Chunker = { name: string; cut: (text: string) => string[] }
const randomCuts = (text: string, seed: number, max: number): string[] => randomSplit(text, mulberry32(seed), max)
const chunkers: Chunker[] = [
  { name: 'whole', cut: (t) => [t] },
  ...[1, 2, 3, 5, 16].map((n) => ({ name: String(n), cut: (t: string) => fixedChunks(t, n) })),
  { name: 'token', cut: (t) => tokenChunks(t, 7) },
  { name: 'random', cut: (t) => randomCuts(t, t.length, 12) },
  { name: 'random-40', cut: (t) => randomCuts(t, t.length + 1, 40) },
]

/** `only`: the chunkings it runs under (a resume after every chunk makes a sieve per chunk: the 1-character chunkings would take most of the time). */
interface Config { label: string; options: SieveOptions; internals: Internals; resume?: boolean; only?: readonly string[] }
const resumed = quick ? ['token', 'random'] : ['3', '5', 'token', 'random', 'random-40']
const configs: Config[] = [
  { label: 'default', options: {}, internals: {} },
  { label: 'limit 64', options: { captureLimit: 64 }, internals: {} },
  { label: 'limit 200', options: { captureLimit: 200 }, internals: {} },
  { label: 'strict', options: { strict: true }, internals: {} },
  { label: 'streamArguments', options: { streamArguments: true }, internals: {} },
  { label: 'streamArguments, limit 200', options: { streamArguments: true, captureLimit: 200 }, internals: {} },
  { label: 'window 7', options: {}, internals: { windowSize: 7 } },
  { label: 'resume after every chunk', options: {}, internals: {}, resume: true, only: resumed },
  { label: 'resume after every chunk, streamArguments', options: { streamArguments: true }, internals: {}, resume: true, only: resumed },
]

interface Diff { source: string; text: string; cfg: Config; chunker: string; chunks: string[]; options: SieveOptions }
let runs = 0
let documents = 0
let differences = 0
/** The first difference of each pack that differs, then of each fixture file or layout and group, kept for their repro; the count per pack. */
const diffs: Diff[] = []
const spare: Diff[] = []
const byPack = new Map<string, number>()

function compare(source: string, text: string, options: SieveOptions): void {
  documents++
  for (const cfg of configs) {
    const opts = { ...options, ...cfg.options }
    for (const ch of chunkers) {
      if (cfg.only !== undefined && !cfg.only.includes(ch.name)) continue
      const chunks = ch.cut(text)
      runs++
      if (run(mine, chunks, opts, cfg.internals, cfg.resume === true) === run(theirs, chunks, opts, cfg.internals, cfg.resume === true)) continue
      differences++
      byPack.set(String(options.dialect), (byPack.get(String(options.dialect)) ?? 0) + 1)
      const d = { source, text, cfg, chunker: ch.name, chunks, options: opts }
      const file = source.split('#')[0]
      if (!diffs.some((x) => x.options.dialect === options.dialect)) diffs.push(d)
      else if (spare.length < 5 && !spare.some((x) => x.source.split('#')[0] === file)) spare.push(d)
    }
  }
}

/** A smaller input that still differs: chunks dropped, then neighbours merged, while the trees disagree (bounded). */
function shrink(d: Diff): string[] {
  const differs = (c: string[]): boolean => run(mine, c, d.options, d.cfg.internals, d.cfg.resume === true) !== run(theirs, c, d.options, d.cfg.internals, d.cfg.resume === true)
  let chunks = d.chunks.filter((c) => c !== '')
  let budget = 3000
  for (const merge of [false, true]) {
    for (let i = 0; i < chunks.length && budget > 0; budget--) {
      const next = merge ? (i + 1 < chunks.length ? [...chunks.slice(0, i), chunks[i]! + chunks[i + 1]!, ...chunks.slice(i + 2)] : null) : chunks.length > 1 ? [...chunks.slice(0, i), ...chunks.slice(i + 1)] : null
      if (next !== null && differs(next)) chunks = next
      else i++
    }
  }
  return chunks
}


/** The calls written in every layout: the suites' three, and one of escaped quotes and backslashes. */
const escapedCall = { name: 'say', input: { s: 'a \\"quoted\\" \\\\ path', t: '\\\\', u: '"', v: 'C:\\dir\\"x"' } }
const callSets = [[readCall], [readCall, otherCall], [trickyCall], [escapedCall]]

const format = (calls: ReadonlyArray<{ name: string; input: Record<string, unknown> }>, dialect: string, variant: string): string | null => {
  try {
    return formatToolCalls(calls, { dialect, variant })
  } catch {
    return null
  }
}

/** The offset of the block's last bracket. */
const lastBracket = (b: string): number => Math.max(b.lastIndexOf('}'), b.lastIndexOf(']'))

/** A written block in the shapes the suites try, and some they do not. */
function shapes(b: string, second: string, prefixes: number): string[] {
  const mid = Math.floor(b.length / 2)
  const end = lastBracket(b)
  return [
    b, `Let me check.\n${b} Then I will tell you.`, `${b}\nDone.`, `${b}]} and "text" 'after'`,
    ...[' ', '   ', '    ', '\t', '\n \t\n  '].map((s) => s + b),
    `\`\`\`\n${b}\n\`\`\`\n`, `For example:\n\n\`\`\`json\n${b}\n\`\`\`\n\nNow for real:\n\n${b}`, `Write \`${b}\` to call it.`, `\`${b}\` ${b}`,
    ...Array.from({ length: prefixes }, (_, k) => b.slice(0, Math.floor((b.length * (k + 1)) / (prefixes + 1)))),
    `Reading: ${b.slice(0, mid)}`,
    end < 0 ? b : b.slice(0, end) + b.slice(end + 1), `${b.slice(0, mid)}]${b.slice(mid)} ok`, `${b.slice(0, mid)}}${b.slice(mid)} ok`,
    `${b}; ${second}`, `${b}\n${second}`, `${b};${second} done`, `${b}\n\nAnd again: ${b}`,
  ]
}

/** The opener of layout `i`, when it has a literal one. */
function openerOf(pack: DialectPack, i: number): string {
  return jsonDelimiters(pack)[i]?.open[0] ?? wholeDelimiters(pack)[i]?.open[0] ?? anchoredDelimiters(pack)[i]?.open[0] ?? ''
}

/** An opener alone, before blanks, before JSON nested past the depth limit; a block after some of them. */
function edges(op: string, b: string): string[] {
  const deep = '['.repeat(140)
  return [
    `${op} is the opener`, `The ${op} token starts a call.`, `Ends with ${op}`, op, `A ${op} {maybe} or ${op} [not json]`, `${op}\`${b}\``,
    op + ' '.repeat(200), `${op}${' '.repeat(200)}${b}`, `${op}${' \n'.repeat(100)}prose`, `${op}${'\t'.repeat(200)}[{"name": "read_file", "arguments": {}}]`,
    `${op}[{"a": ${deep} and then ${b}`, `${op}${deep}${']'.repeat(140)} after`, `${deep}${']'.repeat(140)}`, `${deep} ${b}`,
    `{"name": "read_file", "arguments": ${deep}${']'.repeat(140)}}`, `${op}{"name": "f", "arguments": {"a": ${'{"b": '.repeat(135)}1${'}'.repeat(136)}}`,
    `${op}[{"name": "f", "arguments": {"s": "${'\\\\'.repeat(70)}\\"${'\\"'.repeat(40)}"}}] ok`,
  ]
}

/** The pieces of a pack's random strings: its delimiters and markup, its reasoning tags, JSON punctuation, words, whole blocks. */
function piecesOf(pack: DialectPack, blocks: readonly string[]): string[] {
  const set = new Set<string>()
  const add = (xs: readonly string[] | undefined): void => {
    for (const x of xs ?? []) if (x.trim() !== '' && x.length <= 60) set.add(x)
  }
  for (const d of [...wholeDelimiters(pack), ...jsonDelimiters(pack)]) if (d !== null) [d.open, 'head' in d ? d.head : [], d.close].forEach(add)
  for (const d of anchoredDelimiters(pack)) if (d !== null) [d.open, d.close, d.separator === undefined ? [] : [d.separator]].forEach(add)
  for (const r of pack.regions ?? []) for (const d of [r.open, r.close]) if (d.kind === 'literal') add(d.text)
  for (const b of blocks) add(b.match(/<[^<>\n]{1,58}>|\[[A-Z_]{2,}\]/g) ?? [])
  const generic = ['{', '}', '[', ']', '"', "'", '\\', ':', ',', ' ', ' ', '\n', '\n\n', '`', '```', 'read_file', 'path', 'x', 'hello world', '40', 'true', 'null', '"name"', '"arguments"', '"parameters"', '"a"', '; ']
  return [...set, ...generic, ...blocks.slice(0, 2)]
}

function randomDocs(pieces: readonly string[], n: number, seed: number): string[] {
  const rng = mulberry32(seed)
  return Array.from({ length: n }, () => {
    let s = ''
    for (let k = 1 + Math.floor(rng() * 30); k > 0; k--) s += pieces[Math.floor(rng() * pieces.length)]!
    return s
  })
}

const t0 = Date.now()
const group = (name: string, body: () => void): void => {
  const [d0, r0, x0, t] = [documents, runs, differences, Date.now()]
  body()
  console.log(`${name}: ${documents - d0} documents, ${runs - r0} runs, ${differences - x0} differences (${((Date.now() - t) / 1000).toFixed(0)} s)`)
}

const readNames = readPacks.map((p) => p.name)
group('fixtures', () => {
  for (const { file, dialect, rendered } of fixtureFiles.filter((f) => readNames.includes(f.dialect))) {
    const region = (dialects[dialect]!.regions ?? []).find((r) => r.kind === 'reasoning' && r.startsOpen === true)
    const openTag = region?.open.kind === 'literal' ? region.open.text[0]! : '<think>'
    for (const c of fixture<FixtureCase[]>(file)) {
      const named = c.tools !== undefined && c.calls.every((k) => c.tools!.some((t) => t.function.name === k.name))
      const tools: ToolDefinition[] | undefined = named ? c.tools!.map((t) => ({ name: t.function.name, inputSchema: t.function.parameters })) : undefined
      const opens = rendered && region !== undefined && c.reasoning != null && !c.input.trimStart().startsWith(openTag)
      compare(`${file}#${c.id}`, c.input, { dialect, startInReasoning: opens, ...(tools === undefined ? {} : { tools }) })
    }
  }
})

const isJson = (p: DialectPack, i: number): boolean => jsonDelimiters(p)[i] != null || anchoredDelimiters(p)[i] != null
group('written blocks', () => {
  for (const pack of readPacks) {
    for (const i of readLayouts(pack)) {
      const variant = pack.blocks[i]!.name
      const second = format([otherCall], pack.name, variant)
      // the blocks that end with their JSON get every shape and cut; the others every shape and a few cuts
      const prefixes = quick ? (isJson(pack, i) ? 5 : 2) : isJson(pack, i) ? 10 : 4
      for (const calls of callSets) {
        const b = format(calls, pack.name, variant)
        if (b === null || second === null) continue
        for (const doc of shapes(b, second, prefixes)) compare(`${pack.name} ${variant} ${calls.map((c) => c.name).join('+')}`, doc, { dialect: pack.name })
      }
    }
  }
})

group('openers and depth', () => {
  for (const pack of readPacks) {
    for (const i of readLayouts(pack)) {
      const variant = pack.blocks[i]!.name
      const b = format([readCall], pack.name, variant) ?? ''
      for (const doc of edges(openerOf(pack, i), b)) compare(`${pack.name} ${variant} edge`, doc, { dialect: pack.name })
    }
  }
})

group('random', () => {
  readPacks.forEach((pack, p) => {
    const blocks = readLayouts(pack).flatMap((i) => [format([readCall], pack.name, pack.blocks[i]!.name), format([trickyCall], pack.name, pack.blocks[i]!.name)]).filter((b): b is string => b !== null)
    // blocks that end with their JSON get twice the strings
    const n = readLayouts(pack).some((i) => isJson(pack, i)) ? 2 * randomPerPack : randomPerPack
    for (const doc of randomDocs(piecesOf(pack, blocks), n, 20261201 + p)) compare(`${pack.name} random`, doc, { dialect: pack.name })
  })
})

for (const d of [...diffs, ...spare].slice(0, 5)) {
  const small = shrink(d)
  const a = run(mine, small, d.options, d.cfg.internals, d.cfg.resume === true)
  const b = run(theirs, small, d.options, d.cfg.internals, d.cfg.resume === true)
  const opts = JSON.stringify({ ...d.options, tools: d.options.tools === undefined ? undefined : '…' })
  const repro = d.text.length < 400 ? JSON.stringify(d.text) : `(${d.text.length} chars)`
  console.log(`\n${d.source} · ${d.cfg.label} · chunks ${d.chunker} · options ${opts}\n  input ${repro}\n  shrunk chunks ${small.join('').length < 600 ? JSON.stringify(small) : `${small.length} chunks`}\n  ${firstDifference(a, b)}`)
}
if (differences > 0) console.log(`\ndifferences by pack: ${[...byPack].map(([k, v]) => `${k} ${v}`).join(', ')}`)
console.log(`\ndifferential-dialects: ${readPacks.length} packs, ${documents} documents × ${chunkers.length} chunkings × ${configs.length} configs (resumes under ${resumed.join(', ')} only) = ${runs} runs, ${differences} differences (${((Date.now() - t0) / 1000).toFixed(0)} s)`)
process.exit(differences === 0 ? 0 : 1)
