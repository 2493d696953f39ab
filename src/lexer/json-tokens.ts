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
import { phases, scanJson, type JsonScan, type ScanResult } from './json-scan.js'
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
 * The `jsonBlock` mode's tokens for `spec`, in the order Chevrotain tries
 * them; `anyChar` is every code unit (every token may start anywhere).
 */
export function jsonBlockTokens(f: TokenFactory, spec: JsonBlocks, anyChar: () => number[]): TokenType[] {
  const ctx = f.ctx
  const closers = spec.close ?? []
  // the scan at one offset, shared by the matchers tried there in turn (each wants one kind of result)
  let last: { text: string; offset: number; c: LexContext; r: ScanResult; scan: JsonScan } | null = null
  const scanAt = (text: string, offset: number): { r: ScanResult; scan: JsonScan } | null => {
    const c = ctx.current
    const run = c.json
    if (run === null || run.scan.phase === phases.after) return null
    if (last !== null && last.text === text && last.offset === offset && last.c === c) return last
    const scan = { ...run.scan }
    last = { text, offset, c, r: scanJson(scan, text, offset, spec, run.before), scan }
    return last
  }
  const take = (kind: ScanResult['kind']) => (text: string, offset: number) => {
    const c = ctx.current
    // a run with no block's state (`inspect`, a reader of its own): the text, as it stands
    if (c.json === null) return kind === 'more' ? ([text.substring(offset)] as CustomPatternMatcherReturn) : null
    const hit = scanAt(text, offset)
    if (hit === null || hit.r.kind !== kind) return null
    c.json!.scan = hit.scan
    last = null
    const end = hit.r.kind === 'more' ? text.length : kind === 'text' ? offset : hit.r.at
    const m = [text.substring(offset, end)] as CustomPatternMatcherReturn
    m.payload = { scan: { ...hit.scan }, ...(hit.r.kind === 'broken' ? { why: hit.r.why } : {}) } satisfies JsonPayload
    return m
  }
  // after the value: the shortest closer written right there, as the model writes it
  const closerAt = (text: string, offset: number): string | undefined => {
    let best: string | undefined
    for (const x of closers) if (text.startsWith(x, offset) && (best === undefined || x.length < best.length)) best = x
    return best
  }
  const after = (c: LexContext): boolean => c.json !== null && c.json.scan.phase === phases.after
  const make = (name: string, category: Parameters<TokenFactory['make']>[1], push: typeof modes.halt | null, part: JsonPart, exec: Parameters<TokenFactory['make']>[3]) => {
    const t = f.make(`${modes.jsonBlock}.${name}`, category, push, exec, anyChar(), true)
    f.info.get(t)!.json = part
    return t
  }
  const ended = closers.length === 0 ? modes.halt : null
  return [
    make('Value', 'ValueText', null, 'value', take('more')),
    make('End', 'ValueText', ended, 'end', take('end')),
    make('Broken', 'Junk', modes.halt, 'broken', take('broken')),
    // the opener was only mentioned: empty, the driver reads again what followed it
    make('Mention', 'Halt', modes.halt, 'mention', take('text')),
    ...(closers.length === 0 ? [] : [
      make('Close', 'WrapperClose', modes.halt, 'close', (text, offset) => {
        const c = ctx.current
        if (!after(c)) return null
        const x = closerAt(text, offset)
        return x === undefined ? null : ([x] as CustomPatternMatcherReturn)
      }),
      // a closer's start at the text's end: held until it is whole or is not one
      make('Incomplete', 'Incomplete', null, 'after', (text, offset) => {
        const c = ctx.current
        if (!after(c) || c.final) return null
        const rest = text.substring(offset)
        return closers.some((x) => x.length > rest.length && x.startsWith(rest)) ? ([rest] as CustomPatternMatcherReturn) : null
      }),
      make('After', 'Halt', modes.halt, 'after', (_text, _offset) => (after(ctx.current) ? ([''] as CustomPatternMatcherReturn) : null)),
    ]),
  ]
}
