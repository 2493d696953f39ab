/**
 * One choice of a chat completion stream, turned into the deltas to send:
 * its content through a sieve, its native calls (and a legacy
 * `function_call`) kept apart from the rescued ones, its finish rewritten.
 * One per `choice.index`, since each choice is its own answer.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import {
  abortedCallError,
  abortedText,
  createActionSieve,
  index,
  NativeConflictGate,
  optionalArray,
  optionalRecord,
  optionalString,
  record,
  type Barrier,
  type Passed,
  type ActionSieve,
  type AdapterAction,
  type ResolvedAdapterOptions,
} from '../adapters/index.js'
import { legacyCallId } from './ids.js'

type Choice = ChatCompletionChunk.Choice
type Delta = ChatCompletionChunk.Choice.Delta
type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall
type FunctionDelta = ChatCompletionChunk.Choice.Delta.ToolCall.Function
type LegacyDelta = ChatCompletionChunk.Choice.Delta.FunctionCall

/** A delta as this adapter writes it: the SDK's, plus DeepSeek's `reasoning_content`. */
export type SievedDelta = Delta & { reasoning_content?: string | null }

/** One output delta of a choice, with the finish reason it carries (only the turn's last does). */
export interface Piece {
  delta: SievedDelta
  finish_reason?: Choice['finish_reason']
  /** The upstream choice's other fields (`logprobs`, extensions): on the first piece made from it. */
  extra?: Record<string, unknown>
  /** The start of a rescued call: counted as it goes out (a rescued call's id may equal a native one's, so ids cannot count them). */
  rescued?: true
  /** Not a delta: this choice reached the mark of an item passed through unread (see `Lanes`). */
  barrier?: Wait
}

/**
 * What passes through a chat stream unread and waits for the text every
 * open choice held when it came: a chunk of a shape the adapter does not
 * read (sieveFetch's), a chunk with no choices (usage), each to go out as it
 * came.
 */
export type Waiting = Passed | ChatCompletionChunk

/** Such an item, waiting for the choices (`Lanes`). */
export type Wait = Barrier<Waiting>

/** Whether a delta carries something the model wrote: a field other than its role (said once, before the text) that is not null or empty. */
const says = (lead: Record<string, unknown>): boolean => Object.entries(lead).some(([k, v]) => k !== 'role' && v !== null && v !== undefined && v !== '')

type FinishReason = Choice['finish_reason']

/** Finish reasons that say the answer ended as the model meant: a turn with calls ends in `tool_calls` instead. `length` and `content_filter` say more than that and stay. */
const callsFinish = new Set<FinishReason | undefined>([null, undefined, 'stop', 'tool_calls', 'function_call'])

/** `delta.tool_calls`: absent, or a list of objects each with its `index` (the adapter maps it); the rest of each passes through. */
function nativeToolCalls(calls: unknown, at: string): ToolCallDelta[] | undefined {
  const list = optionalArray(calls, at)
  list?.forEach((call, i) => index(record(call, `${at}[${i}]`).index, `${at}[${i}].index`))
  return list as ToolCallDelta[] | undefined
}

/** `delta.function_call`: absent, or an object whose `name` and `arguments` (copied into a tool call) are strings when there. */
function legacyFunctionCall(call: unknown, at: string): LegacyDelta | undefined {
  const legacy = optionalRecord(call, at)
  if (legacy === undefined) return undefined
  optionalString(legacy.name, `${at}.name`)
  optionalString(legacy.arguments, `${at}.arguments`)
  return legacy as LegacyDelta
}

export class ChoiceTurn {
  private readonly sieve: ActionSieve
  private readonly gate: NativeConflictGate
  /**
   * Output tool-call indexes, given in the order calls first appear,
   * native or rescued: the two kinds never share an index, and the indexes
   * stay dense (the SDK's accumulator stores calls by index).
   */
  private nextIndex = 0
  /** Upstream's native index → ours. */
  private readonly natives = new Map<number, number>()
  /** A rescued call's index in the sieve's actions → ours. */
  private readonly rescued = new Map<number, number>()
  /** The legacy `function_call`, as a tool call: its index and id (the legacy shape has neither). */
  private legacy: { index: number; id: string } | undefined
  /** A tool call went out in this turn, native or rescued: the finish says `tool_calls`. */
  private sentCalls = false
  /** The turn got its finish reason (or the stream broke off): its sieve is over, and what comes for it after goes out raw ({@link late}). */
  finished = false
  /**
   * What waits for the text the sieve held when it came, one per mark of the
   * sieve, in order: pieces upstream sent that are not sieved (a refusal,
   * reasoning of its own, native calls), which would otherwise go out ahead
   * of `hello <｜DSML｜too` held as a possible tag start; chunks passed unread.
   */
  private readonly waiting: Array<Piece | Wait> = []

  constructor(private readonly resolved: ResolvedAdapterOptions) {
    this.sieve = createActionSieve(resolved, { oneText: true })
    this.gate = new NativeConflictGate(resolved.onConflict)
  }

  /**
   * The pieces for one upstream choice, in order: its other delta fields
   * (role, refusal, upstream reasoning), the cleaned content and rescued
   * calls, native calls, then (at its finish) what the sieve still held and
   * the finish reason.
   *
   * @throws {ToolsieveError} `native-conflict`, `call-aborted`; `invalid-chunk`
   *   for a field of the wrong shape.
   */
  take(choice: Choice, at: string): Piece[] {
    const { delta, finish_reason: finish, index: _index, ...extra } = choice
    const read = optionalRecord(delta, `${at}.delta`)
    const { content, tool_calls: nativeCalls, function_call: legacyCall, ...lead } = (read ?? {}) as SievedDelta
    const text = optionalString(content, `${at}.delta.content`)
    const calls = nativeToolCalls(nativeCalls, `${at}.delta.tool_calls`)
    const legacy = legacyFunctionCall(legacyCall, `${at}.delta.function_call`)
    optionalString(finish, `${at}.finish_reason`)
    if (this.finished) return [this.late(read, lead, text, calls, legacy, finish, extra)]
    const pieces: Piece[] = []
    if (says(lead)) this.after({ delta: lead }, pieces)
    else if (Object.keys(lead).length > 0) pieces.push({ delta: lead })
    this.actions(this.sieve.push(text), pieces)
    // counted and checked against the rescued calls now: only their writing waits
    const natives = this.nativeDeltas(calls, legacy)
    if (natives.length > 0) this.after({ delta: { tool_calls: natives } }, pieces)
    if (finish !== null && finish !== undefined) this.finish(finish, pieces)
    if (Object.keys(extra).length > 0) {
      // on the first piece of this choice's own (not a barrier: that is another chunk, which goes out as it came)
      const own = pieces.find((p) => p.barrier === undefined)
      if (own !== undefined) own.extra = extra
      else pieces.push({ delta: {}, extra })
    }
    return pieces
  }

  /**
   * A chunk for this choice after its finish (upstream kept sending): one
   * piece, in this choice's place among what went out. Its content and
   * reasoning go out raw, never read for calls (the sieve is over and the
   * finish went out; markup there is text, as Anthropic's late deltas and a
   * Responses part's text after its cut are), so no character upstream sent
   * is lost. A native call or a legacy `function_call` there is read as one
   * before the finish is: an index apart from the rescued ones, and the
   * conflict check (`native-conflict` under `'error'` once a rescued call
   * went out), as a native block or item after the end is in the other
   * adapters. A repeated finish goes out as the one the turn gave.
   *
   * ```
   * {content:"Hello"} {finish:"stop"} {content:" world <tool_call>…"}
   *                                   ^ " world <tool_call>…" goes out as content, as it came
   * ```
   *
   * @throws {ToolsieveError} `native-conflict` (see above).
   */
  private late(read: Record<string, unknown> | undefined, lead: Record<string, unknown>, text: string | undefined, calls: ToolCallDelta[] | undefined, legacy: LegacyDelta | undefined, finish: FinishReason | undefined, extra: Record<string, unknown>): Piece {
    const natives = this.nativeDeltas(calls, legacy)
    // the delta as it came, but native calls at our indexes and a legacy function_call as a tool call
    const delta: SievedDelta = { ...lead }
    if (read !== undefined && 'content' in read) delta.content = text ?? null
    if (natives.length > 0) delta.tool_calls = natives
    else if (calls !== undefined) delta.tool_calls = calls
    return { delta, ...(finish != null ? { finish_reason: this.reason(finish) } : {}), extra }
  }

  /** An item passed through unread: where this choice reached its mark (now, or in the pieces of a later push). */
  behind(wait: Wait): Piece[] {
    const pieces: Piece[] = []
    this.after(wait, pieces)
    return pieces
  }

  /** The stream ended before this choice finished: flush it. The finish is `tool_calls` when calls went out, else none. */
  end(): Piece[] {
    const pieces: Piece[] = []
    this.finish(null, pieces)
    return pieces
  }

  /**
   * The stream broke off before this choice finished: what the sieve held,
   * as content and reasoning (never a call, and no finish: the stream fails
   * next), after the markup of the calls `prefer-native` held (`NativeConflictGate.abandon`).
   * A rescued call already streamed is left to that failure.
   */
  abort(): Piece[] {
    this.finished = true
    const pieces: Piece[] = []
    this.write([...this.gate.abandon(), ...abortedText(this.sieve.abort())], pieces)
    return pieces
  }

  private finish(reason: FinishReason, pieces: Piece[]): void {
    this.finished = true
    this.actions(this.sieve.end(), pieces)
    this.write(this.gate.finish(), pieces)
    const finish_reason = this.reason(reason)
    // a stream that ended without a finish gets one only when calls went out (they are what the consumer acts on)
    if (finish_reason !== null) pieces.push({ delta: {}, finish_reason })
  }

  /**
   * The finish this turn gives for upstream's: `tool_calls` once calls went
   * out. A gateway that repeats the finish with the usage after it would
   * otherwise turn the consumer's `tool_calls` back into `stop`.
   */
  private reason(upstream: FinishReason): FinishReason {
    return this.sentCalls && callsFinish.has(upstream) ? 'tool_calls' : upstream
  }

  /** `item` goes out after the text pushed so far: at the sieve's mark for it. */
  private after(item: Piece | Wait, pieces: Piece[]): void {
    this.waiting.push(item)
    this.actions(this.sieve.mark(), pieces)
  }

  private actions(actions: AdapterAction[], pieces: Piece[]): void {
    this.write(this.gate.pass(actions), pieces)
  }

  private write(actions: AdapterAction[], pieces: Piece[]): void {
    for (const a of actions) {
      switch (a.type) {
        case 'text':
          pieces.push({ delta: { content: a.text } })
          break
        case 'reasoning':
          pieces.push({ delta: { reasoning_content: a.text } })
          break
        case 'call-start': {
          const index = this.nextIndex++
          this.rescued.set(a.index, index)
          this.sentCalls = true
          pieces.push({ delta: { tool_calls: [{ index, id: a.id, type: 'function', function: { name: a.name, arguments: '' } }] }, rescued: true })
          break
        }
        case 'call-delta':
          pieces.push({ delta: { tool_calls: [{ index: this.rescued.get(a.index)!, function: { arguments: a.delta } }] } })
          break
        case 'call-abort':
          throw abortedCallError(a)
        case 'mark': {
          const item = this.waiting.shift()!
          if (!('left' in item)) pieces.push(item)
          else pieces.push({ delta: {}, barrier: item })
          break
        }
        case 'call-end':
        case 'reasoning-start':
        case 'reasoning-end':
          break
      }
    }
  }

  /** Native tool-call deltas with our indexes; a legacy `function_call` as one more tool call. */
  private nativeDeltas(calls: ToolCallDelta[] | undefined, legacy: LegacyDelta | undefined): ToolCallDelta[] {
    const out: ToolCallDelta[] = []
    for (const call of calls ?? []) {
      this.gate.sawNative()
      this.sentCalls = true
      let index = this.natives.get(call.index)
      if (index === undefined) this.natives.set(call.index, (index = this.nextIndex++))
      out.push({ ...call, index })
    }
    if (legacy !== undefined) {
      this.gate.sawNative()
      this.sentCalls = true
      const fn: FunctionDelta = {}
      if (legacy.name !== undefined) fn.name = legacy.name
      if (legacy.arguments !== undefined) fn.arguments = legacy.arguments
      if (this.legacy === undefined) {
        this.legacy = { index: this.nextIndex++, id: legacyCallId(this.resolved) }
        out.push({ index: this.legacy.index, id: this.legacy.id, type: 'function', function: { arguments: '', ...fn } })
      } else out.push({ index: this.legacy.index, function: fn })
    }
    return out
  }
}
