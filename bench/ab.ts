/**
 * In-process A/B: the compiled package of a reference worktree (A) against
 * this tree's (B), in one process, rounds alternating, so a change is judged
 * against the commit before it on the same machine load.
 *
 *   (cd /tmp/ref && npm run build) && npm run build
 *   npx tsx bench/ab.ts [--ref /tmp/ref] [--mb 4] [--rounds 5] [--warm 3] [--adv 0.5] [--only id,…] [--same-rounds]
 *
 * Each side first reads the whole input `--warm` times untimed: the first
 * passes run several times slower while the engine compiles, and a best
 * round picked from them would measure how fast each side warms up, not
 * how fast it reads. Prints MB/s of CPU time (best of rounds) per chunking over bench turns (token-sized,
 * 16, 4096, whole turn) and, for each adversarial input, its MB/s and how
 * many times slower it is than ordinary turns in the same chunking
 * (with `--same-rounds`, also against turns read in the same rounds as it).
 */
import { join } from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'
import { CHUNKINGS } from './chunks.js'
import { generateTurns } from './transcripts.js'
import { ADVERSARIAL } from './adversarial.js'
import { flagValue } from '../scripts/args.js'

type Lib = typeof import('../src/index.js')
type SieveOptions = Parameters<Lib['createSieve']>[0]

const args = process.argv.slice(2)
const flag = (name: string, fallback: string): string => flagValue(args, name, fallback)
const refRoot = flag('--ref', '/tmp/ref')
const mb = Number(flag('--mb', '4'))
const rounds = Number(flag('--rounds', '5'))
const warm = Number(flag('--warm', '3'))
const advScale = Number(flag('--adv', '0.5'))
const only = flag('--only', '')
/** With `--same-rounds`: each adversarial input's times-slower figure is also taken against turns read in the same rounds. */
const sameRounds = args.includes('--same-rounds')

const here = fileURLToPath(new URL('..', import.meta.url))
const A: Lib = await import(pathToFileURL(join(refRoot, 'dist/index.js')).href)
const B: Lib = await import(pathToFileURL(join(here, 'dist/index.js')).href)

const MB = 1024 * 1024
const turns = generateTurns({ seed: 20240601, size: mb * MB })
/**
 * B reads its own strings, made as A's are: a sieve may change how a string
 * it reads is stored (a string used as a key is internalized in place, a
 * joined one flattened), and the other side would then read strings laid
 * out as no stream delivers them.
 */
const turnsB = generateTurns({ seed: 20240601, size: mb * MB })

let sink = 0
/** Milliseconds to stream every chunk list through a fresh sieve each. */
function time(lib: Lib, docs: readonly string[][], options?: SieveOptions): number {
  // CPU time, not wall time: the machine is shared, and time spent waiting for a core is not the sieve's
  const t0 = process.cpuUsage()
  for (const chunks of docs) {
    const s = lib.createSieve(options)
    for (const c of chunks) sink += s.push(c).length
    sink += s.end().length
  }
  const t = process.cpuUsage(t0)
  return (t.user + t.system) / 1000
}

/** The fastest round: on a shared machine the slower ones measure the neighbours. */
const best = (xs: number[]): number => Math.min(...xs)

/** MB/s of A over `docs` and B over `docsB`, the same chunks (`chars` UTF-16 units in all), alternating rounds. */
function ab(docs: readonly string[][], docsB: readonly string[][], chars: number, options?: SieveOptions): [number, number] {
  const ta: number[] = []
  const tb: number[] = []
  for (let w = 0; w < warm; w++) {
    time(A, docs, options)
    time(B, docsB, options)
  }
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ta.push(time(A, docs, options))
      tb.push(time(B, docsB, options))
    } else {
      tb.push(time(B, docsB, options))
      ta.push(time(A, docs, options))
    }
  }
  const rate = (ms: number): number => chars / MB / (ms / 1000)
  return [rate(best(ta)), rate(best(tb))]
}

const fmt = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(1))
const chars = turns.reduce((n, t) => n + t.text.length, 0)
const ordinary = new Map<string, [number, number]>()
console.log(`A = ${refRoot}, B = ${here}; ${turns.length} turns, ${(chars / MB).toFixed(1)} M chars, ${warm} passes untimed, ${rounds} rounds (best)`)
for (const [name, cut] of CHUNKINGS) {
  const docs = turns.map((t) => cut(t.text, t.id))
  const [a, b] = ab(docs, turnsB.map((t) => cut(t.text, t.id)), chars)
  ordinary.set(name, [a, b])
  console.log(`turns ${name.padEnd(6)} A ${fmt(a).padStart(6)} MB/s   B ${fmt(b).padStart(6)} MB/s   B/A ${(b / a).toFixed(2)}`)
}
/**
 * How many times slower B reads `adv` than the turns, both in the same
 * rounds (alternating): the ratio against the turns' rate measured minutes
 * earlier moves with the machine's load between the two.
 */
function slowerSamePeriod(turnDocs: readonly string[][], advDocs: readonly string[][], advChars: number, options?: SieveOptions): number {
  const tt: number[] = []
  const ta: number[] = []
  for (let r = 0; r < rounds; r++) {
    tt.push(time(B, turnDocs))
    ta.push(time(B, advDocs, options))
  }
  return chars / best(tt) / (advChars / best(ta))
}

for (const make of ADVERSARIAL) {
  const adv = make(advScale)
  if (only !== '' && !only.split(',').some((o) => adv.id.includes(o))) continue
  const cells: string[] = []
  for (const [name, cut] of CHUNKINGS) {
    if (name === '16') continue
    // with the input's own options (streamed-parameters streams its arguments)
    const [a, b] = ab([cut(adv.text, 1)], [cut(make(advScale).text, 1)], adv.text.length, adv.options)
    const [oa, ob] = ordinary.get(name)!
    const same = sameRounds ? ` [${slowerSamePeriod(turnsB.map((t) => cut(t.text, t.id)), [cut(make(advScale).text, 1)], adv.text.length, adv.options).toFixed(1)}× same rounds]` : ''
    cells.push(`${name} A ${fmt(a)} (${(oa / a).toFixed(1)}×) B ${fmt(b)} (${(ob / b).toFixed(1)}×)${same}`)
  }
  console.log(`${adv.id.padEnd(18)} ${cells.join('  |  ')}`)
}
if (sink < 0) console.log(sink)
