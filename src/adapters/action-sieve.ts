/**
 * The sieve behind {@link ActionSieve}: one sieve's events turned into
 * actions as they come, with the streaming decision, the blank-line
 * trimming, the marks for what passes beside held text, and the ids of an
 * answer's calls kept unique (`CallIds`).
 */
import type { DiagnosticEvent, ErrorEvent, Sieve, SieveEvent, ToolCallEvent } from '../types.js'
import { maxMarks, type ActionSieve, type AdapterAction } from './actions.js'
import type { CallIds } from './call-ids.js'
import type { ResolvedAdapterOptions } from './options.js'
import { BlankLineTrimmer } from './trim.js'

/**
 * A call between its start and its end or abort: its index, and the id it
 * goes out with (the sieve's, or a made one for an id the answer gave
 * already, with the problem its diagnostic reports at the end).
 */
interface OpenCall {
  index: number
  id: string
  problem: string | null
}

export class Actions implements ActionSieve {
  calls = 0
  /** Calls counted in start order; the sieve's id of a call maps to it from start to end or abort. */
  private started = 0
  private readonly open = new Map<string, OpenCall>()
  private readonly trimmer: BlankLineTrimmer | null
  /** `reasoning-start` was given and `reasoning-end` not yet. */
  private inReasoning = false
  /** Reasoning is over (tag closed, or answer text came first): a later reasoning event cannot reopen it. */
  private reasoningDone = false
  private out: AdapterAction[] = []
  private ended = false
  /** Characters pushed into the sieve. */
  private pushed = 0
  /**
   * Characters of the input the sieve's events gave out: text, reasoning,
   * the reasoning's tags and calls' raw, which rebuild the input, so this
   * reaches `pushed` when the sieve holds nothing.
   */
  private given = 0
  /**
   * The `pushed` count at each mark not yet given: text pushed before it
   * was still held (`hello <｜DSML｜too`, a possible tag start, and the
   * mark asked for after that chunk). Ascending; each is above `given`.
   */
  private marks: number[] = []
  /**
   * After {@link maxMarks} marks waited for the same held text: the `pushed`
   * count then. Until the sieve has given out that much, a mark comes at
   * once, ahead of the held text, as passed-through items went before marks.
   */
  private unheld = 0
  /**
   * The first error `onDiagnostic` threw in the events being applied. A
   * diagnostic is one event of a push among others (the text around a failed
   * block, a call after it): the rest are applied before it is thrown, so the
   * callback's throw leaves no half-applied push behind.
   */
  private failure: { error: unknown } | null = null

  /**
   * @param ids the answer's ids, shared by its sieves; null when the
   *   caller's `generateId` makes them
   */
  constructor(
    private readonly sieve: Sieve,
    private readonly resolved: ResolvedAdapterOptions,
    oneText: boolean,
    private readonly ids: CallIds | null,
  ) {
    this.trimmer = resolved.trimBlankLines ? new BlankLineTrimmer(oneText) : null
  }

  push(chunk: string | null | undefined): AdapterAction[] {
    const events = this.sieve.push(chunk)
    this.pushed += chunk?.length ?? 0
    return this.settle(this.take(events))
  }

  mark(): AdapterAction[] {
    if (this.ended || this.given >= this.pushed || this.given < this.unheld) return [{ type: 'mark' }]
    if (this.marks.length >= maxMarks) {
      // the held text has had its share of waiting: what waits goes now, and what comes before it is out goes at once
      this.unheld = this.pushed
      const all: AdapterAction[] = this.marks.map(() => ({ type: 'mark' }))
      this.marks.length = 0
      all.push({ type: 'mark' })
      return all
    }
    this.marks.push(this.pushed)
    return []
  }

  end(): AdapterAction[] {
    return this.close(() => this.sieve.end(), true)
  }

  abort(): AdapterAction[] {
    // a reasoning the break cut did not end: no reasoning-end is made up for it
    return this.close(() => this.sieve.abort(), false)
  }

  /** The sieve's last events (its `end` or `abort`), then what the trimmer holds, then (`endReasoning`) the reasoning's end. */
  private close(last: () => SieveEvent[], endReasoning: boolean): AdapterAction[] {
    if (this.ended) return []
    this.ended = true
    this.take(last(), false)
    // the sieve gave out all it held; a mark still waiting would mean its count was off, and it goes now
    for (const _ of this.marks.splice(0)) this.emit({ type: 'mark' })
    if (this.trimmer !== null) this.text(this.trimmer.end(), true)
    if (endReasoning && this.inReasoning) this.endReasoning()
    return this.settle(this.flush())
  }

  /**
   * `out`, unless the callback threw while it was made: then its first error.
   * A stream's callback never throws here (it holds its error until `out`
   * has gone out: `HeldError`); a whole answer ends with the error, so what
   * `out` had does not matter.
   */
  private settle(out: AdapterAction[]): AdapterAction[] {
    const failure = this.failure
    if (failure === null) return out
    this.failure = null
    throw failure.error
  }

  private take(events: SieveEvent[], flush = true): AdapterAction[] {
    for (const e of events) this.apply(e)
    return flush ? this.flush() : []
  }

  private flush(): AdapterAction[] {
    const out = this.out
    this.out = []
    return out
  }

  private apply(e: SieveEvent): void {
    switch (e.type) {
      case 'text':
        return this.spend(e.text, false)
      case 'reasoning-start':
        if (!this.inReasoning && !this.reasoningDone) this.startReasoning()
        return this.spent(e.raw.length)
      case 'reasoning':
        return this.spend(e.text, true)
      case 'reasoning-end':
        if (!this.inReasoning && !this.reasoningDone) this.startReasoning()
        // the blank lines after `</think>` start no answer, on any wire
        this.trimmer?.reasoningEnd()
        this.endReasoning()
        return this.spent(e.raw.length)
      case 'tool-call-start':
        return this.start(e.id, e.name)
      case 'tool-call-delta': {
        const call = this.open.get(e.id)
        if (call !== undefined && e.delta !== '') this.emit({ type: 'call-delta', id: call.id, index: call.index, delta: e.delta })
        return
      }
      case 'tool-call':
        this.finish(e)
        return this.spent(e.raw.length)
      case 'tool-call-abort': {
        const call = this.open.get(e.id)
        if (call === undefined) return
        this.open.delete(e.id)
        return this.emit({ type: 'call-abort', id: call.id, index: call.index, code: e.code })
      }
      case 'diagnostic':
      case 'error':
        return this.report(e)
    }
  }

  /** A diagnostic to the caller's `onDiagnostic`; what it throws waits for the end of the events being applied ({@link failure}). */
  private report(e: DiagnosticEvent | ErrorEvent): void {
    try {
      this.resolved.onDiagnostic?.(e)
    } catch (error) {
      this.failure ??= { error }
    }
  }

  /**
   * Text or reasoning the sieve gave out, written piece by piece with the
   * marks that fall inside it between the pieces: `<｜DSML｜too` + `k`
   * released as one text with a mark after `too` writes `<｜DSML｜too`, the
   * mark, `k`.
   */
  private spend(text: string, reasoning: boolean): void {
    let from = 0
    while (this.marks.length > 0 && this.marks[0]! - this.given < text.length - from) {
      const to = from + this.marks[0]! - this.given
      this.piece(text.slice(from, to), reasoning)
      this.spent(to - from)
      from = to
    }
    if (from < text.length) this.piece(text.slice(from), reasoning)
    this.spent(text.length - from)
  }

  /** A piece of answer text or of reasoning, as it goes out (a method, not a closure made per event: this runs per push). */
  private piece(text: string, reasoning: boolean): void {
    if (!reasoning) return this.text(text, false)
    if (!this.inReasoning && !this.reasoningDone) this.startReasoning()
    this.emit({ type: 'reasoning', text })
  }

  /** `length` more characters of the input went out: the marks they reach come next. */
  private spent(length: number): void {
    this.given += length
    while (this.marks.length > 0 && this.marks[0]! <= this.given) {
      this.marks.shift()
      this.emit({ type: 'mark' })
    }
  }

  /** `held`: the text comes out of the trimmer already (its end), so it is not fed to it again. */
  private text(text: string, held: boolean): void {
    const out = held || this.trimmer === null ? text : this.trimmer.text(text)
    if (out === '') return
    if (this.inReasoning) this.endReasoning()
    this.reasoningDone = true
    const last = this.out[this.out.length - 1]
    if (last !== undefined && last.type === 'text') last.text += out
    else this.out.push({ type: 'text', text: out })
  }

  private start(id: string, name: string): void {
    // a call ends the reasoning: a consumer closes its reasoning part before a tool part opens
    if (this.inReasoning) this.endReasoning()
    this.reasoningDone = true
    // its id is decided at its start: every action of the call, and what a wire makes of it (an item id), has the same
    const { id: out, problem } = this.ids?.take(id) ?? { id, problem: null }
    const call: OpenCall = { index: this.started++, id: out, problem }
    this.open.set(id, call)
    this.emit({ type: 'call-start', id: out, name, index: call.index })
  }

  private finish(event: ToolCallEvent): void {
    // without streamArguments (or for a call the core did not start) the whole call goes out now
    if (!this.open.has(event.id)) {
      this.start(event.id, event.name)
      const started = this.open.get(event.id)!
      this.emit({ type: 'call-delta', id: started.id, index: started.index, delta: event.arguments })
    }
    const call = this.open.get(event.id)!
    this.open.delete(event.id)
    this.trimmer?.call()
    this.calls++
    if (call.problem === null) return this.emit({ type: 'call-end', id: call.id, index: call.index, call: event })
    // the id the answer gave already: the call carries its made id and the diagnostic, which follows it, as the sieve does for a repeat in its stream
    const diagnostic: DiagnosticEvent = { type: 'diagnostic', code: 'invalid-call-id', message: call.problem, span: event.span }
    this.emit({ type: 'call-end', id: call.id, index: call.index, call: { ...event, id: call.id, diagnostics: [...(event.diagnostics ?? []), diagnostic] } })
    this.report(this.resolved.sieve.strict === true ? { ...diagnostic, type: 'error' } : diagnostic)
  }

  private startReasoning(): void {
    this.inReasoning = true
    this.emit({ type: 'reasoning-start' })
  }

  private endReasoning(): void {
    this.inReasoning = false
    this.reasoningDone = true
    this.emit({ type: 'reasoning-end' })
  }

  private emit(action: AdapterAction): void {
    this.out.push(action)
  }
}
