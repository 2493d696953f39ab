/**
 * `streamArguments`: calls streamed while their block is still being
 * captured. After each push the capture's new tokens are read once, in
 * order; each invoke becomes a record whose `sent` grows with its
 * `arguments` text as far as it is known for certain:
 *
 *     <invoke name="w">  <parameter name="path" string="true">a.txt</parameter>  <parameter name="n">3</parameter>  </invoke>
 *     ^ `{`              ^ `"path":"`                          ^^^^^ `a.txt`   ^ `"`  then `,"n":3` at its closer  ^ `}`
 *
 * A `string` value the schema keeps a string streams as it arrives; any
 * other value is decoded whole at its closer, by the same decoder and
 * coercion the block's calls get, and each closed invoke is decoded whole
 * too. Whatever was sent must begin the final `arguments`: a call whose
 * final text does not continue it (a parameter given twice) fails its whole
 * block. Nothing here decides a block's fate; the capture's outcome does,
 * and tells this stream (`complete`, `abort`).
 */
import type { IToken } from 'chevrotain'
import { categoryOf, tokenOf, unplaced } from '../lexer/token-instance.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { readTagHead } from '../parser/tag-attributes.js'
import { objectOf } from '../schema/coerce.js'
import { allows, branchesOf, declaredTypes, enumOf, propertySchema, resolve } from '../schema/keywords.js'
import type { DiagnosticCode, DiagnosticEvent, ToolCallEvent } from '../types.js'
import { ambiguousTag, paramKey } from '../values/decode.js'
import { writeJson } from '../values/json-write.js'
import { callInput, type KnownCalls, type SettledInvoke } from './calls.js'
import type { Emitter } from './emitter.js'
import { callId } from './ids.js'
import type { Capture, DriverOptions, DriverState } from './state.js'
import { codeAt } from '../lexer/codes.js'
import { initialCallStream, type CallStreamState, type StreamedCall } from './call-stream-state.js'
import { exact, readInvoke } from './invoke-read.js'
import { grown, type Growth } from './grown.js'

/** A call that has nothing more to send: stalled (nothing is added to it any more), its rest sent, started unless it never may. */
const done = (c: StreamedCall): boolean => c.stalled && c.pending === '' && (c.id !== null || c.name === null)

/** JSON string content of `s` (no quotes): pieces written one after another are the string written whole. */
const escaped = (s: string): string => JSON.stringify(s).slice(1, -1)

export class CallStream {
  /** Empty closers that make an invoke read so far a block the parser takes; after a closed invoke, the wrapper's alone. */
  private readonly close: IToken[]
  private readonly closeWrapper: IToken[]
  /** Each call's keys as a set (see `addKey`). */
  private readonly keySets = new WeakMap<StreamedCall, Set<string>>()
  /** Each call's `sent` as it grows (see `grown`). */
  private readonly growth = new WeakMap<StreamedCall, Growth>()
  /**
   * Calls of `sendState` before this index have nothing more to send: a
   * block of thousands of invokes pushed in token-sized chunks asked every
   * call of it at every push. Kept beside the state, not in it (a restored
   * checkpoint starts again from 0, once).
   */
  private sendFrom = 0
  private sendState: CallStreamState | null = null
  /**
   * The current capture's closed invokes as they were decoded, by their
   * opener's stream offset, for the block's reading (`known`); the open
   * invoke's opener's offset, or -1. Beside the state, not in it: a block
   * resumed from a checkpoint decodes the invokes read before it again.
   */
  private readonly settled = new Map<number, SettledInvoke>()
  private openAt = -1

  /** `host.s.calls` is where the stream stands: the driver state, so that a checkpoint carries it. */
  constructor(
    private readonly lexer: CompiledLexer,
    private readonly opts: DriverOptions,
    private readonly out: Emitter,
    private readonly host: { s: DriverState },
  ) {
    host.s.calls ??= initialCallStream()
    const type = (name: string) => lexer.typeByName.get(name)!
    this.close = [tokenOf(type('InvokeClose'), '', unplaced), tokenOf(type('WrapperClose'), '', unplaced)]
    this.closeWrapper = this.close.slice(1)
  }

  private get st(): CallStreamState {
    return this.host.s.calls!
  }

  private set st(st: CallStreamState) {
    this.host.s.calls = st
  }

  /** Reads the capture's new tokens and sends what became certain; `live`: the block is known to be a block. */
  observe(cap: Capture, live: boolean): void {
    this.catchUp(cap.start, cap.tokens)
    const st = this.st
    if (!live || (st.quoted !== null && st.quoted.length > 0)) return
    if (this.sendState !== st) {
      this.sendState = st
      this.sendFrom = 0
    }
    const calls = st.calls
    for (let i = this.sendFrom; i < calls.length; i++) this.send(calls[i]!)
    // a call whose invoke closed (or that stalled) and sent its all gets nothing more, and the calls before it neither
    while (this.sendFrom < calls.length && done(calls[this.sendFrom]!)) this.sendFrom++
  }

  /** Reads the tokens of the capture at `start` not read yet. */
  private catchUp(start: number, tokens: readonly IToken[]): void {
    if (this.st.capture !== start) this.reset(start)
    const st = this.st
    // the stream cut the block and only its complete invokes, all read, are given
    if (st.seen > tokens.length) st.seen = tokens.length
    for (; st.seen < tokens.length; st.seen++) {
      const t = tokens[st.seen]!
      this.read(tokens, st.seen)
      st.at += t.image.length
      if (categoryOf(this.lexer, t) === 'InvokeClose') st.callStart = st.at
    }
  }

  /**
   * The block became `calls` (its first invokes, when the stream cut it):
   * each is started if it was not and sent the rest of its `arguments`.
   * Returns false, having aborted every started call, when one's final text
   * does not continue what was sent: the block must go out as text.
   */
  complete(start: number, tokens: readonly IToken[], calls: ToolCallEvent[]): boolean {
    // the whole block read as a stream would read it: the verdict is the same however it was chunked
    this.catchUp(start, tokens)
    const st = this.st
    for (let i = 0; i < st.calls.length && i < calls.length; i++) {
      const c = st.calls[i]!
      if (c.changed || (c.id !== null && !calls[i]!.arguments.startsWith(c.sent))) {
        this.finish('streamed-arguments-changed')
        return false
      }
    }
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!
      const c = st.calls[i]
      if (c === undefined || c.id === null) {
        this.out.event({ type: 'tool-call-start', id: call.id, name: call.name, index: st.next++, span: { start: call.span.start } })
        if (call.arguments !== '') this.out.event({ type: 'tool-call-delta', id: call.id, delta: call.arguments })
      } else if (call.arguments.length > c.sent.length) {
        this.out.event({ type: 'tool-call-delta', id: call.id, delta: call.arguments.slice(c.sent.length) })
      }
    }
    return true
  }

  /**
   * The capture's tokens from `index` on were replaced, the first of them
   * at stream offset `at` (an unclosed CDATA cut at its parameter's closer
   * when the stream ended): what was read of the old ones is read again
   * from the new. Those tokens are a plain value's, never streamed as they
   * came (only a `string` value is, and CDATA is not markup there), so
   * nothing sent is taken back.
   */
  rewind(index: number, at: number): void {
    const st = this.st
    if (st.seen <= index) return
    st.seen = index
    st.at = at
  }

  /**
   * The block at `start` ends as `tokens`: read to their end, what the
   * stream knows of its calls for `buildCalls` — the ids the started calls
   * have, and the invokes decoded already.
   */
  known(start: number, tokens: readonly IToken[]): KnownCalls {
    this.catchUp(start, tokens)
    return { ids: this.st.calls.map((c) => (c.id === null ? undefined : { id: c.id, problem: c.idProblem })), settled: this.settled }
  }

  /**
   * The capture is over: every started call from `from` on (all, unless the
   * first calls of a cut block became calls) ends with `code`, or with the
   * code of its own problem among `problems` (a block `onInvalid: 'reject'` refused).
   */
  finish(code: DiagnosticCode, from = 0, problems?: readonly DiagnosticEvent[]): void {
    const calls = this.st.calls
    for (let i = from; i < calls.length; i++) {
      const c = calls[i]!
      if (c.id === null) continue
      const own = problems?.find((p) => p.span.start === c.start)
      this.out.event({ type: 'tool-call-abort', id: c.id, code: own?.code ?? code })
    }
    this.reset(-1)
  }

  private reset(capture: number): void {
    this.settled.clear()
    this.openAt = -1
    const next = this.st.next
    this.st = { ...initialCallStream(), next, capture, at: capture, callStart: capture, quoted: this.opts.quoted === null ? null : [] }
  }

  private read(tokens: readonly IToken[], i: number): void {
    const st = this.st
    const t = tokens[i]!
    const category = categoryOf(this.lexer, t)
    if (category === 'InvokeOpen') {
      st.invokeAt = i
      st.invokeBody = -1
      this.openAt = st.at
    } else if (category === 'ParamOpen') {
      st.paramAt = i
      st.paramBody = -1
      st.live = false
    } else if (category === 'TagEnd') {
      if (st.invokeAt >= 0 && st.invokeBody < 0) this.invokeTag(tokens, i)
      else if (st.paramAt >= 0 && st.paramBody < 0) this.paramTag(tokens, i)
    } else if (category === 'ParamClose') {
      this.paramEnd(tokens, i)
    } else if (category === 'InvokeClose') {
      this.invokeEnd(tokens, i)
    } else if (st.live && st.paramBody >= 0) {
      this.streamText(t.image)
    }
  }

  /**
   * Adds `key` to the call's keys; false when it has it already (a
   * parameter given twice). Looked up in a set kept beside the plain list (a
   * checkpoint carries the list): a search of the list per parameter was
   * quadratic in a block of many parameters.
   */
  private addKey(c: StreamedCall, key: string): boolean {
    let set = this.keySets.get(c)
    // a call read before a checkpoint was restored has its list only
    if (set === undefined || set.size !== c.keys.length) this.keySets.set(c, (set = new Set(c.keys)))
    if (set.has(key)) return false
    set.add(key)
    c.keys.push(key)
    return true
  }

  private current(): StreamedCall | null {
    const calls = this.st.calls
    return calls.length === 0 ? null : calls[calls.length - 1]!
  }

  /** The invoke's opening tag is whole: its name, and the call's record. */
  private invokeTag(tokens: readonly IToken[], i: number): void {
    const st = this.st
    st.invokeBody = i + 1
    const read = readInvoke(this.lexer, this.opts.values, tokens.slice(st.invokeAt, i + 1), this.close)
    const name = read !== null && read.decoded.ok ? read.decoded.name : null
    const tools = this.opts.tools
    // a call its block would be rejected for (`onInvalid: 'reject'`) never starts
    const refused = name !== null && tools !== null && this.opts.onInvalid === 'reject' && !tools.has(name)
    st.calls.push({ name: refused ? null : name, start: st.callStart, id: null, idProblem: null, index: -1, sent: '', pending: '{', stalled: name === null, changed: false, keys: [] })
    // a call named as a quoted one holds the block's sending until its arguments tell
    if (st.quoted !== null && name !== null && this.opts.quoted?.named(name) === true) st.quoted.push(st.calls.length - 1)
  }

  /** A parameter's opening tag is whole: a `string` value its schema keeps a string streams from here. */
  private paramTag(tokens: readonly IToken[], i: number): void {
    const st = this.st
    st.paramBody = i + 1
    const c = this.current()
    if (c === null || c.stalled || st.invokeBody < 0) return
    // the tag alone: the invoke's was read when it ended (a call named so far, or refused and never started)
    const attrs = readTagHead(this.lexer, tokens, st.paramAt, i + 1, 'ParamOpen')
    const key = attrs === null || ambiguousTag(attrs, this.opts.values) ? '' : paramKey(attrs, this.opts.values)
    if (key === '') return void (c.stalled = true)
    // the value is the exact text between the tags (rule 1), unless the schema makes it something else
    if (!exact(attrs!, this.opts.values.stringAttr) || !this.keepsString(c.name ?? '', key)) return
    if (!this.addKey(c, key)) return void (c.stalled = true)
    c.pending += (c.keys.length > 1 ? ',' : '') + JSON.stringify(key) + ':"'
    st.live = true
    st.high = ''
  }

  /** A parameter closed: a streamed value ends its string, any other arrives whole. */
  private paramEnd(tokens: readonly IToken[], i: number): void {
    const st = this.st
    const c = this.current()
    const from = st.paramAt
    const live = st.live
    st.paramAt = -1
    st.paramBody = -1
    st.live = false
    if (c === null || c.stalled || from < 0 || st.invokeBody < 0) return
    if (live) {
      c.pending += (st.high === '' ? '' : escaped(st.high)) + '"'
      st.high = ''
      return
    }
    const param = readInvoke(this.lexer, this.opts.values, [...tokens.slice(st.invokeAt, st.invokeBody), ...tokens.slice(from, i + 1)], this.close)?.param(this.opts.values.stringAttr)
    if (param == null || !this.addKey(c, param.key)) return void (c.stalled = true)
    const schema = this.opts.tools?.get(c.name ?? '')?.schema ?? null
    const one = objectOf([[param.key, param.node]], schema === null ? null : resolve(schema, schema), schema ?? {})
    c.pending += (c.keys.length > 1 ? ',' : '') + writeJson(one).json.slice(1, -1)
  }

  /** The invoke closed: decoded whole, its final `arguments`, if they continue what was sent. */
  private invokeEnd(tokens: readonly IToken[], i: number): void {
    const st = this.st
    const c = this.current()
    const from = st.invokeAt
    st.invokeAt = -1
    st.invokeBody = -1
    st.live = false
    if (c === null || from < 0) return
    const read = readInvoke(this.lexer, this.opts.values, tokens.slice(from, i + 1), this.closeWrapper)
    const d = read?.decoded
    if (d === undefined || !d.ok) return void (c.stalled = true)
    const tool = this.opts.tools?.get(d.name)
    const { input, written } = callInput(d, tool?.schema ?? null)
    if (this.openAt >= 0) this.settled.set(this.openAt, { end: st.at + tokens[i]!.image.length, first: from, last: i, invoke: read!.invoke, decoded: d, input, written })
    this.openAt = -1
    // not a quoted call after all: it no longer holds the block (one that is holds it to the end: the block is text)
    if (st.quoted !== null && this.opts.quoted?.matches(d.name, input) !== true) {
      const k = st.calls.length - 1
      st.quoted = st.quoted.filter((i) => i !== k)
    }
    // what the parameters sent, or would have by now, must begin the final text (a parameter given twice does not)
    if (!written.json.startsWith(c.sent + c.pending)) c.changed = true
    else if (!c.stalled) c.pending = written.json.slice(c.sent.length)
    c.stalled = true
  }

  private streamText(text: string): void {
    const c = this.current()
    if (c === null || c.stalled || text === '') return
    const st = this.st
    let piece = st.high + text
    st.high = ''
    const last = codeAt(piece, piece.length - 1)
    // a high surrogate whose low half is still to come: JSON writes the pair as it is, a lone half escaped
    if (last >= 0xd800 && last <= 0xdbff) {
      st.high = piece.slice(-1)
      piece = piece.slice(0, -1)
    }
    c.pending += escaped(piece)
  }

  /** Whether a `string="true"` value of `key` stays the string it is under the tool's schema. */
  private keepsString(name: string, key: string): boolean {
    const schema = this.opts.tools?.get(name)?.schema ?? null
    if (schema === null) return true
    const root = resolve(schema, schema)
    const s = root === null ? null : resolve(propertySchema(root, key), schema)
    return s === null || (branchesOf(s) === null && enumOf(s) === null && allows(declaredTypes(s), 'string'))
  }

  private send(c: StreamedCall): void {
    if (c.name === null) return
    if (c.id === null) {
      const { id, problem } = callId(this.opts.newId)
      c.id = id
      c.idProblem = problem
      c.index = this.st.next++
      this.out.event({ type: 'tool-call-start', id, name: c.name, index: c.index, span: { start: c.start } })
    }
    // the unsent piece on its own: slicing the whole text (a rope as it grows) would copy it at every push
    if (c.pending !== '') {
      this.out.event({ type: 'tool-call-delta', id: c.id, delta: c.pending })
      c.sent = grown(this.growth, c, c.pending)
      c.pending = ''
    }
  }
}
