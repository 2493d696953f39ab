/**
 * The benchmark: `npm run bench` (about 5 minutes on 2 cores), or
 * `npm run bench -- --quick` (about 1.5 minutes). Flags: `--help`.
 *
 * 1. Transcript: seeded assistant turns (`bench/transcripts.ts`, default
 *    20 MB) streamed turn by turn, one fresh parser per turn, in four
 *    chunkings (token-sized 1–12 chars with mean ≈ 4, 16 chars, 4096 chars,
 *    whole turn), through toolsieve, a copy-through floor (collect the chunks,
 *    `indexOf` for `<` and `＜`, join once) and the peer `@ai-sdk-tool/parser`
 *    (hermes and morph-XML protocols, same turns re-encoded in their formats;
 *    it has no DSML and no Markdown guard, see `bench/peers.ts`). One process,
 *    interleaved rounds, median of ≥ 3 after a warm-up pass. Every runner's
 *    answer is checked against the manifest (turns exact / total).
 * 2. Markdown guard: the same turns with fenced examples in each peer's own
 *    format, to count the calls a parser without a guard invents.
 * 3. Scaling: one parameter of 64 KB … 4 MB in 4-char chunks (sliced as they
 *    are pushed); time ratio per
 *    doubling (2 is linear, 4 quadratic). The peers over 8 KB … until a run
 *    takes more than half the peer budget (2 s).
 * 4. Adversarial inputs (`bench/adversarial.ts`): MB/s beside the ordinary
 *    transcript's, with the sieve's own counters.
 * 5. Heap: a 100 MB stream through one sieve; heap at start, peak and end.
 *
 * Results go to `bench/results/latest.json`, `latest.md` (the tables as
 * Markdown) and `chart.svg` (full runs, or any run given `--out DIR`).
 * Exits 1 if toolsieve gets any input wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { chartFromResults } from './chart.js'
import type { ResultsForChart } from './chart.js'
import { OWN_WINDOW_MS, PAIR_BLOCK, TARGETS, WARM_UP_MS, config, outDir, quick, runs } from './config.js'
import { fixedChunks, tokenChunks } from './generate.js'
import { MB, bytesOf, fmt, machine, markdownTable, median, sig, table } from './measure.js'
import { failureCount, floorPass, floorSink, meanPass, peerPass, sameCalls, sievePass, streamPeer, streamSieve, wrong, type Pass, type PairedPass } from './passes.js'
import { PEERS, drainTimers } from './peers.js'
import { adversarialSection, heapSection, scalingSection } from './sections.js'
import { generateTurns, renderTurn, type Turn } from './transcripts.js'
import type { ManifestCall } from './generate.js'

// ---------------------------------------------------------------------------
// Results

interface RunnerResult {
  id: string
  label: string
  turns: number
  bytes: number
  roundsMs: number[]
  mbps: number
  bestMbps: number
  peakHeapMB: number
  exact: number | null
  total: number | null
}

interface PeerComparison {
  peer: string
  turns: number
  /**
   * The issue's method, interleaved rounds: in every round toolsieve streams exactly the peer's turns in a
   * pass of its own, and the peer streams them in its pass. Medians over rounds; `speedup` is the median of
   * the rounds' time ratios (the peer's time over toolsieve's, same turns).
   */
  sieveMs: number
  /** toolsieve's own passes per round (`OWN_WINDOW_MS`), half before the peer's pass and half after; `sieveMs` is their mean. */
  ownPasses: number
  peerMs: number
  speedup: number
  sieveMbps: number
  /**
   * Paired by blocks of turns: each block through toolsieve, then through the peer, back to back. Each short
   * toolsieve block then runs right after the peer's far longer work on the block before, on the caches and
   * the garbage that work left behind, which slows it (see README).
   */
  blocks: { sieveMs: number; speedup: number; sieveMbps: number }
  /** One pass pairing single turns (toolsieve, then the peer, per turn): the same effect, per turn. */
  turnByTurn: { sieveMs: number; speedup: number; sieveMbps: number }
}

interface ChunkingResult {
  id: string
  label: string
  chunks: number
  runners: RunnerResult[]
  floorShare: number
  peers: PeerComparison[]
}

const results: Record<string, unknown> = {}
const markdown: string[] = []

/** `passes` are the timed rounds; `warm` the fresh warm-up pass the heap peak comes from. */
function runnerResult(id: string, label: string, bytes: number, passes: readonly Pass[], warm: Pass, checked: boolean): RunnerResult {
  const roundsMs = passes.map((p) => p.ms)
  const first = passes[0]!
  const exact = checked ? Math.min(warm.exact, ...passes.map((p) => p.exact)) : null
  return {
    id,
    label,
    turns: first.turns,
    bytes,
    roundsMs,
    mbps: bytes / MB / (median(roundsMs) / 1000),
    bestMbps: bytes / MB / (Math.min(...roundsMs) / 1000),
    peakHeapMB: (warm.peakBytes - warm.baseBytes) / MB,
    exact,
    total: checked ? first.turns : null,
  }
}

// ---------------------------------------------------------------------------
// 1. Transcript

interface Chunking {
  id: string
  label: string
  split(text: string, seed: number): string[]
}

const CHUNKINGS: readonly Chunking[] = [
  { id: 'token', label: 'token-sized (1–12, mean ≈ 4)', split: (t, s) => tokenChunks(t, s) },
  { id: '16', label: '16 chars', split: (t) => fixedChunks(t, 16) },
  { id: '4096', label: '4096 chars', split: (t) => fixedChunks(t, 4096) },
  { id: 'whole', label: 'whole turn', split: (t) => [t] },
]

const machineInfo = machine()
const loadAtStart = loadavg()[0]!
console.log(`toolsieve bench  ${machineInfo.date}  (load average ${fmt(loadAtStart, 2)} at start)`)
console.log(`node ${machineInfo.node}  ${machineInfo.cpus} cores (nproc)  ${machineInfo.cpu}  ${machineInfo.platform}  commit ${machineInfo.commit}`)
console.log('toolsieve is timed from its compiled package (dist/), as users import it; the peers from theirs')
console.log(
  `flags: ${quick ? '--quick ' : ''}--mb ${config.mb} --rounds ${config.rounds} --seed ${config.seed} ` +
    `--peer-mb ${config.peerMb} --peer-budget ${config.peerBudgetS} --peer-turn-kb ${config.peerTurnKb} ` +
    `--scale-max-kb ${config.scaleMaxKb} --adv-scale ${config.advScale} --heap-mb ${config.heapMb}` +
    `${config.peers ? '' : ' --no-peers'}`,
)
results.machine = machineInfo
results.config = config
results.targets = TARGETS
if (config.rounds < 3) console.log(`note: ${config.rounds} round(s); the issue asks for the median of at least 3`)

const turns = runs('transcript') || runs('guard') ? generateTurns({ seed: config.seed, size: config.mb * MB }) : []
const turnBytes = turns.map((t) => bytesOf(t.text))
const transcriptBytes = turnBytes.reduce((a, b) => a + b, 0)
const transcriptCalls = turns.reduce((n, t) => n + t.calls.length, 0)

/** Reference MB/s of the ordinary transcript, by chunking, for the adversarial table. */
const ordinary: Record<string, number> = {}

if (runs('transcript')) await (async () => {
  console.log('')
  console.log(`## 1. Transcript: ${turns.length} assistant turns, ${fmt(transcriptBytes / MB, 2)} MB, ${transcriptCalls} calls`)
  console.log('One fresh parser per turn. MB/s is each runner\'s own input (UTF-8) over the median of')
  console.log(`${config.rounds} interleaved rounds after warm-up passes. Exact: the turn's calls (names and inputs) match the manifest,`)
  console.log('with no diagnostic and no character lost (toolsieve), or the same calls (peers). Peak heap: most heapUsed')
  console.log('above the start of the first warm-up pass (which starts from a full gc), garbage included.')
  if (config.peers) {
    console.log('Peer: @ai-sdk-tool/parser, hermes and morph-XML protocols, transform() called directly. It has NO DSML')
    console.log('and NO Markdown guard: each turn\'s real blocks are re-encoded in its own format; fenced DSML examples stay.')
    console.log(`Peers stream the first turns of at most ${config.peerTurnKb} KB, up to ${config.peerMb} MB or ${config.peerBudgetS} s of warm-up;`)
    console.log('"toolsieve faster by": in every round toolsieve streams exactly those turns in passes of its own, and the')
    console.log('peer in its pass; the median of the rounds\' time ratios. toolsieve\'s pass repeats until it has run about')
    console.log(`${OWN_WINDOW_MS / 1000} s, half right before the peer\'s pass and half right after, and its mean is the round\'s time: one`)
    console.log('pass takes a twentieth of the peer\'s, and alone it would sample the machine\'s load over a far shorter window.')
    console.log('Also shown, paired: blocks of ' + PAIR_BLOCK + ' turns through')
    console.log('toolsieve, then the peer, back to back, and single turns the same way; each toolsieve block then starts')
    console.log('right after the peer\'s far longer work, with the caches and the garbage that work left behind.')
  }

  const peerTurns = new Map<string, { texts: string[]; expected: ManifestCall[][]; index: number[]; bytes: number[] }>()
  if (config.peers) {
    for (const peer of PEERS) {
      const texts: string[] = []
      const expected: ManifestCall[][] = []
      const index: number[] = []
      const bytes: number[] = []
      let total = 0
      for (const turn of turns) {
        const text = renderTurn(turn.segments, peer.format)
        const b = bytesOf(text)
        if (b > config.peerTurnKb * 1024) continue
        if (total + b > config.peerMb * MB) break
        texts.push(text)
        expected.push(turn.calls)
        index.push(turn.id)
        bytes.push(b)
        total += b
      }
      peerTurns.set(peer.id, { texts, expected, index, bytes })
    }
  }

  const chunkingResults: ChunkingResult[] = []
  for (const chunking of CHUNKINGS) {
    const chunked = turns.map((t) => chunking.split(t.text, config.seed + t.id))
    const chunkCount = chunked.reduce((n, c) => n + c.length, 0)

    // Warm-up passes (until WARM_UP_MS of sieve time: the JIT needs a few on small inputs),
    // correctness, and the peers' turn counts within their budget.
    // The first warm-up pass of each runner starts from a full gc and gives its heap peak.
    let warmMs = 0
    let floorWarm: Pass | undefined
    let sieveWarm: Pass | undefined
    for (let w = 0; w < 8 && warmMs < WARM_UP_MS; w++) {
      const f = floorPass(chunked, w === 0)
      const t = sievePass(chunked, turns, w === 0)
      floorWarm ??= f
      sieveWarm ??= t
      warmMs += t.ms
    }
    if (sieveWarm!.exact !== turns.length) {
      wrong(`toolsieve got ${turns.length - sieveWarm!.exact} of ${turns.length} turns wrong (${chunking.id})`)
    }
    const peerChunks = new Map<string, { peer: string[][]; sieve: string[][]; turns: Turn[] }>()
    const peerWarm = new Map<string, Pass>()
    const ownRepeats = new Map<string, number>()
    for (const peer of config.peers ? PEERS : []) {
      const p = peerTurns.get(peer.id)!
      const all = p.texts.map((t, k) => chunking.split(t, config.seed + p.index[k]!))
      const sieveAll = p.index.map((id) => chunked[id]!)
      const warm = await peerPass(peer, all, sieveAll, p.expected, config.peerBudgetS * 1000, true)
      peerWarm.set(peer.id, warm)
      peerChunks.set(peer.id, { peer: all.slice(0, warm.turns), sieve: sieveAll.slice(0, warm.turns), turns: p.index.slice(0, warm.turns).map((id) => turns[id]!) })
      // an even count, from toolsieve's time on these turns in the warm-up (paired, so if anything slower)
      ownRepeats.set(peer.id, Math.min(16, 2 * Math.max(1, Math.ceil(OWN_WINDOW_MS / Math.max(warm.sieveMs, 1) / 2))))
    }

    const floorPasses: Pass[] = []
    const sievePasses: Pass[] = []
    const peerPasses = new Map<string, PairedPass[]>()
    const ownPasses = new Map<string, Pass[]>()
    for (let r = 0; r < config.rounds; r++) {
      floorPasses.push(floorPass(chunked))
      sievePasses.push(sievePass(chunked, turns))
      for (const peer of config.peers ? PEERS : []) {
        const p = peerTurns.get(peer.id)!
        const c = peerChunks.get(peer.id)!
        // toolsieve's own passes over exactly the peer's turns, in the same round as the peer's: half right
        // before the peer's pass, half right after, so they bracket the window the peer's time averages over
        const reps = ownRepeats.get(peer.id)!
        const before = Array.from({ length: reps / 2 }, () => sievePass(c.sieve, c.turns))
        const list = peerPasses.get(peer.id) ?? []
        list.push(await peerPass(peer, c.peer, c.sieve, p.expected))
        peerPasses.set(peer.id, list)
        const after = Array.from({ length: reps / 2 }, () => sievePass(c.sieve, c.turns))
        const own = ownPasses.get(peer.id) ?? []
        own.push(meanPass([...before, ...after]))
        ownPasses.set(peer.id, own)
      }
    }
    // one more pass pairing single turns, reported beside the block figure
    const turnByTurn = new Map<string, PairedPass>()
    for (const peer of config.peers ? PEERS : []) {
      const c = peerChunks.get(peer.id)!
      turnByTurn.set(peer.id, await peerPass(peer, c.peer, c.sieve, peerTurns.get(peer.id)!.expected, Infinity, false, 1))
    }

    const floor = runnerResult('floor', 'copy-through floor', transcriptBytes, floorPasses, floorWarm!, false)
    const sieve = runnerResult('toolsieve', 'toolsieve', transcriptBytes, sievePasses, sieveWarm!, true)
    const runners = [floor, sieve]
    const comparisons: PeerComparison[] = []
    for (const peer of config.peers ? PEERS : []) {
      const p = peerTurns.get(peer.id)!
      const passes = peerPasses.get(peer.id)!
      const n = passes[0]!.turns
      const bytes = p.bytes.slice(0, n).reduce((a, b) => a + b, 0)
      runners.push(runnerResult(peer.id, peer.label, bytes, passes, peerWarm.get(peer.id)!, true))
      // toolsieve on exactly the same turns: its own pass in each round, and paired with the peer
      const ids = p.index.slice(0, n)
      const own = ownPasses.get(peer.id)!
      if (own.some((q) => q.exact !== q.turns)) wrong(`toolsieve got some of the ${peer.id} turns wrong (${chunking.id})`)
      const sieveBytes = ids.reduce((sum, id) => sum + turnBytes[id]!, 0)
      const mbpsOf = (ms: number): number => sieveBytes / MB / (ms / 1000)
      const sieveMs = median(own.map((q) => q.ms))
      const peerMs = median(passes.map((q) => q.ms))
      const speedup = median(passes.map((q, r) => q.ms / own[r]!.ms))
      const blockMs = median(passes.map((q) => q.sieveMs))
      const blocks = { sieveMs: blockMs, speedup: median(passes.map((q) => q.ms / q.sieveMs)), sieveMbps: mbpsOf(blockMs) }
      const single = turnByTurn.get(peer.id)!
      const byTurn = { sieveMs: single.sieveMs, speedup: single.ms / single.sieveMs, sieveMbps: mbpsOf(single.sieveMs) }
      comparisons.push({ peer: peer.id, turns: n, sieveMs, ownPasses: ownRepeats.get(peer.id)!, peerMs, speedup, sieveMbps: mbpsOf(sieveMs), blocks, turnByTurn: byTurn })
    }
    const result: ChunkingResult = {
      id: chunking.id,
      label: chunking.label,
      chunks: chunkCount,
      runners,
      floorShare: sieve.mbps / floor.mbps,
      peers: comparisons,
    }
    chunkingResults.push(result)
    ordinary[chunking.id] = sieve.mbps

    console.log('')
    console.log(`### ${chunking.label}: ${chunkCount.toLocaleString('en-US')} chunks`)
    const rows = runners.map((r) => {
      const cmp = comparisons.find((c) => c.peer === r.id)
      return [
        r.label,
        sig(r.mbps),
        sig(r.bestMbps),
        `${fmt((r.mbps / floor.mbps) * 100)}%`,
        cmp === undefined ? '-' : `${fmt(cmp.speedup, cmp.speedup < 10 ? 2 : 1)}×`,
        `${fmt(r.bytes / MB, 2)} MB / ${r.turns}`,
        `+${fmt(r.peakHeapMB)} MB`,
        r.exact === null ? '-' : `${r.exact}/${r.total}`,
      ]
    })
    const header = ['runner', 'MB/s', 'best', 'of floor', 'toolsieve faster by', 'input / turns', 'peak heap', 'exact']
    console.log(table(header, rows))
    for (const c of comparisons) {
      console.log(
        `  ${c.peer}: on its ${c.turns} turns, toolsieve's own pass (${c.ownPasses} a round) takes ${fmt(c.sieveMs)} ms (${sig(c.sieveMbps)} MB/s), ` +
          `the peer's ${fmt(c.peerMs)} ms: toolsieve ${fmt(c.speedup, 2)}× faster (interleaved rounds); ` +
          `paired by blocks of ${PAIR_BLOCK}: ${fmt(c.blocks.sieveMs)} ms (${sig(c.blocks.sieveMbps)} MB/s), ${fmt(c.blocks.speedup, 2)}×; ` +
          `turn by turn: ${fmt(c.turnByTurn.sieveMs)} ms (${sig(c.turnByTurn.sieveMbps)} MB/s), ${fmt(c.turnByTurn.speedup, 2)}×`,
      )
    }
    const pairs = comparisons.map(
      (c) =>
        `- ${c.peer}, its ${c.turns} turns: toolsieve ${sig(c.sieveMbps)} MB/s in its own pass, ${fmt(c.speedup, 2)}× the peer (interleaved rounds); ` +
        `paired by blocks of ${PAIR_BLOCK} turns ${sig(c.blocks.sieveMbps)} MB/s, ${fmt(c.blocks.speedup, 2)}×; ` +
        `turn by turn ${sig(c.turnByTurn.sieveMbps)} MB/s, ${fmt(c.turnByTurn.speedup, 2)}×`,
    )
    markdown.push(`### ${chunking.label}\n\n${markdownTable(header, rows)}\n${pairs.length > 0 ? `\n${pairs.join('\n')}\n` : ''}`)
    chunked.length = 0
    peerChunks.clear()
  }

  const token = chunkingResults.find((c) => c.id === 'token')!
  const fastest = token.peers.reduce<PeerComparison | undefined>((m, c) => (m === undefined || c.speedup < m.speedup ? c : m), undefined)
  console.log('')
  console.log('Targets (token-sized chunks):')
  const shareMet = token.floorShare >= TARGETS.floorShare
  console.log(`  toolsieve ≥ ${TARGETS.floorShare * 100}% of the floor: ${fmt(token.floorShare * 100)}% — ${shareMet ? 'met' : 'NOT MET'}`)
  if (fastest !== undefined) {
    const met = fastest.speedup >= TARGETS.peerSpeedup
    console.log(
      `  toolsieve ≥ ${TARGETS.peerSpeedup}× the fastest peer (${fastest.peer}): ${fmt(fastest.speedup)}× in interleaved rounds — ${met ? 'met' : 'NOT MET'}` +
        ` (paired by blocks: ${fmt(fastest.blocks.speedup)}×${fastest.blocks.speedup >= TARGETS.peerSpeedup ? '' : ', below it'})`,
    )
  }
  results.transcript = {
    seed: config.seed,
    turns: turns.length,
    bytes: transcriptBytes,
    calls: transcriptCalls,
    chunkings: chunkingResults,
    targets: {
      floorShare: { value: token.floorShare, target: TARGETS.floorShare, met: shareMet },
      peerSpeedup:
        fastest === undefined
          ? null
          : { value: fastest.speedup, peer: fastest.peer, target: TARGETS.peerSpeedup, met: fastest.speedup >= TARGETS.peerSpeedup, pairedByBlocks: fastest.blocks.speedup },
    },
  }
})()

// ---------------------------------------------------------------------------
// 2. Markdown guard

if (runs('guard') && config.peers) await (async () => {
  console.log('')
  console.log('## 2. Markdown guard: fenced tool-call examples written in each parser\'s own format')
  const withExamples = turns.filter((t) => t.segments.some((s) => s.kind === 'fence' && s.fence.kind === 'example'))
  const examples = withExamples.reduce(
    (n, t) => n + t.segments.reduce((m, s) => m + (s.kind === 'fence' && s.fence.kind === 'example' ? s.fence.block.calls.length : 0), 0),
    0,
  )
  const rows: string[][] = []
  const guard: Array<Record<string, unknown>> = []
  {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamSieve([t.text])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    rows.push(['toolsieve (examples in DSML and XML)', `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: 'toolsieve', turns: withExamples.length, exact, invented })
  }
  for (const peer of PEERS) {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamPeer(peer, [renderTurn(t.segments, peer.formatWithExamples)])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    await drainTimers()
    rows.push([`${peer.label} (examples in its format)`, `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: peer.id, turns: withExamples.length, exact, invented })
  }
  console.log(`${withExamples.length} turns hold ${examples} example calls inside \`\`\` / ~~~ fences; whole-turn chunks.`)
  const header = ['parser', 'turns exact', 'calls invented']
  console.log(table(header, rows))
  markdown.push(`### Markdown guard\n\n${markdownTable(header, rows)}\n`)
  results.guard = { turns: withExamples.length, exampleCalls: examples, runners: guard }
})()

// The transcript is not needed past this point.
turns.length = 0
turnBytes.length = 0

// ---------------------------------------------------------------------------
// 3–5. Scaling, adversarial inputs, heap (bench/sections.ts)

const report = { results, markdown }
if (runs('scaling')) await scalingSection(report)
if (runs('adversarial')) await adversarialSection(report, ordinary)
if (runs('heap')) await heapSection(report)

// ---------------------------------------------------------------------------
// Output

if (floorSink() === 0 && runs('transcript')) console.log('(floor did no work?)')
const loadAtEnd = loadavg()[0]!
console.log('')
console.log(`load average: ${fmt(loadAtStart, 2)} at start, ${fmt(loadAtEnd, 2)} at end (${machineInfo.cpus} cores; other processes share them)`)
results.load = { start: loadAtStart, end: loadAtEnd }

if (outDir !== undefined) {
  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`)
  const head =
    `Measured ${machineInfo.date.slice(0, 10)} on node ${machineInfo.node}, ${machineInfo.cpus} cores (nproc), ${machineInfo.cpu}, ` +
    `commit ${machineInfo.commit}; \`npm run bench${quick ? ' -- --quick' : ''}\`; toolsieve timed from its compiled package (\`dist/\`), as users import it.\n\n`
  writeFileSync(join(outDir, 'latest.md'), `${head}${markdown.join('\n')}`)
  const svg = chartFromResults(results as unknown as ResultsForChart)
  if (svg !== undefined) writeFileSync(join(outDir, 'chart.svg'), svg)
  console.log('')
  console.log(`wrote ${join(outDir, 'latest.json')}, latest.md${svg !== undefined ? ', chart.svg' : ''}`)
}

if (failureCount() > 0) {
  console.log(`\n*** ${failureCount()} correctness failure(s): see WRONG above ***`)
  process.exit(1)
}
