/**
 * Reading one captured block of a dialect pack: the inverse of
 * `formatToolCalls(calls, { dialect })`, driven by the same pack data. The
 * streaming engine captures a block from its opener through its closer
 * (`blockDelimiters` says which strings those are) and hands the text here.
 *
 * Strict about structure, lenient only about blanks between parts: anything
 * the pack does not explain (text between calls, a call with no name, bad
 * JSON, text before the closer) fails the whole block, which then stays
 * text. Never throws; linear in the text's length.
 *
 * ```
 * > | <tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>
 *     ^ the opener: the spec whose opener this is (several may share one: each is tried)
 *                ^ the head, up to the first argument: the name pattern reads it
 *                             ^ pairs while a key tag follows, blanks between
 *                                                                                    ^ the closer, at the text's end
 * ```
 */
import type { BlockSpec, DialectPack } from '../dialects/types.js'
import { spellingOf, spellings } from '../dialects/spelling.js'
import { readCall, type CallContext, type ReadCall } from './read-call.js'
import { fail, openTag, ReadError, Scan, shown, type OpenTag } from './read-scan.js'

/** The one call shape every pack reader gives (`read-call.ts`). */
export type { ReadCall }

export type ReadBlockResult = { ok: true; calls: ReadCall[] } | { ok: false; reason: string }

/** A block spec's opener and closer strings, for the engine to capture between. */
export interface BlockDelimiters {
  /** The spec's index in `pack.blocks`. */
  block: number
  open: string[]
  /** The closer's alternatives (Apertus's is optional: its block may also end with the text). */
  close: string[]
}


/**
 * The literal opener and closer strings of each of `pack`'s block specs
 * (tags as `<name>` / `</name>` in the pack's spelling); null for a spec
 * this reader does not take: delimiters that are not a tag or literal
 * (JSON's end, a regex), an optional opener, a block anchored at the message
 * start, a pack framed by an envelope or read by the default grammar, and a
 * block that is its call's own tag (`<function=f>`: its opener is not literal).
 */
export function blockDelimiters(pack: DialectPack): Array<BlockDelimiters | null> {
  const sp = spellingOf(pack)
  return pack.blocks.map((b, block) => {
    if (pack.envelope !== undefined || pack.grammar === 'default' || b.anchored === true || b.layout === 'per-opener') return null
    if ((b.open.kind !== 'tag' && b.open.kind !== 'literal') || (b.close.kind !== 'tag' && b.close.kind !== 'literal')) return null
    if (b.open.kind === 'literal' && (b.open.optional === true || b.open.written === false)) return null
    if (b.call.open === undefined && (b.call.name.from === 'attribute' || b.call.name.from === 'tag-value')) return null
    return { block, open: spellings(b.open, 'open', sp), close: spellings(b.close, 'close', sp) }
  })
}

/**
 * Reads one block of `pack`, given as the exact text from its opener
 * through its closer. Each spec whose delimiters the text has is tried in
 * the pack's order; the first that reads it wins. Never throws.
 */
export function readBlock(pack: DialectPack, text: string): ReadBlockResult {
  try {
    const reasons: string[] = []
    const specs = blockDelimiters(pack)
    if (specs.every((d) => d === null)) return { ok: false, reason: `the ${pack.name} dialect has no block delimited by a literal or tag opener and closer` }
    for (const d of specs) {
      if (d === null || !d.open.some((o) => text.startsWith(o))) continue
      const block = pack.blocks[d.block]!
      try {
        return { ok: true, calls: readSpec(pack, block, d, text) }
      } catch (e) {
        if (!(e instanceof ReadError)) throw e
        reasons.push(`${block.name}: ${e.message}`)
      }
    }
    if (reasons.length === 0) return { ok: false, reason: `the text does not start with an opener of a block the ${pack.name} dialect delimits` }
    return { ok: false, reason: reasons.join('; ') }
  } catch (e) {
    // a last resort: the reader's own failures are ReadErrors, handled above
    return { ok: false, reason: `the block could not be read: ${e instanceof Error ? e.message : String(e)}` }
  }
}

function readSpec(pack: DialectPack, block: BlockSpec, d: BlockDelimiters, text: string): ReadCall[] {
  const sp = spellingOf(pack)
  const scan = new Scan(text, 0, text.length)
  let blockTag: OpenTag | null = null
  if (block.open.kind === 'tag') {
    blockTag = openTag(scan, sp, block.open.name)
    if (blockTag.attrs.size > 0 || blockTag.value !== undefined) fail(`the block's opener carries attributes the pack does not write`)
  } else scan.expect(d.open, "the block's opener")
  const close = d.close.filter((c) => text.length - c.length >= scan.at && text.endsWith(c)).sort((a, b) => b.length - a.length)[0]
  if (close !== undefined) scan.end = text.length - close.length
  else if (!(block.close.kind === 'literal' && block.close.optional === true)) fail(`the block does not end with its closer (${d.close.map((c) => JSON.stringify(c)).join(' or ')})`)
  const ends: number[] = []
  const calls: ReadCall[] = []
  const ctx = (n: number): CallContext => ({ pack, block, sp, where: `call ${n}`, blockTag: block.layout === 'call' ? blockTag : null })
  const one = () => {
    const c = readCall(scan, ctx(calls.length + 1))
    calls.push({ name: c.name, ...(c.id === undefined ? {} : { id: c.id }), ...(c.idProblem === undefined ? {} : { idProblem: c.idProblem }), params: c.params, body: c.body, end: 0 })
    ends.push(scan.at)
  }
  if (!scan.separator(block.padding.afterOpen)) fail(`expected ${JSON.stringify(block.padding.afterOpen)} after the opener, found ${shown(text, scan.at)}`)
  if (block.layout === 'call') one()
  else if (block.array === true) {
    scan.expect(['['], 'the list of calls')
    scan.blanks()
    if (scan.eatAny([']']) !== null) fail('the block holds no call')
    for (;;) {
      one()
      scan.blanks()
      if (scan.eatAny([']']) !== null) break
      scan.expect([','], `"," or "]" after call ${calls.length}`)
      scan.blanks()
    }
  } else {
    if (scan.done()) fail('the block holds no call')
    for (;;) {
      one()
      scan.blanks()
      if (scan.done()) break
      if (!scan.separator(block.separator.write)) fail(`expected ${JSON.stringify(block.separator.write)} between calls, found ${shown(text, scan.at)}`)
    }
  }
  if (!scan.separator(block.padding.beforeClose) || !scan.done()) fail(`unexpected text before the block's closer: ${shown(text, scan.at)}`)
  ends[ends.length - 1] = text.length
  return calls.map((c, i) => ({ ...c, end: ends[i]! }))
}
