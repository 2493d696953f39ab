/**
 * The bench's turns written in any dialect pack, for `bench/dialects.ts` and
 * `test/bench/dialect-turns.test.ts`: each real block is written with
 * toolsieve's own `formatToolCalls(calls, { dialect, variant })`, as the
 * family's chat template writes it; prose, code spans and fences (with their
 * DSML examples, which must stay text) are kept as generated. Every dialect
 * gets the same calls, so the turns differ only in their blocks' markup.
 *
 * One change to the generated calls: a value a shipped pack cannot carry is
 * written so that it can. Raw-string packs (Qwen3-Coder, Seed-OSS,
 * MiniMax-M2) refuse a value holding `</parameter>`, which would end it early
 * (the generator puts that line in code on purpose, for DSML's CDATA); in a
 * block where any shipped pack refuses a value, every `</` in its values is
 * written `<\/`, the JavaScript-string idiom, in every dialect alike. Which
 * blocks change depends on the shipped packs only, not on which of them the
 * sieve reads today, so runs stay comparable as packs become readable.
 *
 * Formatting is setup, never timed: it runs from the sources. Which packs the
 * sieve reads is asked of the sources too (`unreadable`), which `bench/lib.ts`
 * keeps `dist/` built from.
 */
import { dialects, formatToolCalls } from '../src/index.js'
import { readsWhole, unreadable, wholeSpecs } from '../src/dialects/grammar.js'
import type { ToolsieveError } from '../src/errors.js'
import { inputOf } from './generate.js'
import type { BlockSpec, ManifestCall } from './generate.js'
import { renderTurn } from './transcripts.js'
import type { Turn } from './transcripts.js'

/** One pack and one of its block layouts (`variant`: the block's name). */
export interface DialectVariant {
  dialect: string
  variant: string
  /** The pack's first layout the sieve reads (its first block, unless that is one it does not read): the one a row stands for. */
  primary: boolean
  /** Why the sieve cannot read the pack yet, or null: it can. */
  unreadable: string | null
  /** Whether the sieve reads this layout: a pack read whole is read by its delimited block specs only. */
  read: boolean
}

/** Every shipped pack's every block layout, packs in name order, each pack's primary layout first. */
export function dialectVariants(): DialectVariant[] {
  return Object.keys(dialects)
    .sort()
    .flatMap((name) => {
      const pack = dialects[name]!
      const why = unreadable(pack)
      const read = why !== null ? [] : readsWhole(pack) ? wholeSpecs(pack) : pack.blocks.map((_, i) => i)
      const primary = read[0] ?? 0
      const order = [primary, ...pack.blocks.map((_, i) => i).filter((i) => i !== primary)]
      return order.map((i) => ({ dialect: name, variant: pack.blocks[i]!.name, primary: i === primary, unreadable: why, read: read.includes(i) }))
    })
}

/** `dialect` or `dialect/variant` for a layout other than the pack's primary one. */
export const labelOf = (v: Pick<DialectVariant, 'dialect' | 'variant' | 'primary'>): string => (v.primary ? v.dialect : `${v.dialect}/${v.variant}`)

const ALL = Object.keys(dialects).flatMap((name) => dialects[name]!.blocks.map((b) => [name, b.name] as const))

/** Values with every `</` written `<\/`. */
const escaped = (calls: readonly ManifestCall[]): ManifestCall[] =>
  calls.map((c) => ({ name: c.name, input: Object.fromEntries(Object.entries(c.input).map(([k, v]) => [k, v.replaceAll('</', '<\\/')])) }))

function refusedBySome(calls: readonly ManifestCall[]): boolean {
  for (const [dialect, variant] of ALL) {
    try {
      formatToolCalls(calls, { dialect, variant })
    } catch (e) {
      if ((e as ToolsieveError).code === 'invalid-option') return true
      throw e
    }
  }
  return false
}

const callsCache = new WeakMap<BlockSpec, { calls: ManifestCall[]; escaped: boolean }>()

/**
 * A block's calls as every dialect writes them: the generated ones, or, if a
 * shipped pack refuses one of their values, with `</` written `<\/` in all.
 *
 * @throws Error when a pack refuses even the escaped values: the bench would
 *   otherwise time turns with calls missing.
 */
export function blockCalls(block: BlockSpec): { calls: ManifestCall[]; escaped: boolean } {
  let known = callsCache.get(block)
  if (known === undefined) {
    const calls = block.calls.map((c) => ({ name: c.name, input: inputOf(c) }))
    known = refusedBySome(calls) ? { calls: escaped(calls), escaped: true } : { calls, escaped: false }
    if (known.escaped && refusedBySome(known.calls)) throw new Error(`a shipped pack refuses a block's calls even with </ escaped: ${JSON.stringify(known.calls).slice(0, 200)}`)
    callsCache.set(block, known)
  }
  return known
}

/** Turns rewritten in one layout of one pack. */
export interface DialectTurns {
  /** Each turn's text: its blocks in the dialect, everything else as generated. */
  texts: string[]
  /** Each turn's calls, in order: what the sieve must read. */
  calls: ManifestCall[][]
  /** UTF-8 bytes of all texts. */
  bytes: number
  callCount: number
  /** Blocks whose values had `</` escaped (the same in every dialect). */
  escapedBlocks: number
}

/** `turns` with every real block written by `formatToolCalls(calls, { dialect, variant })`. */
export function rewriteTurns(turns: readonly Turn[], dialect: string, variant?: string): DialectTurns {
  const texts: string[] = []
  const calls: ManifestCall[][] = []
  let bytes = 0
  let callCount = 0
  let escapedBlocks = 0
  // a layout anchored at the message start (Llama 3 JSON, a pythonic list, xLAM's array) is read only there, as those
  // models write it: the turn's calls open it as one block, its prose follows with the blocks' places empty
  const pack = dialects[dialect]!
  const anchored = (pack.blocks.find((b) => b.name === variant) ?? pack.blocks[0]!).anchored === true
  for (const turn of turns) {
    const own: ManifestCall[] = []
    let text = renderTurn(turn.segments, {
      block(block) {
        const b = blockCalls(block)
        if (b.escaped) escapedBlocks++
        own.push(...b.calls)
        return anchored ? '' : formatToolCalls(b.calls, { dialect, variant })
      },
    })
    if (anchored && own.length > 0) text = `${formatToolCalls(own, { dialect, variant })}\n\n${text}`
    texts.push(text)
    calls.push(own)
    bytes += Buffer.byteLength(text, 'utf8')
    callCount += own.length
  }
  return { texts, calls, bytes, callCount, escapedBlocks }
}
