/**
 * A block read whole (`Grammar.blocks`, a dialect pack's): the pack's reader
 * finds its calls, each with where its markup ends and the id it carries,
 * and the block's raw text is cut between them. The call-level checks
 * (tools, schemas, ids) are `calls.ts`'s, as for a block of tags.
 */
import type { ReadCall } from '../read/read-call.js'
import type { DecodedInvoke } from '../values/decode.js'
import type { DiagnosticEvent, Span } from '../types.js'

/** A call a dialect's reader found in a block read whole: the readers' one call shape. */
export type WholeCall = ReadCall

/**
 * A dialect's reader of one block read whole; never throws. `endsCalls`:
 * each call's markup says where it ends (a JSON object's brace, a call's own
 * closer), so a block the stream cut before its closer may still be read
 * (`unclosedWrapper`); without it, a cut block (GLM's pairs, which may go
 * on) is text. `pairs`: each literal opener's own closers — another
 * block's closer inside a block (a value holding `</longcat_tool_call>` in a
 * Hermes `<tool_call>`, a list's other pack's) is its text, not its end.
 * `diagnostics` on a refusal replace the default `malformed-block` (none:
 * the block was data, not a call gone wrong).
 */
export type WholeReader = ((text: string) => { ok: true; calls: WholeCall[] } | { ok: false; reason: string; diagnostics?: DiagnosticEvent[] }) & { endsCalls?: boolean; pairs?: ReadonlyMap<string, ReadonlySet<string>> }

/** A block read whole: its calls decoded, its raw text cut between them, and `ids`, the calls as the reader gave them (for their ids). */
export type WholeRead =
  | { ok: true; decoded: Array<Extract<DecodedInvoke, { ok: true }>>; spans: { raws: string[]; spans: Span[] }; ids: readonly WholeCall[] }
  | { ok: false; reason: string; diagnostics?: DiagnosticEvent[] }

/** The calls of `text`, a block read whole whose opener is at stream offset `start`, and where each one's markup ends. */
export function readWhole(reader: WholeReader, text: string, start: number): WholeRead {
  let r: ReturnType<WholeReader>
  try {
    r = reader(text)
  } catch (e) {
    // a pack's reader that throws reads nothing: the block is text, as any block that does not read
    return { ok: false, reason: `the dialect's reader failed: ${String((e as Error)?.message ?? e)}` }
  }
  if (!r.ok) return r
  if (r.calls.length === 0) return { ok: false, reason: 'the block holds no call' }
  const raws: string[] = []
  const spans: Span[] = []
  let from = 0
  r.calls.forEach((c, i) => {
    const end = i === r.calls.length - 1 ? text.length : Math.min(Math.max(c.end, from), text.length)
    raws.push(text.slice(from, end))
    spans.push({ start: start + from, end: start + end })
    from = end
  })
  const decoded = r.calls.map((c) => ({ ok: true as const, name: c.name, params: c.params, body: c.body, problems: [] }))
  return { ok: true, decoded, spans: { raws, spans }, ids: r.calls }
}
