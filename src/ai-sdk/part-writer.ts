/**
 * Writes the parts the middleware makes of what its sieves give: text parts
 * of its own (named after the upstream text part), reasoning parts, and
 * rescued calls as `tool-input-start` / `-delta` / `-end` and `tool-call`.
 * It only writes; when a part starts, ends or is read is decided in
 * `stream.ts`.
 */
import type { AdapterAction } from '../adapters/index.js'
import type { StreamPartLike } from './types.js'

export class PartWriter {
  /** Id of our text part open now; `null` between parts. */
  private textId: string | null = null
  /** The upstream text part's id: our first part for it keeps it, later ones (after a call) add `-1`, `-2`, …. */
  private upstreamId = 'txt-0'
  private segments = 0
  private reasoningId: string | null = null
  private reasonings = 0
  /** Rescued calls that went out (an aborted one did not). */
  private calls = 0

  /**
   * @param upstreamOpen whether upstream has a text part open under an id
   *   (one it started after its error): a part of ours never takes that id
   */
  constructor(
    private readonly out: (part: StreamPartLike) => void,
    private readonly upstreamOpen: (id: string) => boolean,
  ) {}

  /** Rescued calls that went out: the finish reason is `tool-calls` when there are any. */
  get rescued(): number {
    return this.calls
  }

  /** An upstream text part starts: what is read from it goes into parts named after it. */
  upstreamPart(id: string): void {
    this.upstreamId = id
    this.segments = 0
  }

  action(a: AdapterAction): void {
    switch (a.type) {
      case 'text':
        if (this.textId === null) {
          this.closeReasoning()
          // not the id of a part upstream has open after its error: the SDK renames a second open part and puts both parts' text in it
          do this.textId = this.segments++ === 0 ? this.upstreamId : `${this.upstreamId}-${this.segments - 1}`
          while (this.upstreamOpen(this.textId))
          this.out({ type: 'text-start', id: this.textId })
        }
        return this.out({ type: 'text-delta', id: this.textId, delta: a.text })
      case 'reasoning-start':
        return this.openReasoning()
      case 'reasoning':
        // with reasoningCalls: 'call' the reasoning goes on after a call in it: a new reasoning part
        if (this.reasoningId === null) this.openReasoning()
        return this.out({ type: 'reasoning-delta', id: this.reasoningId!, delta: a.text })
      case 'reasoning-end':
        if (this.reasoningId !== null) this.out({ type: 'reasoning-end', id: this.reasoningId })
        this.reasoningId = null
        return
      case 'call-start':
        this.closeText()
        this.closeReasoning()
        return this.out({ type: 'tool-input-start', id: a.id, toolName: a.name })
      case 'call-delta':
        return this.out({ type: 'tool-input-delta', id: a.id, delta: a.delta })
      case 'call-end':
        this.calls++
        this.out({ type: 'tool-input-end', id: a.id })
        return this.out({ type: 'tool-call', toolCallId: a.id, toolName: a.call.name, input: a.call.arguments })
      case 'call-abort':
        // the block failed: its input part ends and no call follows (its markup comes next, as text)
        return this.out({ type: 'tool-input-end', id: a.id })
    }
  }

  closeReasoning(): void {
    if (this.reasoningId === null) return
    this.out({ type: 'reasoning-end', id: this.reasoningId })
    this.reasoningId = null
  }

  closeText(): void {
    if (this.textId === null) return
    this.out({ type: 'text-end', id: this.textId })
    this.textId = null
  }

  private openReasoning(): void {
    this.closeText()
    this.closeReasoning()
    this.reasoningId = `reasoning-toolsieve-${this.reasonings++}`
    this.out({ type: 'reasoning-start', id: this.reasoningId })
  }
}
