/**
 * The tokens of a message's start in a grammar with blocks anchored there
 * (`JsonBlocks.anchored`, mode `messageStart`): the start's decision as
 * Chevrotain custom matchers. Blanks go out as text; then an optional
 * opener, or a value of the kinds the grammar names, opens a block that ends
 * with its JSON (the opener token pushes `jsonBlock`, whose scanner reads
 * the value in the same run); anything else decides that the message opens
 * with text. Right after a block there (`LexContext.afterBlock`) a separator
 * and blanks must come before the next value.
 *
 * ```
 * > |   <|python_tag|>{"name": "f", "parameters": {}}
 *     ^ Blank: text, still at the start
 *       ^ AnchorOpen (an optional opener, or empty before a bracket)
 *                     ^ the value: `jsonBlock`'s tokens (`json-tokens.ts`)
 * > | {"name": "f", "parameters": {}}; {"name": "g", "parameters": {}}
 *                                    ^ AnchorOpen (afterBlock: the separator and blanks)
 * > | Hello {
 *     ^ Prose: empty, the message opens with text (the run halts; the driver reads on as prose)
 * > | <|python_
 *     ^ Incomplete: an opener's start at the text's end waits for the next chunk
 * ```
 */
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain'
import type { AnchoredBlocks } from '../grammar/types.js'
import { codeAt, isBlank } from './codes.js'
import type { LexContext } from './context.js'
import { initialScan, jsonBefore, maxBefore } from './json-scan.js'
import { modes } from './modes.js'
import type { TokenFactory } from './token-factory.js'

/**
 * What a message's start is from `from` on. Blanks before `at` are text in
 * every case; from `at`: the message opens with text (`text`), the rest
 * waits for more (`hold`), or `[at, end)` is a block's opener (`open`,
 * possibly empty before the value's bracket).
 */
export type StartDecision = { kind: 'text' | 'hold'; at: number } | { kind: 'open'; at: number; end: number }

/** The start's decision on `text` from `from` (see {@link StartDecision}); `between`: right after a block anchored there. */
export function decideStart(text: string, from: number, spec: AnchoredBlocks, between: boolean): StartDecision {
  const n = text.length
  // blanks are text either way; those of the last line say whether what follows is indented code, and wait (at
  // most `maxBefore` of them) with what follows until it decides
  let i = from
  let line = from
  while (i < n && isBlank(codeAt(text, i))) {
    const c = codeAt(text, i++)
    if (c === 0x0a || c === 0x0d) line = i
    else if (i - line > maxBefore) return { kind: 'text', at: line }
  }
  if (i === n) return { kind: 'hold', at: line }
  // four columns of indentation (a tab is up to four): indented code, which is text (Markdown)
  if (i - line >= 4 || text.lastIndexOf('\t', i - 1) >= line) return { kind: 'text', at: line }
  const lits = (between ? spec.separator : spec.open) ?? []
  const o = lits.find((x) => text.startsWith(x, i))
  // `<|python_` (or a separator's start) at the text's end: the next chunk says whether it is one
  if (o === undefined && lits.some((x) => n - i < x.length && x.startsWith(text.slice(i)))) return { kind: 'hold', at: line }
  let v = i
  if (between) {
    // between calls: the separator, blanks, and only then the value; the separator and blanks are the next block's opener
    if (o === undefined) return { kind: 'text', at: i }
    v += o.length
    while (v < n && isBlank(codeAt(text, v))) v++
    if (v - i > maxBefore) return { kind: 'text', at: i }
    if (v === n) return { kind: 'hold', at: line }
  } else if (o !== undefined) v += o.length
  const c = codeAt(text, v)
  // after an optional opener the block's scanner decides; without one, the value's first bracket does
  if ((o === undefined || between) && !((c === 0x7b && spec.values.includes('object')) || (c === 0x5b && spec.values.includes('array')))) return { kind: 'text', at: i }
  return { kind: 'open', at: i, end: v }
}

/**
 * The `messageStart` mode's tokens for `spec`, in the order Chevrotain tries
 * them, and the block opener they share with `jsonBlock` (its name is the
 * one checkpoints keep); `anyChar` is every code unit.
 */
export function messageStartTokens(f: TokenFactory, spec: AnchoredBlocks, anyChar: () => number[], frame: string): TokenType[] {
  const ctx = f.ctx
  // the decision at one offset, shared by the matchers tried there in turn
  let last: { text: string; offset: number; c: LexContext; d: StartDecision } | null = null
  const decision = (text: string, offset: number): StartDecision => {
    const c = ctx.current
    if (last === null || last.text !== text || last.offset !== offset || last.c !== c) last = { text, offset, c, d: decideStart(text, offset, spec, c.afterBlock) }
    return last.d
  }
  const m = (image: string): CustomPatternMatcherReturn => [image] as CustomPatternMatcherReturn
  const blank = f.make(`${modes.messageStart}.Blank`, 'Text', null, (text, offset) => {
    const d = decision(text, offset)
    return d.at > offset ? m(text.substring(offset, d.at)) : null
  }, anyChar(), true)
  const open = f.make(`${modes.jsonBlock}.AnchorOpen`, 'WrapperOpen', modes.jsonBlock, (text, offset) => {
    const d = decision(text, offset)
    if (d.kind !== 'open' || d.at !== offset) return null
    const c = ctx.current
    // the block's scanner starts after the opener, as after any JSON block's opener (`LexContext.json`)
    c.json = { scan: initialScan(), before: jsonBefore(c.captureLimit, d.end - d.at) }
    return m(text.substring(d.at, d.end))
  }, anyChar(), true, true)
  f.info.get(open)!.frame = frame
  // an opener's start at the text's end: held (at the stream's end it is text)
  const held = f.make(`${modes.messageStart}.Incomplete`, 'Incomplete', null, (text, offset) => {
    const d = decision(text, offset)
    return d.kind === 'hold' && d.at === offset && !ctx.current.final ? m(text.substring(offset)) : null
  }, anyChar(), true)
  // the message opens with text: empty, the driver reads on from here as prose
  const prose = f.make(`${modes.messageStart}.Prose`, 'Halt', modes.halt, (text, offset) => {
    const d = decision(text, offset)
    return d.kind !== 'open' && d.at === offset ? m('') : null
  }, anyChar(), true)
  return [blank, open, held, prose]
}
