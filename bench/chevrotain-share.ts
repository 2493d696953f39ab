/**
 * How much of a sieve's time is spent inside Chevrotain: the lexer runs
 * (the grammar's token matchers included, since they run inside them) and
 * the block parser, over bench turns in each chunking. What is left is the
 * sieve's own reading (shortcuts, token walk, line state, values, events):
 * with the lexer and the parser as they are, a change to the rest can make a
 * chunking at most 1 / (lexer + parser share) times faster.
 *
 *   npm run build && npx tsx bench/chevrotain-share.ts [--mb 4] [--rounds 8]
 *
 * Times `dist/`: the compiled lexer's `tokenize` and the parser's
 * `parseBlock` are wrapped with a clock (performance.now per call: a few
 * thousand calls a round, well under a percent of it), best round of each
 * chunking.
 */
import { pathToFileURL, fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { CHUNKINGS } from './chunks.js'
import { generateTurns } from './transcripts.js'
import { flagValue } from '../scripts/args.js'

const args = process.argv.slice(2)
const mb = Number(flagValue(args, '--mb', '4'))
const rounds = Number(flagValue(args, '--rounds', '8'))
const dist = join(fileURLToPath(new URL('..', import.meta.url)), 'dist')
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(dist, path)).href)) as T

type Lib = typeof import('../src/index.js')
const lib = await load<Lib>('index.js')
const { compileLexer } = await load<typeof import('../src/lexer/lexer.js')>('lexer/lexer.js')
const { BlockParser } = await load<typeof import('../src/parser/block-parser.js')>('parser/block-parser.js')

let lexMs = 0
let parseMs = 0
// the default grammar's lexer is compiled once and kept on the grammar: every sieve below runs this object's tokenize
const lexer = compileLexer(lib.defaultGrammar) as { tokenize: (...a: unknown[]) => unknown }
const tokenize = lexer.tokenize
lexer.tokenize = function (this: unknown, ...a: unknown[]) {
  const t0 = performance.now()
  const r = tokenize.apply(this, a)
  lexMs += performance.now() - t0
  return r
}
const parse = BlockParser.prototype.parseBlock
BlockParser.prototype.parseBlock = function (this: InstanceType<typeof BlockParser>, tokens) {
  const t0 = performance.now()
  const r = parse.call(this, tokens)
  parseMs += performance.now() - t0
  return r
}

const turns = generateTurns({ seed: 20240601, size: mb * 1024 * 1024 })
const chars = turns.reduce((n, t) => n + t.text.length, 0)
console.log(`${turns.length} turns, ${(chars / 1e6).toFixed(2)} M chars, best of ${rounds} rounds`)
let sink = 0
for (const [id, chunk] of CHUNKINGS) {
  const docs = turns.map((t, i) => chunk(t.text, i))
  let best = { ms: Infinity, lex: 0, parse: 0 }
  for (let r = 0; r < rounds; r++) {
    lexMs = parseMs = 0
    const t0 = performance.now()
    for (const d of docs) {
      const s = lib.createSieve()
      for (const c of d) sink += s.push(c).length
      sink += s.end().length
    }
    const ms = performance.now() - t0
    if (ms < best.ms) best = { ms, lex: lexMs, parse: parseMs }
  }
  const share = (x: number): string => `${((100 * x) / best.ms).toFixed(0)}%`
  const ceiling = best.ms / (best.lex + best.parse)
  console.log(
    `${id.padEnd(6)} ${(chars / 1e3 / best.ms).toFixed(1).padStart(6)} MB/s   lexer runs ${share(best.lex).padStart(4)}   block parser ${share(best.parse).padStart(4)}   ` +
      `the rest ${share(best.ms - best.lex - best.parse).padStart(4)}   at most ${ceiling.toFixed(1)}× from the rest`,
  )
}
if (sink === 0) console.log('(no events?)')
