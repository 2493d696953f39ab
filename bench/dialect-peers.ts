/**
 * `bench/dialects.ts`'s peer table: `@ai-sdk-tool/parser`'s `hermesProtocol`
 * and `qwen3CoderProtocol` beside toolsieve's `hermes` and `qwen3-coder`
 * packs, on the very same turns (written by toolsieve's formatter, which the
 * peer reads), at every chunking of the bench.
 *
 * The peer takes about twenty times as long as toolsieve on a pass, so one
 * toolsieve pass alone would sample the machine's load over a far shorter
 * window: in each round toolsieve's passes repeat to about the peer's time,
 * half right before the peer's pass and half right after, and the round's
 * ratio is the peer's time over toolsieve's mean (as `bench/transcript-section.ts`).
 */
import { hermesProtocol, qwen3CoderProtocol } from '@ai-sdk-tool/parser'
import type { TCMProtocol } from '@ai-sdk-tool/parser'
import { checkPass, peerPass, sievePass, type Chunking } from './dialect-passes.js'
import { dialectVariants, rewriteTurns } from './dialect-turns.js'
import type { ManifestCall } from './generate.js'
import { MB, median } from './measure.js'
import type { Turn } from './transcripts.js'

/** One line of the peer table. */
export interface PeerRow {
  /** The turns' format and the peer's protocol. */
  label: string
  chunking: string
  turns: number
  bytes: number
  /** Null when the sieve cannot read the pack yet (`sieveNote` says why). */
  sieveMbps: number | null
  sieveNote?: string
  peerMbps: number
  /** The peer's time over toolsieve's, median over rounds; null without toolsieve. */
  speedup: number | null
  sieveExact?: string
  peerExact: string
  /** Calls the peer found of the calls written. */
  peerCalls: string
}

const PEERS: ReadonlyArray<{ dialect: string; protocol: string; make: () => TCMProtocol }> = [
  { dialect: 'hermes', protocol: 'hermesProtocol', make: () => hermesProtocol() },
  { dialect: 'qwen3-coder', protocol: 'qwen3CoderProtocol', make: () => qwen3CoderProtocol() },
]

/** Most toolsieve passes per round (an even number: half before the peer's pass, half after). */
const MAX_OWN = 16

export interface PeerOptions {
  turns: readonly Turn[]
  chunkings: readonly Chunking[]
  config: { seed: number; rounds: number; peerMb: number; peerTurnKb: number }
  fail(what: string): void
}

export async function peerComparison({ turns, chunkings, config, fail }: PeerOptions): Promise<PeerRow[]> {
  const rows: PeerRow[] = []
  const variants = dialectVariants()
  for (const peer of PEERS) {
    const own = variants.find((v) => v.dialect === peer.dialect && v.primary)!
    const why = own.unreadable
    const written = rewriteTurns(turns, peer.dialect, own.variant)
    // the first turns within the size limits, each keeping its own index for its chunking seed
    const picked: number[] = []
    let bytes = 0
    for (let i = 0; i < written.texts.length; i++) {
      const b = Buffer.byteLength(written.texts[i]!, 'utf8')
      if (b > config.peerTurnKb * 1024) continue
      if (bytes + b > config.peerMb * MB) break
      picked.push(i)
      bytes += b
    }
    const texts = picked.map((i) => written.texts[i]!)
    const expected: ManifestCall[][] = picked.map((i) => written.calls[i]!)
    const callCount = expected.reduce((n, c) => n + c.length, 0)
    const label = `${peer.dialect}: toolsieve \`${peer.dialect}\` vs peer \`${peer.protocol}\``
    for (const chunking of chunkings) {
      const chunked = picked.map((i, k) => chunking.split(texts[k]!, config.seed + i))
      const rate = (ms: number): number => bytes / MB / (ms / 1000)
      // two warm-up passes of the peer (the first gives its answers), two of toolsieve below
      const warmPeer = await peerPass(peer.make, chunked, expected)
      await peerPass(peer.make, chunked, expected)
      const row: PeerRow = { label, chunking: chunking.id, turns: picked.length, bytes, sieveMbps: null, peerMbps: 0, speedup: null, peerExact: `${warmPeer.exact}/${picked.length}`, peerCalls: `${warmPeer.calls}/${callCount}` }
      if (why !== null) {
        row.sieveNote = why
        const peerMs: number[] = []
        for (let r = 0; r < config.rounds; r++) peerMs.push((await peerPass(peer.make, chunked, expected)).ms)
        row.peerMbps = rate(median(peerMs))
        rows.push(row)
        continue
      }
      const check = checkPass(peer.dialect, chunked, texts, expected)
      if (check.wrong > 0) fail(`${peer.dialect} (${chunking.id}, peer turns): ${check.wrong} of ${picked.length} turns wrong; ${check.problems.join(' | ')}`)
      row.sieveExact = `${picked.length - check.wrong}/${picked.length}`
      sievePass(peer.dialect, chunked)
      const warmOwn = sievePass(peer.dialect, chunked)
      const reps = Math.min(MAX_OWN, 2 * Math.max(1, Math.ceil(warmPeer.ms / Math.max(warmOwn.ms, 1) / 2)))
      const ownPass = (): number => {
        const t = sievePass(peer.dialect, chunked)
        if (t.calls !== callCount) fail(`${peer.dialect} (${chunking.id}, peer turns): read ${t.calls} calls of ${callCount}`)
        return t.ms
      }
      const sieveMs: number[] = []
      const peerMs: number[] = []
      for (let r = 0; r < config.rounds; r++) {
        const times = Array.from({ length: reps / 2 }, ownPass)
        peerMs.push((await peerPass(peer.make, chunked, expected)).ms)
        times.push(...Array.from({ length: reps / 2 }, ownPass))
        sieveMs.push(times.reduce((a, b) => a + b, 0) / times.length)
      }
      row.sieveMbps = rate(median(sieveMs))
      row.peerMbps = rate(median(peerMs))
      row.speedup = median(peerMs.map((p, r) => p / sieveMs[r]!))
      rows.push(row)
    }
  }
  return rows
}
