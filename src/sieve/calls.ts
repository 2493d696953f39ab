/**
 * A captured block, complete: parse it once, decode its invokes, and split
 * its raw markup between the calls so that nothing is lost or duplicated.
 * Then the call-level checks: declared tool, schema coercion, validation,
 * and what `onInvalid` / `strict` make of a problem.
 */
import type { IToken } from 'chevrotain'
import type { CompiledLexer } from '../lexer/lexer.js'
import { parseBlock, type ParsedInvoke } from '../parser/block-parser.js'
import { buildInput } from '../schema/input.js'
import type { ToolTable } from '../schema/tools.js'
import { decodeInvoke, type CallProblem, type DecodedInvoke, type ValueOptions } from '../values/decode.js'
import { writeJson, type Written } from '../values/json-write.js'
import { isPlainObject } from '../values/own.js'
import type { Validator } from '../schema/validate.js'
import { literalFrame } from '../lexer/tokens.js'
import { cat } from '../lexer/kinds.js'
import { tokenOf, unplaced } from '../lexer/token-instance.js'
import type { DiagnosticEvent, Span, ToolCallEvent } from '../types.js'
import { callId, madeId, modelCallId, type CallId } from './ids.js'
import { readWhole, type WholeCall, type WholeReader } from './read-whole.js'

export type { WholeCall, WholeReader } from './read-whole.js'

/** Everything a block needs from the sieve's options, fixed when the sieve is created. */
export interface BlockOptions {
  values: ValueOptions
  /** The `generateId` option as given: call it through {@link callId}, which survives one that throws. */
  newId: () => string
  /**
   * No `generateId` was given: a call whose markup carries the model's own
   * id ({@link WholeCall.id}) gets it, if it can be passed on and no other
   * call of the stream has it ({@link modelCallId}). With one, it makes
   * every id: the caller's scheme (deterministic ids, a prefix an API
   * wants) holds for every call.
   */
  modelIds: boolean
  /** Declared tools; null when the caller declared none (no name checks). */
  tools: ToolTable | null
  onInvalid: 'emit' | 'reject'
  strict: boolean
  /** Reads a block read whole (`Grammar.blocks`), from its opener through its closer: the dialect pack's reader. null: the grammar has none. */
  readWhole: WholeReader | null
}

/**
 * Inputs nested deeper than this are not handed to the validator: it
 * recurses per level (a recursive schema overflows the stack near a few
 * thousand), and a depth limit gives the same answer at any stack depth.
 * Such a call gets `invalid-arguments`.
 */
export const maxValidatedDepth = 256

export type BlockOutcome =
  /** `modelIds`: the ids the calls took from their markup, for the stream to remember once they go out; absent when none did. */
  | { ok: true; calls: ToolCallEvent[]; modelIds?: string[] }
  /** Released as text; `diagnostics` replace the default `malformed-block` when given. */
  | { ok: false; reason: string; diagnostics?: DiagnosticEvent[] }

/**
 * A decoded invoke's input for a tool's schema (null: none), and its
 * `arguments` text. One pass gives `arguments` the digits as written and
 * leaves `input` with plain doubles, for the validator too.
 */
export function callInput(d: Extract<DecodedInvoke, { ok: true }>, schema: Record<string, unknown> | null): { input: Record<string, unknown>; written: Written } {
  let input = buildInput(d, schema)
  // a schema whose top level is not an object cannot turn the arguments into something else
  if (!isPlainObject(input)) input = buildInput(d, null)
  // keys in document order: a parameter named `1` stays where it was written (what was streamed of the call)
  const order = d.params === null ? undefined : d.params.map(([key]) => key)
  return { input, written: writeJson(input, { settle: true, order }) }
}

/** An invoke the call stream (`streamArguments`) decoded when it closed, by {@link callInput} as a block's calls are. */
export interface SettledInvoke {
  /** The stream offset just past its closer: the block's invoke that begins where it did is this one only if it ends here too. */
  end: number
  /** Its opener's and closer's indexes among the capture's tokens. */
  first: number
  last: number
  /** Its tokens as the block grammar parsed them (alone: an invoke's parse does not depend on what stands around it). */
  invoke: ParsedInvoke
  decoded: Extract<DecodedInvoke, { ok: true }>
  input: Record<string, unknown>
  written: Written
}

/** What the call stream knows of a block's calls already. */
export interface KnownCalls {
  /** `ids[i]`: the id call `i` has had since it was streamed from its start. */
  ids: ReadonlyArray<CallId | undefined>
  /**
   * The invokes decoded already, by the stream offset of their opener (the
   * lexer's tokens are shared, so not by token): a block of one large invoke
   * is not decoded twice.
   */
  settled: ReadonlyMap<number, SettledInvoke>
}

/**
 * `tokens` are `lexer`'s, `text` their images joined; `start` is the stream
 * offset of the first token. `given`: the model ids the stream's calls
 * have so far (`DriverState.modelIds`), which no call of this block gets again.
 */
export function buildCalls(lexer: CompiledLexer, tokens: IToken[], text: string, start: number, opts: BlockOptions, known?: KnownCalls, given?: readonly string[]): BlockOutcome {
  const read: Read = opts.readWhole !== null && lexer.infoByIdx[tokens[0]!.tokenTypeIdx]?.frame === literalFrame ? readWhole(opts.readWhole, text, start) : readTags(lexer, tokens, text, start, opts, known)
  if (!read.ok) return read
  const { decoded, spans } = read
  const calls: ToolCallEvent[] = []
  const problems: DiagnosticEvent[] = []
  for (let i = 0; i < decoded.length; i++) {
    const d = decoded[i]!
    const span = spans.spans[i]!
    const found: CallProblem[] = d.problems.length === 0 ? [] : d.problems.slice()
    const tool = opts.tools === null ? null : opts.tools.get(d.name)
    if (tool === undefined) found.push({ code: 'unknown-tool', message: `the tool "${d.name}" is not among the declared tools` })
    const { input, written } = read.settled?.[i] ?? callInput(d, tool?.schema ?? null)
    const failure = tool?.validate ? checkArguments(d.name, tool.validate, input, written.depth) : null
    if (failure !== null) found.push(failure)
    const call: ToolCallEvent = { type: 'tool-call', id: '', name: d.name, input, arguments: written.json, raw: spans.raws[i]!, span }
    if (found.length > 0) {
      const diagnostics = found.map((p) => diagnostic(p, span))
      for (const e of diagnostics) problems.push(e)
      call.diagnostics = diagnostics
    }
    calls.push(call)
  }
  if (problems.length > 0 && opts.onInvalid === 'reject') return { ok: false, reason: 'a call was invalid', diagnostics: problems }
  // ids only for calls that go out: a rejected block uses none of a deterministic generator's
  const own = opts.modelIds ? read.ids : undefined
  let took: Set<string> | undefined
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!
    const model = own?.[i]
    // a call streamed since its start has had its id from then on (calls of tags: their markup carries none)
    let got = known?.ids[i]
    if (got === undefined && model?.id !== undefined) {
      got = modelCallId(model.id, given, (took ??= new Set()))
      if (got.problem === null) took.add(model.id)
    }
    // an id the markup carries that is no id (`"id": 123`): the call is good, its id made
    if (got === undefined && model?.idProblem !== undefined) got = madeId(model.idProblem)
    const { id, problem } = got ?? callId(opts.newId)
    call.id = id
    if (problem !== null) (call.diagnostics ??= []).push(diagnostic({ code: 'invalid-call-id', message: problem }, call.span))
  }
  return took === undefined || took.size === 0 ? { ok: true, calls } : { ok: true, calls, modelIds: [...took] }
}

type Read =
  /** `ids`: each call's id as its markup carries it, or why that is no id (a block read whole: {@link WholeCall}); absent for a block of tags, whose markup carries none. */
  | { ok: true; decoded: Array<Extract<DecodedInvoke, { ok: true }>>; spans: { raws: string[]; spans: Span[] }; settled?: Array<SettledInvoke | undefined>; ids?: ReadonlyArray<Pick<WholeCall, 'id' | 'idProblem'>> }
  | { ok: false; reason: string; diagnostics?: DiagnosticEvent[] }

/** A block of tags: parsed by the block grammar, its invokes decoded (or taken as the call stream decoded them), its raw text cut at their closers. */
function readTags(lexer: CompiledLexer, tokens: IToken[], text: string, start: number, opts: BlockOptions, known: KnownCalls | undefined): Read {
  const given = known === undefined || known.settled.size === 0 ? null : settledIn(tokens, start, known.settled)
  const parsed = parseBlock(lexer, given === null ? tokens : given.tokens)
  if (parsed === null) return { ok: false, reason: 'the markup does not form wrapper → invoke → parameter' }
  const decoded = []
  const settled: Array<SettledInvoke | undefined> = []
  for (let k = 0; k < parsed.invokes.length; k++) {
    const s = given?.byOpen.get(parsed.invokes[k]!.open)
    const inv = s?.invoke ?? parsed.invokes[k]!
    const d = s?.decoded ?? decodeInvoke(inv, opts.values)
    if (!d.ok) return { ok: false, reason: d.problem }
    if (opts.strict && silentEmpty(inv)) return { ok: false, reason: 'an invoke body with content gave no arguments (strict mode)' }
    decoded.push(d)
    settled.push(s)
  }
  return { ok: true, decoded, spans: splitRaw(tokens, text, start, parsed.invokes), settled }
}

/** An empty tag end: the whole of a settled invoke's opening tag in the tokens the block grammar is given. */
const emptyTagEnd = tokenOf(cat.TagEnd, '', unplaced)

/**
 * The block's tokens for its parse, each invoke the call stream settled
 * (it begins and ends at the stream offsets and token indexes it did then)
 * stood in for by its opener, an empty tag end and its closer: its tokens
 * formed an invoke when it closed, and the block needs no second parse of
 * them (one invoke of 40,000 parameters is 400,000 tokens). By the
 * stand-in's opener: the settled invoke it is.
 */
function settledIn(tokens: IToken[], start: number, known: ReadonlyMap<number, SettledInvoke>): { tokens: IToken[]; byOpen: Map<IToken, SettledInvoke> } | null {
  const byOpen = new Map<IToken, SettledInvoke>()
  const out: IToken[] = []
  let at = start
  let from = 0
  for (let i = 0; i < tokens.length; i++) {
    const s = known.get(at)
    at += tokens[i]!.image.length
    if (s === undefined || s.first !== i || s.last >= tokens.length) continue
    let end = at
    for (let k = i + 1; k <= s.last; k++) end += tokens[k]!.image.length
    if (end !== s.end) continue
    for (let k = from; k < i; k++) out.push(tokens[k]!)
    // a copy of the opener: the lexer's tokens are shared, so another invoke's opener may be the same object
    const open = tokens[i]!
    const stand = tokenOf(open.tokenType, open.image, open.startOffset)
    out.push(stand, emptyTagEnd, tokens[s.last]!)
    byOpen.set(stand, s)
    at = end
    from = s.last + 1
    i = s.last
  }
  if (byOpen.size === 0) return null
  for (let k = from; k < tokens.length; k++) out.push(tokens[k]!)
  return { tokens: out, byOpen }
}

function checkArguments(name: string, validate: Validator, input: Record<string, unknown>, depth: number): CallProblem | null {
  if (depth > maxValidatedDepth) {
    return { code: 'invalid-arguments', message: `arguments of "${name}" are nested ${depth} levels deep; they are checked against a schema up to ${maxValidatedDepth}`, path: '' }
  }
  let failure
  try {
    failure = validate(input)
  } catch (e) {
    // a schema that recurses without consuming the input (`{ anyOf: [{ $ref: '#' }] }`) overflows on any input
    return { code: 'invalid-arguments', message: `arguments of "${name}" could not be checked against its schema: ${String((e as Error)?.message ?? e)}`, path: '' }
  }
  return failure === null ? null : { code: 'invalid-arguments', message: `arguments of "${name}" do not match its schema: ${failure.message}`, path: failure.path }
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
 * takes the wrapper's closer. The block's text (`whole`) is cut at the closers.
 */
function splitRaw(tokens: IToken[], whole: string, start: number, invokes: ParsedInvoke[]): { raws: string[]; spans: Span[] } {
  if (invokes.length === 1) return { raws: [whole], spans: [{ start, end: start + whole.length }] }
  // the invokes' closers come in token order: one pass, matching the next closer by identity
  const cuts: number[] = []
  let next = 0
  let at = 0
  for (let i = 0; i < tokens.length && next < invokes.length; i++) {
    const t = tokens[i]!
    at += t.image.length
    if (t === invokes[next]!.close) {
      cuts.push(at)
      next++
    }
  }
  cuts[cuts.length - 1] = whole.length
  const raws: string[] = []
  const spans: Span[] = []
  let from = 0
  for (const end of cuts) {
    raws.push(whole.slice(from, end))
    spans.push({ start: start + from, end: start + end })
    from = end
  }
  return { raws, spans }
}

/** Each literal opener's closers, from `delimiters` (a pack's or a list's blocks, by spec). */
export function closerPairs(delimiters: ReadonlyArray<{ open: readonly string[]; close: readonly string[] } | null>): Map<string, Set<string>> {
  const pairs = new Map<string, Set<string>>()
  for (const d of delimiters) {
    if (d === null) continue
    for (const o of d.open) {
      const set = pairs.get(o) ?? new Set<string>()
      for (const c of d.close) set.add(c)
      pairs.set(o, set)
    }
  }
  return pairs
}
