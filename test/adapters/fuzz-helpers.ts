/**
 * The adapters' fuzz: answers made of prose, calls, broken and quoted calls
 * and reasoning, cut into random deltas, and one accounting every adapter's
 * output is held to: its text, its reasoning and the markup of the calls it
 * sent, in order, give back the text upstream sent (the `<think>` tags
 * aside, which no wire carries).
 */
import fc from 'fast-check'
import { createSieve } from '../../src/index.js'
import type { SieveOptions } from '../../src/types.js'
import { ToolsieveError } from '../../src/errors.js'

const dsmlInvoke = (name: string, v: string) => `<｜DSML｜invoke name="${name}">\n<｜DSML｜parameter name="v" string="true">${v}</｜DSML｜parameter>\n</｜DSML｜invoke>`
const dsmlBlock = (invokes: string[]) => `<｜DSML｜tool_calls>\n${invokes.join('\n')}\n</｜DSML｜tool_calls>`
const plainBlock = (invokes: Array<[string, string]>) => `<tool_calls>${invokes.map(([n, v]) => `<invoke name="${n}"><parameter name="v">${v}</parameter></invoke>`).join('')}</tool_calls>`

type Wrap = 'none' | 'fence' | 'span' | 'cut' | 'broken'
type Piece = { prose: string } | { call: { plain: boolean; names: string[]; wrap: Wrap; at: number } }

const prose = fc.constantFrom('Hello.', 'Let me look.', ' ', '\n', '\n\n', 'a `code` span', '1 < 2 and <b>', '｜', '＜', '<｜DSML｜', '<tool', '</｜DSML｜tool_calls>', '`', '```\n', '~~~\n', '> ', '- ', '中文 🚀', '<think>', '</think>', '    ')
const call = fc.record({
  plain: fc.boolean(),
  names: fc.array(fc.constantFrom('ls', 'read_file', 'run'), { minLength: 1, maxLength: 2 }),
  wrap: fc.constantFrom<Wrap>('none', 'none', 'none', 'fence', 'span', 'cut', 'broken'),
  at: fc.nat(),
})
const piece: fc.Arbitrary<Piece> = fc.oneof({ weight: 3, arbitrary: prose.map((p) => ({ prose: p })) }, { weight: 2, arbitrary: call.map((c) => ({ call: c })) })
const lead = fc.constantFrom('', '', '<think>plan `x</think>', '<think>\nthink hard\n</think>\n\n', '<think>half')

/**
 * An answer's text: prose, calls (each with its own `v` value, `c0`, `c1`…,
 * so a call sent is known by its arguments), calls in a fence or a code
 * span, broken ones, one cut short (last only: a block after it would be
 * read as the rest of its value), behind an optional reasoning lead.
 */
export const answer: fc.Arbitrary<string> = fc.tuple(lead, fc.array(piece, { maxLength: 8 })).map(([head, pieces]) => {
  let n = 0
  let text = head
  for (const [index, p] of pieces.entries()) {
    if ('prose' in p) {
      text += p.prose
      continue
    }
    const { plain, names, at } = p.call
    const wrap = p.call.wrap === 'cut' && index < pieces.length - 1 ? 'span' : p.call.wrap
    const values = names.map(() => `c${n++}`)
    let markup = plain ? plainBlock(names.map((name, i) => [name, values[i]!])) : dsmlBlock(names.map((name, i) => dsmlInvoke(name, values[i]!)))
    if (wrap === 'cut') markup = markup.slice(0, 1 + (at % (markup.length - 1)))
    if (wrap === 'broken') markup = markup.replace(/invoke>/, 'invok>')
    text += wrap === 'fence' ? `\n\`\`\`\n${markup}\n\`\`\`\n` : wrap === 'span' ? ` \`${markup}\` ` : `\n\n${markup}\n\n`
  }
  return text
})

/** `text` cut at the given offsets, in code points (a stream sends whole characters); `keepEmpty`: a repeated or end offset gives an empty piece, as an empty delta. */
export function cutAt(text: string, cuts: readonly number[], keepEmpty = false): string[] {
  const points = Array.from(text)
  const at = [...new Set(cuts.map((c) => c % (points.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (const c of at) {
    out.push(points.slice(from, c).join(''))
    from = c
  }
  out.push(points.slice(from).join(''))
  return keepEmpty ? out : out.filter((p) => p !== '')
}

/** An answer's call values made its own (`b2c0`), so calls of several answers in one stream are told apart. */
export const apart = (text: string, i: number): string => text.replace(/>c(\d+)</g, `>b${i}c$1<`)

/** An upstream part: an answer cut into deltas, or a native call. */
export const textOrNative = fc.oneof({ weight: 4, arbitrary: fc.record({ answer, cuts: fc.array(fc.nat(), { maxLength: 10 }) }) }, { weight: 1, arbitrary: fc.constant('native' as const) })

/** How an upstream stream ends. */
export type Ending = 'finish' | 'error' | 'throw' | 'malformed' | 'stop'
export const ending = fc.constantFrom<Ending>('finish', 'error', 'throw', 'malformed', 'stop')

/** The error a throwing source throws. */
export class UpstreamBroke extends Error {}

/** What an adapter's output said, in order, for one answer: text (and reasoning), and calls by their arguments. */
export type Said = { text: string } | { call: string; done: boolean }

/** The values of a call's arguments, or undefined when they are not a whole call's (a call cut while streaming). */
function valueOf(args: string): string | undefined {
  try {
    const v = (JSON.parse(args) as { v?: unknown }).v
    return typeof v === 'string' ? v : undefined
  } catch {
    return undefined
  }
}

const unthink = (s: string) => s.replaceAll('<think>', '').replaceAll('</think>', '')

export interface Accounting {
  /** `prefer-native`: held calls (or at a break their markup) may come later than they stood. */
  moved?: boolean
  /** `prefer-native` with a native call: held calls' markup may be gone. */
  dropped?: boolean
  /** The stream broke: a call still streaming may be cut (its markup went with it). */
  broke?: boolean
}

/**
 * Each call's markup by its `v` value, as the core sieve reads `text` whole
 * (a block of two invokes is split between them; a block the text ends in
 * after complete invokes is read up to the last of them; at a `broke`
 * stream none is): what a call the adapter sent stands for in the accounting.
 */
export function rawsOf(text: string, options: SieveOptions, broke = false): Map<string, string> {
  const sieve = createSieve(options)
  const raws = new Map<string, string>()
  for (const e of [...sieve.push(text), ...(broke ? sieve.abort() : sieve.end())]) if (e.type === 'tool-call') raws.set(valueOf(e.arguments) ?? e.arguments, e.raw)
  return raws
}

/**
 * Where `said` first differs from `sent` (every upstream character out once,
 * in order: text as text, a sent call as its markup), or undefined when it
 * does not. `raws`: each call's markup by its value ({@link rawsOf}).
 */
export function account(sent: string, raws: ReadonlyMap<string, string>, said: readonly Said[], how: Accounting = {}): string | undefined {
  const u = unthink(sent)
  const parts: Array<{ text: string } | { raw: string; abandoned: boolean }> = []
  for (const [n, s] of said.entries()) {
    if ('text' in s) {
      if (s.text === '') continue
      // one text for the alignment, however it was cut: markup in it is matched whole
      const prev = parts.at(-1)
      if (prev !== undefined && 'text' in prev) prev.text += s.text
      else parts.push({ text: s.text })
      continue
    }
    const v = valueOf(s.call)
    const raw = v === undefined ? undefined : raws.get(v)
    // at a break the calls of the block it cut may have started streaming: abandoned, as the stream fails, and the markup the sieve held of them follows as text
    const last = !said.slice(n + 1).some((x) => 'call' in x)
    if (how.broke && (!s.done || raw === undefined)) continue
    if (!s.done || v === undefined) return `a call that did not finish: ${JSON.stringify(s.call)}`
    if (raw === undefined) return `a call the text does not hold: ${v}`
    parts.push({ raw: unthink(raw), abandoned: how.broke === true && last })
  }
  const all = [...new Set([...raws.values()].map(unthink))]
  const pending: string[] = []
  let i = 0
  for (const p of parts) {
    const early = how.moved && 'raw' in p && !u.startsWith(p.raw, i) ? pending.indexOf(p.raw) : -1
    if (early >= 0) {
      pending.splice(early, 1)
      continue
    }
    if ('raw' in p && p.abandoned && !u.startsWith(p.raw, i)) continue
    const s = 'text' in p ? unthink(p.text) : p.raw
    let k = 0
    while (k < s.length) {
      const skip = (how.moved || how.dropped) && 'text' in p ? all.find((m) => u.startsWith(m, i) && !s.startsWith(m, k)) : undefined
      if (skip !== undefined) {
        pending.push(skip)
        i += skip.length
        continue
      }
      const back = how.moved && 'text' in p ? pending.findIndex((m) => s.startsWith(m, k) && !u.startsWith(m, i)) : -1
      if (back >= 0) {
        k += pending.splice(back, 1)[0]!.length
        continue
      }
      if (u[i] !== s[k]) return `differs at sent ${i} ${JSON.stringify(u.slice(i, i + 30))} / said ${JSON.stringify(s.slice(k, k + 30))}`
      i++
      k++
    }
  }
  for (let m: string | undefined; (how.moved || how.dropped) && (m = all.find((b) => u.startsWith(b, i))) !== undefined; ) pending.push(m), (i += m.length)
  if (i < u.length) return `lost ${JSON.stringify(u.slice(i, i + 60))}`
  if (pending.length > 0 && !how.dropped) return `held markup never came: ${JSON.stringify(pending[0])}`
  return undefined
}

/** Errors a run may end with: the upstream's own, and the library's with a code that fits. */
export function allowedError(error: unknown, codes: readonly string[]): boolean {
  if (error instanceof UpstreamBroke) return true
  return error instanceof ToolsieveError && codes.includes(error.code)
}

/** `items` as an async iterable that ends, or throws `end` after them. */
export async function* sourceOf<T>(items: readonly T[], end?: Error): AsyncGenerator<T> {
  for (const item of items) yield item
  if (end !== undefined) throw end
}

/** `promise`, or a rejection after `ms`: a hang fails the property instead of the whole file. */
export function inTime<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('hang')), ms).unref())])
}

/**
 * The items a stream cut at `at` sent: up to a random item (never all of
 * them), or with `inText` up to and including one of the items `isText`
 * picks, so that a cut lands inside the text (where a block can be cut)
 * as often as between events.
 */
export function cutStream<T>(all: readonly T[], at: number, inText: boolean, isText: (item: T) => boolean): T[] {
  const texts = all.flatMap((item, i) => (isText(item) ? [i] : []))
  if (inText && texts.length > 0) return all.slice(0, texts[at % texts.length]! + 1)
  return all.slice(0, 1 + (at % Math.max(1, all.length - 1)))
}
