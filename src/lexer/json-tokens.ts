/**
 * The tokens of a block that ends with its JSON (`Grammar.blocks.json`,
 * mode `jsonBlock`): the scanner of `json-scan.ts` as Chevrotain custom
 * matchers. The scanner's state crosses chunks in the capture; a run gets a
 * copy in its context (`LexContext.json`), the matchers move it, and each
 * token carries the state after it as its payload, which the driver's walk
 * keeps.
 *
 * ```
 * [TOOL_CALLS] [{"name": "f", "arguments": {}}]<|end|>
 *             ^ Value (more: the scanner read it all and the value goes on)
 *                                           ^ End: its last bracket
 *                                              ^ a closer (`json.close`), its prefix at the text's end (Incomplete),
 *                                                or none (After, empty)
 * ```
 * A block's end token and the tokens after it push `halt`: what follows is
 * read again by the driver as a chunk's rest (a block anchored at the
 * message start may be followed by another), so the lexer does not read it.
 */
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain'
import type { JsonBlocks } from '../grammar/types.js'
import type { LexContext } from './context.js'
import { phases, scanJson, type JsonScan } from './json-scan.js'
import { modes } from './modes.js'
import type { TokenFactory } from './token-factory.js'

/** What a JSON block's token is to the walk (`TokenInfo.json`). */
export type JsonPart = 'value' | 'end' | 'broken' | 'mention' | 'close' | 'after'

/** A JSON block token's payload: the scanner's state after it, and for `broken` the reason. */
export interface JsonPayload {
  scan: JsonScan
  why?: string
}

/**
 * One token of a block at `offset` of `text`: its part, where it ends, the
 * scanner's state after it and, broken, the reason; `incomplete`: a closer's
 * start at the text's end, held. Null: no token of the block starts there
 * (after a value, with no closers). The matchers below are this step, each
 * taking the part it is; the driver's fast path calls it without a run.
 */
export interface JsonStep {
  part: JsonPart | 'incomplete'
  end: number
  scan: JsonScan
  why?: string
}

/**
 * The step at `offset` from the scanner's state `from` (not changed) and the
 * bound `before` on what may come before the value (`JsonRun`); `final`: the
 * stream ends with `text`. See {@link JsonStep}.
 */
export function jsonStep(from: JsonScan, before: number, text: string, offset: number, spec: JsonBlocks, final: boolean): JsonStep | null {
  const scan = { ...from }
  if (scan.phase !== phases.after) {
    const r = scanJson(scan, text, offset, spec, before)
    if (r.kind === 'more') return { part: 'value', end: text.length, scan }
    if (r.kind === 'text') return { part: 'mention', end: offset, scan }
    if (r.kind === 'broken') return { part: 'broken', end: r.at, scan, why: r.why }
    return { part: 'end', end: r.at, scan }
  }
  const closers = spec.close ?? []
  if (closers.length === 0) return null
  // after the value: the shortest closer written right there, as the model writes it
  let best: string | undefined
  for (const x of closers) if (text.startsWith(x, offset) && (best === undefined || x.length < best.length)) best = x
  if (best !== undefined) return { part: 'close', end: offset + best.length, scan }
  const n = text.length - offset
  // a closer's start at the text's end: held until it is whole or is not one
  if (!final && closers.some((x) => x.length > n && x.startsWith(text.substring(offset)))) return { part: 'incomplete', end: text.length, scan }
  return { part: 'after', end: offset, scan }
}

/**
 * The `jsonBlock` mode's tokens for `spec`, in the order Chevrotain tries
 * them; `anyChar` is every code unit (every token may start anywhere).
 */
export function jsonBlockTokens(f: TokenFactory, spec: JsonBlocks, anyChar: () => number[]): TokenType[] {
  const ctx = f.ctx
  const closers = spec.close ?? []
  // the step at one offset, shared by the matchers tried there in turn (each takes one part)
  let last: { text: string; offset: number; c: LexContext; step: JsonStep | null } | null = null
  const take = (part: JsonStep['part']) => (text: string, offset: number) => {
    const c = ctx.current
    // a run with no block's state (a reader of its own, such as the tests' `codeRanges`): the text, as it stands
    if (c.json === null) return part === 'value' ? ([text.substring(offset)] as CustomPatternMatcherReturn) : null
    if (last === null || last.text !== text || last.offset !== offset || last.c !== c) last = { text, offset, c, step: jsonStep(c.json.scan, c.json.before, text, offset, spec, c.final) }
    const step = last.step
    if (step === null || step.part !== part) return null
    c.json.scan = step.scan
    last = null
    const m = [text.substring(offset, step.end)] as CustomPatternMatcherReturn
    m.payload = { scan: { ...step.scan }, ...(step.why === undefined ? {} : { why: step.why }) } satisfies JsonPayload
    return m
  }
  const make = (name: string, category: Parameters<TokenFactory['make']>[1], push: typeof modes.halt | null, part: JsonPart, exec: Parameters<TokenFactory['make']>[3]) => {
    const t = f.make(`${modes.jsonBlock}.${name}`, category, push, exec, anyChar(), true)
    f.info.get(t)!.json = part
    return t
  }
  const ended = closers.length === 0 ? modes.halt : null
  return [
    make('Value', 'ValueText', null, 'value', take('value')),
    make('End', 'ValueText', ended, 'end', take('end')),
    make('Broken', 'Junk', modes.halt, 'broken', take('broken')),
    // the opener was only mentioned: empty, the driver reads again what followed it
    make('Mention', 'Halt', modes.halt, 'mention', take('mention')),
    ...(closers.length === 0 ? [] : [
      make('Close', 'WrapperClose', modes.halt, 'close', take('close')),
      make('Incomplete', 'Incomplete', null, 'after', take('incomplete')),
      make('After', 'Halt', modes.halt, 'after', take('after')),
    ]),
  ]
}
