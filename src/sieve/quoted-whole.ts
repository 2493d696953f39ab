/**
 * Reading the `quoted` texts of a dialect whose blocks are read whole
 * (`Grammar.blocks`): every literal opener in them, wherever it stands (a
 * code span, a fence, prose), is read to the first closer after it, within
 * the capture limit, by the dialect's own reader, and each call it gives is
 * recorded as a live call would be decoded. An opener with no closer in
 * reach is read to the text's end: a user's quote may leave it open, and a
 * model echoing it would close it. An opener of a block that ends with its
 * JSON is read to its value's end; so is every value that could open a
 * message as a block anchored there.
 */
import type { Grammar, JsonBlocks } from '../grammar/types.js'
import { initialScan, scanJson } from '../lexer/json-scan.js'
import { callInput, type WholeReader } from './calls.js'
import type { ReadOptions } from './quoted-reader.js'
import { QuotedCalls } from './quoted.js'

/**
 * The calls in `texts`, found by `reader` in `grammar`'s blocks. Each block
 * runs from an opener to the first closer after it, or (left open) to the
 * next opener or the text's end, within the capture limit: the pieces do
 * not overlap, so reading is linear in the texts' length.
 */
export function readQuotedWhole(texts: readonly string[], grammar: Grammar, reader: WholeReader, opts: ReadOptions, found = new QuotedCalls()): QuotedCalls {
  const blocks = grammar.blocks
  if (blocks === undefined) return found
  for (const text of texts) {
    const opens = blocks.open.length === 0 ? [] : occurrences(text, blocks.open)
    const closes = occurrences(text, blocks.close)
    let c = 0
    opens.forEach(([p, length], i) => {
      while (c < closes.length && closes[c]![0] < p + length) c++
      const next = i + 1 < opens.length ? opens[i + 1]![0] : text.length
      const closer = c < closes.length ? closes[c]![0] + closes[c]![1] : text.length
      const end = Math.min(closer <= next ? closer : next, p + opts.captureLimit, text.length)
      record(found, reader, text.slice(p, end), opts)
    })
    if (blocks.json !== undefined) for (const piece of jsonPieces(text, blocks.json, opts.captureLimit)) record(found, reader, piece, opts)
    if (blocks.json?.anchored !== undefined) for (const piece of anchoredPieces(text, blocks.json, opts.captureLimit)) record(found, reader, piece, opts)
  }
  return found
}

/**
 * Each block that ends with its JSON in `text`: from an opener to the end of
 * its value as the sieve's scanner finds it, scanned no further than the
 * next opener or the capture limit (the pieces do not overlap: linear).
 */
function jsonPieces(text: string, spec: JsonBlocks, limit: number): string[] {
  const opens = occurrences(text, spec.open)
  const out: string[] = []
  opens.forEach(([p, length], i) => {
    const bound = Math.min(i + 1 < opens.length ? opens[i + 1]![0] : text.length, p + limit)
    if (p + length > bound) return
    const st = initialScan()
    const r = scanJson(st, text.slice(p + length, bound), 0, spec)
    if (r.kind === 'end') out.push(text.slice(p, p + length + r.at))
  })
  return out
}

/**
 * Each value in `text` that could open a message as a block anchored there
 * (`JsonBlocks.anchored`): a user may quote one anywhere, and a model echoing
 * it would write it at its message's start. Read left to right, a value at a
 * time: after one that ends, from its end; after one that breaks, from the
 * break (a value inside a broken one is not looked for); one left open ends
 * the search. Each character is scanned once: linear.
 */
function anchoredPieces(text: string, spec: JsonBlocks, limit: number): string[] {
  const values = spec.anchored!.values
  const out: string[] = []
  let p = 0
  while (p < text.length) {
    const o = values.includes('object') ? text.indexOf('{', p) : -1
    const a = values.includes('array') ? text.indexOf('[', p) : -1
    const at = o < 0 ? a : a < 0 ? o : Math.min(o, a)
    if (at < 0) break
    const st = initialScan()
    // (scanned in place, offsets the text's: no copy per value)
    const r = scanJson(st, text, at, spec)
    if (r.kind === 'more') break
    if (r.kind === 'end' && r.at - at <= limit) out.push(text.slice(at, r.at))
    p = r.kind === 'text' ? at + 1 : Math.max(at + 1, r.at)
  }
  return out
}

/** Where each of `lits` occurs in `text` (start and length), in order of start; overlapping ones are all kept. */
function occurrences(text: string, lits: readonly string[]): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const lit of lits) for (let p = text.indexOf(lit); p >= 0; p = text.indexOf(lit, p + 1)) out.push([p, lit.length])
  return out.sort((a, b) => a[0] - b[0] || b[1] - a[1])
}

function record(found: QuotedCalls, reader: WholeReader, text: string, opts: ReadOptions): void {
  let r: ReturnType<WholeReader>
  try {
    r = reader(text)
  } catch {
    return
  }
  if (!r.ok) return
  for (const c of r.calls) {
    const { input } = callInput({ ok: true, name: c.name, params: c.params, body: c.body, problems: [] }, opts.tools?.get(c.name)?.schema ?? null)
    found.add(c.name, input)
  }
}
