/**
 * `reasoningCalls: 'call'`: a tool-call block in the reasoning is live.
 * The reasoning is sieved by a driver of its own — its own Markdown state,
 * so a fence left open in the reasoning still ends with it — whose text
 * comes out as `reasoning` events and whose calls and diagnostics come out
 * as they are. It ends at the reasoning's closer, or with the stream: a
 * block still open there is released as reasoning, as any unterminated block.
 */
import type { SieveEvent } from '../types.js'
import { initialCallStream } from './call-stream-state.js'
import type { Emitter } from './emitter.js'
import type { EventSink, ReasoningState } from './reasoning.js'
import { initialState, type DriverState } from './state.js'

/** The parts of a driver the reasoning's own driver needs: fed, ended, aborted, recovered, drained. */
export interface InnerDriver {
  readonly s: DriverState
  readonly out: Emitter
  push(chunk: string): void
  end(): void
  abort(): void
  recover(e: unknown): void
}

export class ReasoningCalls implements EventSink {
  private inner: InnerDriver | null = null

  /**
   * `make` builds a driver on a state (the reasoning's own, kept in
   * `reasoning.inner` so a checkpoint carries it); `outer` is the stream's state.
   */
  constructor(
    private readonly make: (s: DriverState) => InnerDriver,
    private readonly out: Emitter,
    private readonly outer: DriverState,
  ) {
    const saved = outer.reasoning.inner
    if (saved != null) this.inner = make(saved)
  }

  /** Leading whitespace before `<think>`: the answer's text, as without this option. */
  text(s: string): void {
    this.out.text(s)
  }

  event(e: SieveEvent): void {
    if (e.type === 'reasoning') return this.feed(e.text)
    if (e.type === 'reasoning-end') this.end()
    this.out.event(e)
  }

  /** The reasoning is over (its closer, or the stream's end): what its driver holds goes out. */
  end(): void {
    this.close((inner) => inner.end())
  }

  /** The stream broke off inside the reasoning: what its driver holds goes out as reasoning, and no call is made from it. */
  abort(): void {
    this.close((inner) => inner.abort())
  }

  /** The reasoning's driver is done with, by `last`: its events go out, and the stream's calls count on from its. */
  private close(last: (inner: InnerDriver) => void): void {
    const inner = this.inner
    if (inner === null) return
    this.guarded(inner, () => last(inner))
    this.drain(inner)
    if (this.outer.calls !== null && inner.s.calls !== null) this.outer.calls.next = inner.s.calls.next
    // and its calls' model ids are the stream's (the reasoning comes first: the answer gave none yet): a call in the answer that repeats one gets a made id
    if (inner.s.modelIds !== undefined) this.outer.modelIds = inner.s.modelIds
    this.outer.reasoning.inner = null
    this.inner = null
  }

  private feed(text: string): void {
    const inner = this.driver()
    this.guarded(inner, () => inner.push(text))
    this.drain(inner)
  }

  private driver(): InnerDriver {
    if (this.inner !== null) return this.inner
    const r: ReasoningState = this.outer.reasoning
    const s: DriverState = { ...initialState(), pos: r.pos, reasoning: { phase: 'done', held: '', pos: r.pos }, calls: this.outer.calls === null ? null : { ...initialCallStream(), next: this.outer.calls.next } }
    r.inner = s
    this.inner = this.make(s)
    return this.inner
  }

  /** A bug in the reasoning's driver is its own to recover from: it releases what it held, as reasoning. */
  private guarded(inner: InnerDriver, step: () => void): void {
    try {
      step()
    } catch (e) {
      inner.recover(e)
    }
  }

  private drain(inner: InnerDriver): void {
    for (const e of inner.out.take()) {
      if (e.type === 'text') this.out.event({ type: 'reasoning', text: e.text })
      else this.out.event(e)
    }
    if (inner.s.sawSyntax) this.outer.sawSyntax = true
  }
}
