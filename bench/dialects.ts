/**
 * The per-dialect benchmark: the same seeded turns written in every dialect
 * pack the sieve reads (decided at run time), streamed through
 * `createSieve({ dialect })` at token-sized and 4096-char chunks, each
 * family's MB/s against DSML's (deepseek) from the same rounds; and, side by
 * side, `@ai-sdk-tool/parser`'s hermes and qwen3coder protocols on the same
 * Hermes and Qwen3-Coder turns as toolsieve's own packs.
 *
 *   npx tsx bench/dialects.ts [--mb 2] [--rounds 5] [--variants] [--no-peers]
 *   npm run bench:dialects -- --help
 *
 * Writes `bench/results/dialects.md` (or `--out FILE`; `--no-write` prints
 * only). Exits 1, writing nothing, if any pass reads a call wrong or misses one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { fixedChunks, tokenChunks } from './chunks.js'
import { checkPass, sievePass, sinkValue, type Chunking } from './dialect-passes.js'
import { peerComparison, type PeerRow } from './dialect-peers.js'
import { dialectVariants, labelOf, rewriteTurns, type DialectTurns, type DialectVariant } from './dialect-turns.js'
import { MB, fmt, machine, markdownTable, median, sig, table } from './measure.js'
import { generateTurns } from './transcripts.js'

const HELP = `npx tsx bench/dialects.ts [flags]
  --mb N             size of the generated turns in MB, written once per dialect (default 1)
  --rounds N         timed rounds after the warm-up, median reported (default 5)
  --warm N           untimed warm-up rounds after the checking pass (default 3)
  --seed N           generator seed (default 20240601)
  --dialects LIST    only these packs (and deepseek), e.g. hermes,glm
  --variants         also the other block layouts the sieve reads of each pack (qwen3-coder/bare …)
  --no-peers         skip @ai-sdk-tool/parser
  --peer-mb N        most MB of turns in the peer comparison (default 0.4)
  --peer-turn-kb N   the peer comparison skips turns over N KB (default 32: the peer's time grows with the square of a call)
  --out FILE         where the Markdown goes (default bench/results/dialects.md)
  --no-write         print only`

const { values: flags } = parseArgs({
  options: {
    help: { type: 'boolean', default: false },
    mb: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '5' },
    warm: { type: 'string', default: '3' },
    seed: { type: 'string', default: '20240601' },
    variants: { type: 'boolean', default: false },
    dialects: { type: 'string' },
    'no-peers': { type: 'boolean', default: false },
    'peer-mb': { type: 'string', default: '0.4' },
    'peer-turn-kb': { type: 'string', default: '32' },
    out: { type: 'string', default: 'bench/results/dialects.md' },
    'no-write': { type: 'boolean', default: false },
  },
})
if (flags.help) {
  console.log(HELP)
  process.exit(0)
}
function positive(name: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} wants a positive number, got ${raw}`)
    process.exit(2)
  }
  return n
}
const config = {
  mb: positive('mb', flags.mb),
  rounds: Math.round(positive('rounds', flags.rounds)),
  warm: Math.round(positive('warm', flags.warm)),
  seed: Math.round(positive('seed', flags.seed)),
  peerMb: positive('peer-mb', flags['peer-mb']),
  peerTurnKb: positive('peer-turn-kb', flags['peer-turn-kb']),
}

/** Where the generated part of the Markdown ends: notes written below it are kept by the next run. */
const NOTES_MARKER = '<!-- written by hand below this line; bench/dialects.ts keeps it -->'

/** The issue's target: every family at least this fraction of DSML's MB/s (within 1.5×). */
const TARGET_RATIO = 1 / 1.5

const CHUNKINGS: readonly Chunking[] = [
  { id: 'token', label: 'token-sized (1–12, mean ≈ 4)', split: (t, s) => tokenChunks(t, s) },
  { id: '4096', label: '4096 chars', split: (t) => fixedChunks(t, 4096) },
]

// ---------------------------------------------------------------------------
// Turns in every readable dialect

const info = machine()
console.log(`toolsieve dialect bench  ${info.date}  node ${info.node}  ${info.cpus} cores  ${info.cpu}  commit ${info.commit}`)
const turns = generateTurns({ seed: config.seed, size: config.mb * MB })
const wanted = flags.dialects === undefined ? undefined : new Set(['deepseek', ...flags.dialects.split(',').map((d) => d.trim())])
const all = dialectVariants().filter((v) => wanted === undefined || wanted.has(v.dialect))
for (const d of wanted ?? []) if (!all.some((v) => v.dialect === d)) throw new Error(`--dialects: no pack named ${d}`)
const benched = all.filter((v) => v.unreadable === null && (v.primary || (flags.variants && v.read)))
const unreadablePacks = all.filter((v) => v.unreadable !== null && v.primary)
const unreadLayouts = all.filter((v) => v.unreadable === null && !v.read)
// DSML first: every ratio is against it
benched.sort((a, b) => Number(b.dialect === 'deepseek' && b.primary) - Number(a.dialect === 'deepseek' && a.primary))
if (benched[0]?.dialect !== 'deepseek') throw new Error('the deepseek pack is not readable: there is nothing to compare with')
const written = new Map<DialectVariant, DialectTurns>(benched.map((v) => [v, rewriteTurns(turns, v.dialect, v.variant)]))
const escapedBlocks = written.get(benched[0])!.escapedBlocks
const blockCount = turns.reduce((n, t) => n + t.segments.filter((s) => s.kind === 'block').length, 0)
console.log(`${turns.length} turns, ${blockCount} blocks, ${turns.reduce((n, t) => n + t.calls.length, 0)} calls; ${config.rounds} rounds; read: ${benched.map(labelOf).join(', ')}`)
console.log(`not read yet: ${unreadablePacks.map((v) => v.dialect).join(', ')}`)

// ---------------------------------------------------------------------------
// Timing: every dialect in every round, the order rotating round by round

let failures = 0
function fail(what: string): void {
  failures++
  console.log(`  *** WRONG: ${what}`)
}

interface Row {
  variant: DialectVariant
  bytes: number
  calls: number
  /** By chunking id: median MB/s, and median over rounds of MB/s ÷ DSML's MB/s in the same round. */
  mbps: Record<string, number>
  ratio: Record<string, number>
  /** What it got wrong, if anything: from then on it is not timed (a benchmark never times a broken path). */
  wrong?: string
}

const rows: Row[] = benched.map((v) => ({ variant: v, bytes: written.get(v)!.bytes, calls: written.get(v)!.callCount, mbps: {}, ratio: {} }))

for (const chunking of CHUNKINGS) {
  // a pass checking every turn, each dialect; those still right are timed
  const timed: Array<{ row: Row; chunked: string[][]; ms: number[] }> = []
  for (const row of rows) {
    if (row.wrong !== undefined) continue
    const w = written.get(row.variant)!
    const chunked = w.texts.map((t, i) => chunking.split(t, config.seed + i))
    const check = checkPass(row.variant.dialect, chunked, w.texts, w.calls)
    if (check.wrong > 0) {
      row.wrong = `${check.wrong} of ${w.texts.length} turns wrong (${chunking.id})`
      fail(`${labelOf(row.variant)} (${chunking.id}): ${check.wrong} of ${w.texts.length} turns wrong; ${check.problems.join(' | ')}`)
      continue
    }
    timed.push({ row, chunked, ms: [] })
  }
  if (timed[0]?.row !== rows[0]) throw new Error('DSML itself read wrong: no ratio can be given')
  // warm-up rounds, untimed: one dialect alone keeps getting faster for four or five token-sized passes of a megabyte (the JIT); the packs share most of their paths
  for (let round = 0; round < config.warm; round++) for (const d of timed) sievePass(d.row.variant.dialect, d.chunked)
  for (let round = 0; round < config.rounds; round++) {
    for (let k = 0; k < timed.length; k++) {
      const d = timed[(k + round) % timed.length]!
      const t = sievePass(d.row.variant.dialect, d.chunked)
      if (t.calls !== d.row.calls) {
        d.row.wrong = `read ${t.calls} calls of ${d.row.calls} (${chunking.id})`
        fail(`${labelOf(d.row.variant)} (${chunking.id}, round ${round + 1}): read ${t.calls} calls of ${d.row.calls}`)
      }
      d.ms.push(t.ms)
    }
  }
  const dsml = timed[0]!
  const rate = (row: Row, m: number): number => row.bytes / MB / (m / 1000)
  for (const d of timed) {
    if (d.row.wrong !== undefined) continue
    d.row.mbps[chunking.id] = median(d.ms.map((m) => rate(d.row, m)))
    d.row.ratio[chunking.id] = median(d.ms.map((m, round) => rate(d.row, m) / rate(dsml.row, dsml.ms[round]!)))
  }
  console.log(`${chunking.label}: ${timed.map((d) => `${labelOf(d.row.variant)} ${sig(d.row.mbps[chunking.id] ?? NaN)}`).join(', ')} MB/s`)
}

// ---------------------------------------------------------------------------
// The peer, side by side

const peerRows: PeerRow[] = flags['no-peers'] ? [] : await peerComparison({ turns, chunkings: CHUNKINGS, config, fail })

// ---------------------------------------------------------------------------
// Report

const ratioCell = (x: number | undefined): string => (x === undefined ? '-' : `${fmt(x, 2)}${x < TARGET_RATIO ? ' (below)' : ''}`)
const isDsml = (r: Row): boolean => r === rows[0]
const header = ['dialect', 'input MB', 'calls', 'MB/s token-sized', '× DSML', 'MB/s 4096', '× DSML', 'calls ok']
const body = rows.map((r) => [
  labelOf(r.variant),
  fmt(r.bytes / MB, 2),
  String(r.calls),
  r.mbps.token === undefined ? '-' : sig(r.mbps.token),
  isDsml(r) ? '1' : ratioCell(r.ratio.token),
  r.mbps['4096'] === undefined ? '-' : sig(r.mbps['4096']),
  isDsml(r) ? '1' : ratioCell(r.ratio['4096']),
  r.wrong === undefined ? `${r.calls}/${r.calls}` : `WRONG: ${r.wrong}`,
])
const slow = rows.filter((r) => r.wrong === undefined && CHUNKINGS.some((c) => r.ratio[c.id]! < TARGET_RATIO))
const broken = rows.filter((r) => r.wrong !== undefined)
const targetLine =
  (slow.length === 0
    ? `Target (every family within 1.5× of DSML's MB/s, ratio ≥ ${fmt(TARGET_RATIO, 2)}, at both chunkings): met by all ${rows.length - broken.length} read right.`
    : `Target (every family within 1.5× of DSML's MB/s, ratio ≥ ${fmt(TARGET_RATIO, 2)}): NOT met by ${slow.map((r) => labelOf(r.variant)).join(', ')}.`) +
  (broken.length === 0 ? '' : ` Read wrong, so not timed: ${broken.map((r) => labelOf(r.variant)).join(', ')}.`)
const peerHeader = ['turns', 'chunking', 'toolsieve MB/s', 'peer MB/s', 'toolsieve faster by', 'exact turns toolsieve', 'exact turns peer', 'calls peer found']
const peerBody = peerRows.map((p) => [p.label, p.chunking, p.sieveMbps === null ? 'not read yet' : sig(p.sieveMbps), sig(p.peerMbps), p.speedup === null ? '-' : `${fmt(p.speedup, 1)}×`, p.sieveExact ?? '-', p.peerExact, p.peerCalls])
const peerNotes = [...new Map(peerRows.filter((p) => p.sieveNote !== undefined).map((p) => [p.label, `${p.label.split(':')[0]} is not read by the sieve yet: ${p.sieveNote}.`])).values()]
const peerMissed = peerRows.filter((p) => p.speedup !== null && p.speedup <= 1)
const peerLine =
  peerRows.length === 0
    ? ''
    : peerMissed.length === 0
      ? `Target (toolsieve ahead of the peer at every chunking): met on every row toolsieve can read${peerRows.some((p) => p.speedup === null) ? '; rows toolsieve cannot read yet have no comparison' : ''}.`
      : `Target (toolsieve ahead of the peer at every chunking): NOT met on ${peerMissed.map((p) => `${p.label} ${p.chunking}`).join(', ')}.`

console.log('')
console.log(table(header, body))
console.log(targetLine)
if (peerRows.length > 0) {
  console.log('')
  console.log(table(peerHeader, peerBody))
  console.log(peerLine)
  for (const n of peerNotes) console.log(n)
}

const peerTurns = peerRows[0]
const method =
  `Measured ${info.date.slice(0, 10)} on node ${info.node}, ${info.cpus} cores (nproc, shared with other work), ${info.cpu}, commit ${info.commit}; ` +
  `\`npx tsx bench/dialects.ts${process.argv.slice(2).length > 0 ? ' ' + process.argv.slice(2).join(' ') : ''}\`. ` +
  `The bench's seeded turns (\`bench/transcripts.ts\`, seed ${config.seed}: ${turns.length} turns, ${fmt(config.mb, 1)} MB as generated, ${blockCount} blocks) are written once per dialect: ` +
  `each real block by toolsieve's \`formatToolCalls(calls, { dialect${flags.variants ? ', variant' : ''} })\`, prose, code spans and fences (with their DSML examples, which stay text) as generated; ` +
  `${escapedBlocks} blocks hold a value with \`</parameter>\`, which the raw-string packs cannot carry, and have \`</\` written \`<\\/\` in every dialect alike. ` +
  `A pack is benched when the sieve reads it (\`unreadable(pack) === null\`, asked at run time). ` +
  `Each turn goes through a fresh \`createSieve({ dialect })\` from the compiled package (\`dist/\`), chunked up front token-sized (1–12 UTF-16 units, mean ≈ 4, seeded per turn as in \`bench/chunks.ts\`) or in 4096-char chunks; ` +
  `timed is the process's CPU time for the whole pass (sieve creation, every \`push\`, \`end\`, reading the events). ` +
  `After one pass checking every turn in full (calls and inputs, no diagnostic, every character out once) and ${config.warm} untimed warm-up rounds, ${config.rounds} rounds run every dialect once each, the order rotating by one each round; ` +
  `MB/s is the dialect's own input in UTF-8 over the median round, and "× DSML" the median over rounds of its MB/s ÷ DSML's in the same round (1.00 = as fast; the target, within 1.5×, is ≥ 0.67). ` +
  `Every timed pass also counts the calls it read against the calls written: the bench exits 1 and writes nothing if any differ.` +
  (peerTurns === undefined
    ? ''
    : ` The peer, \`@ai-sdk-tool/parser\` 4.1.26 (its stream transformer's \`transform()\` called directly, as in \`bench/peers.ts\`), reads the same Hermes and Qwen3-Coder turns as toolsieve's packs, ` +
      `the first ones of at most ${config.peerTurnKb} KB up to ${config.peerMb} MB (its time grows with the square of a call's length); per round toolsieve's passes over those turns run half right before the peer's pass and half right after, ` +
      `and "faster by" is the median over rounds of the peer's time ÷ toolsieve's mean. Exact turns: every call with its input, in order (the peer has no Markdown guard, and trims values' leading spaces).`)

const unreadLine =
  `Not read by the sieve yet (no row): ${unreadablePacks.length === 0 ? 'none' : unreadablePacks.map((v) => `${v.dialect} (${v.unreadable})`).join('; ')}.` +
  (unreadLayouts.length === 0 ? '' : ` Layouts of read packs the sieve does not read: ${unreadLayouts.map(labelOf).join(', ')}.`)
const md = [
  '# Dialects: the same turns in every readable pack',
  '',
  method,
  '',
  markdownTable(header, body),
  '',
  targetLine,
  '',
  unreadLine,
  ...(peerRows.length === 0 ? [] : ['', '## Beside @ai-sdk-tool/parser', '', markdownTable(peerHeader, peerBody), '', peerLine, ...peerNotes.map((n) => `\n${n}`)]),
  '',
].join('\n')

if (sinkValue() === 0) console.log('(the sieve passed no text?)')
if (failures > 0) {
  console.log(`\n*** ${failures} correctness failure(s): see WRONG above; nothing written ***`)
  process.exit(1)
}
if (!flags['no-write']) {
  // what a reader wrote below the marker (where the time goes, say) stays when the figures are rewritten
  const previous = existsSync(flags.out) ? readFileSync(flags.out, 'utf8') : ''
  const at = previous.indexOf(NOTES_MARKER)
  writeFileSync(flags.out, `${md}\n${at >= 0 ? previous.slice(at) : `${NOTES_MARKER}\n`}`)
  console.log(`\nwrote ${flags.out}`)
}
