/**
 * Section 1 of `npm run bench` (see `bench/run.ts`): the seeded turns through
 * toolsieve, the copy-through floor and the peers, in four chunkings. Its
 * MB/s by chunking are the reference the adversarial inputs (section 4) are
 * measured against.
 */
import { fixedChunks, tokenChunks } from './chunks.js'
import { OWN_WINDOW_MS, PAIR_BLOCK, TARGETS, WARM_UP_MS, config } from './config.js'
import type { ManifestCall } from './generate.js'
import { MB, bytesOf, fmt, markdownTable, median, sig, table } from './measure.js'
import type { Report } from './measure.js'
import { floorPass, meanPass, peerPass, sievePass, wrong, type Pass, type PairedPass } from './passes.js'
import { PEERS } from './peers.js'
import { runnerResult, type ChunkingResult, type PeerComparison } from './transcript-results.js'
import { renderTurn, type Turn } from './transcripts.js'

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

/** Streams `turns` in every chunking and reports each runner. */
export async function transcriptSection(report: Report, turns: readonly Turn[]): Promise<void> {
  const turnBytes = turns.map((t) => bytesOf(t.text))
  const transcriptBytes = turnBytes.reduce((a, b) => a + b, 0)
  const transcriptCalls = turns.reduce((n, t) => n + t.calls.length, 0)

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
    report.markdown.push(`### ${chunking.label}\n\n${markdownTable(header, rows)}\n${pairs.length > 0 ? `\n${pairs.join('\n')}\n` : ''}`)
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
  report.results.transcript = {
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
}
