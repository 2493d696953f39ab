/**
 * A captured block, complete: parse it once, decode its invokes, and split
 * its raw markup between the calls so that nothing is lost or duplicated.
 * Then the call-level checks: declared tool, schema coercion, validation,
 * and what `onInvalid` / `strict` make of a problem.
 */
import type { IToken } from 'chevrotain'
import { parseBlock, type ParsedInvoke } from '../parser/block-parser.js'
import { buildInput } from '../schema/input.js'
import type { ToolTable } from '../schema/tools.js'
import { decodeInvoke, type CallProblem, type ValueOptions } from '../values/decode.js'
import { isPlainObject } from '../values/own.js'
import type { DiagnosticEvent, Span, ToolCallEvent } from '../types.js'

/** Everything a block needs from the sieve's options, fixed when the sieve is created. */
export interface BlockOptions {
  values: ValueOptions
  newId: () => string
  /** Declared tools; null when the caller declared none (no name checks). */
  tools: ToolTable | null
  onInvalid: 'emit' | 'reject'
  strict: boolean
}

export type BlockOutcome =
  | { ok: true; calls: ToolCallEvent[] }
  /** Released as text; `diagnostics` replace the default `malformed-block` when given. */
  | { ok: false; reason: string; diagnostics?: DiagnosticEvent[] }

/** `start` is the stream offset of the first token. */
export function buildCalls(tokens: IToken[], start: number, opts: BlockOptions): BlockOutcome {
  const parsed = parseBlock(tokens)
  if (parsed === null) return { ok: false, reason: 'the markup does not form wrapper → invoke → parameter' }
  const decoded = []
  for (const inv of parsed.invokes) {
    const d = decodeInvoke(inv, opts.values)
    if (!d.ok) return { ok: false, reason: d.problem }
    if (opts.strict && silentEmpty(inv)) return { ok: false, reason: 'an invoke body with content gave no arguments (strict mode)' }
    decoded.push(d)
  }
  const spans = splitRaw(tokens, start, parsed.invokes)
  const calls: ToolCallEvent[] = []
  const problems: DiagnosticEvent[] = []
  decoded.forEach((d, i) => {
    const span = spans.spans[i]!
    const found: CallProblem[] = d.problems.slice()
    const tool = opts.tools === null ? null : opts.tools.get(d.name)
    if (tool === undefined) found.push({ code: 'unknown-tool', message: `the tool "${d.name}" is not among the declared tools` })
    let input = buildInput(d, tool?.schema ?? null)
    // a schema whose top level is not an object cannot turn the arguments into something else
    if (!isPlainObject(input)) input = buildInput(d, null)
    const failure = tool?.validate?.(input) ?? null
    if (failure !== null) found.push({ code: 'invalid-arguments', message: `arguments of "${d.name}" do not match its schema: ${failure.message}`, path: failure.path })
    const diagnostics = found.map((p) => diagnostic(p, span))
    problems.push(...diagnostics)
    const call: ToolCallEvent = { type: 'tool-call', id: opts.newId(), name: d.name, input, arguments: JSON.stringify(input), raw: spans.raws[i]!, span }
    if (diagnostics.length > 0) call.diagnostics = diagnostics
    calls.push(call)
  })
  if (problems.length > 0 && opts.onInvalid === 'reject') return { ok: false, reason: 'a call was invalid', diagnostics: problems }
  return { ok: true, calls }
}

function diagnostic(p: CallProblem, span: Span): DiagnosticEvent {
  const d: DiagnosticEvent = { type: 'diagnostic', code: p.code, message: p.message, span }
  if (p.path !== undefined) d.path = p.path
  return d
}

/** Strict mode: a body that held a comment but no parameter would pass as `{}` without a word. */
function silentEmpty(inv: ParsedInvoke): boolean {
  return inv.hasContent && inv.json === null && inv.params.length === 0
}

/**
 * Raw partition: call 1 runs from the block's first token through invoke 1's
 * closer; each later call from there through its own closer; the last also
 * takes the wrapper's closer.
 */
function splitRaw(tokens: IToken[], start: number, invokes: ParsedInvoke[]): { raws: string[]; spans: Span[] } {
  const closers = new Set<IToken>()
  for (const inv of invokes) closers.add(inv.close)
  let at = start
  let frags: string[] = []
  const raws: string[] = []
  const ends: number[] = []
  for (const t of tokens) {
    frags.push(t.image)
    at += t.image.length
    if (closers.has(t)) {
      raws.push(frags.join(''))
      ends.push(at)
      frags = []
    }
  }
  raws[raws.length - 1] += frags.join('')
  ends[ends.length - 1] = at
  let from = start
  const spans = ends.map((end) => {
    const span = { start: from, end }
    from = end
    return span
  })
  return { raws, spans }
}
