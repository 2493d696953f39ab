/**
 * A captured block, complete: parse it once, decode its invokes, and split
 * its raw markup between the calls so that nothing is lost or duplicated.
 */
import type { IToken } from 'chevrotain'
import { parseBlock } from '../parser/block-parser.js'
import { decodeInvoke } from '../values/decode.js'
import type { ToolCallEvent } from '../types.js'

export type BlockOutcome =
  | { ok: true; calls: ToolCallEvent[] }
  | { ok: false; reason: string }

/** `start` is the stream offset of the first token. */
export function buildCalls(tokens: IToken[], start: number, nameAttr: string, newId: () => string): BlockOutcome {
  const parsed = parseBlock(tokens)
  if (parsed === null) return { ok: false, reason: 'the markup does not form wrapper → invoke → parameter' }
  const decoded = []
  for (const inv of parsed.invokes) {
    const d = decodeInvoke(inv, nameAttr)
    if (!d.ok) return { ok: false, reason: d.problem }
    decoded.push(d)
  }
  // end offset of each invoke's closing tag, found in one pass over the tokens
  const closeEnds = new Map<IToken, number>()
  for (const inv of parsed.invokes) closeEnds.set(inv.close, -1)
  let at = start
  let frags: string[] = []
  const pieces: string[] = []
  const ends: number[] = []
  for (const t of tokens) {
    frags.push(t.image)
    at += t.image.length
    if (closeEnds.has(t)) {
      pieces.push(frags.join(''))
      ends.push(at)
      frags = []
    }
  }
  // whatever follows the last invoke (the wrapper's closer) belongs to the last call
  pieces[pieces.length - 1] += frags.join('')
  ends[ends.length - 1] = at
  let from = start
  const calls = decoded.map((d, i): ToolCallEvent => {
    const span = { start: from, end: ends[i]! }
    from = span.end
    return { type: 'tool-call', id: newId(), name: d.name, input: d.input, arguments: JSON.stringify(d.input), raw: pieces[i]!, span }
  })
  return { ok: true, calls }
}
