/**
 * Native calls from upstream and calls rescued from the text, in one turn.
 * A model that made a native call and also wrote it out as markup (or the
 * other way round) would have it run twice, and nothing on the wire says
 * which is the copy. So a turn gets one kind of call: by default the stream
 * stops at the first sign of both; with `prefer-native` the rescued calls
 * wait for the turn's end and go out only if no native call came.
 */
import { ToolsieveError } from '../errors.js'
import type { AdapterAction } from './actions.js'
import type { ConflictPolicy } from './options.js'

const isCall = (a: AdapterAction): boolean => a.type === 'call-start' || a.type === 'call-delta' || a.type === 'call-end' || a.type === 'call-abort'

/** One turn's gate between rescued call actions and the wire. */
export class NativeConflictGate {
  /** Upstream sent a native call in this turn. */
  private native = false
  /** A rescued call action went out in this turn. */
  private sent = false
  /**
   * With `prefer-native`: rescued call actions waiting for the turn's end. A
   * call aborted while held is dropped with its pieces, since nothing of it
   * went out.
   */
  private held: AdapterAction[] = []

  constructor(private readonly policy: ConflictPolicy) {}

  /**
   * Upstream sent a native call (or a legacy `function_call`).
   *
   * @throws {ToolsieveError} `native-conflict` under `'error'` when a rescued
   *   call of this turn already went out.
   */
  sawNative(): void {
    if (this.sent && this.policy === 'error') throw conflict()
    this.native = true
  }

  /** True once a native call was seen in this turn. */
  get hasNative(): boolean {
    return this.native
  }

  /**
   * The actions that may go out now, in order: text and reasoning always;
   * rescued call actions under `'error'` (after checking for natives), none
   * under `'prefer-native'` (they are held, see {@link finish}).
   *
   * @throws {ToolsieveError} `native-conflict` under `'error'` for a rescued
   *   call in a turn that already had a native one.
   */
  pass(actions: AdapterAction[]): AdapterAction[] {
    if (!actions.some(isCall)) return actions
    const out: AdapterAction[] = []
    for (const a of actions) {
      if (!isCall(a)) out.push(a)
      else if (this.policy === 'prefer-native') this.hold(a)
      else {
        if (this.native) throw conflict()
        this.sent = true
        out.push(a)
      }
    }
    return out
  }

  /** The turn is over: the held rescued calls, or none if a native call came. The gate is empty afterwards. */
  finish(): AdapterAction[] {
    const held = this.held
    this.held = []
    return this.native ? [] : held
  }

  /**
   * The upstream broke off: the held rescued calls as text, each complete
   * call as the markup it was read from. A failed turn runs no call, and with
   * no native call to stand for them, dropping them would lose the characters
   * they were read from. A call the break cut is not here (the sieve's abort
   * gives its markup), and after a native call this gives nothing. The gate
   * holds only the calls, so the text after them went out already: the
   * markup comes at the break, not where it stood. The gate is empty
   * afterwards.
   */
  abandon(): AdapterAction[] {
    return this.finish().flatMap((a): AdapterAction[] => (a.type === 'call-end' ? [{ type: 'text', text: a.call.raw }] : []))
  }

  /** True when rescued calls are held, or went out, in this turn (so the turn ends in tool calls unless natives win). */
  get hasRescued(): boolean {
    return this.sent || this.held.some((a) => a.type === 'call-end')
  }

  private hold(a: AdapterAction): void {
    if (a.type === 'call-abort') {
      this.held = this.held.filter((h) => !('id' in h) || h.id !== a.id)
      return
    }
    this.held.push(a)
  }
}

function conflict(): ToolsieveError {
  return new ToolsieveError('native-conflict', 'upstream sent native tool calls and the text held tool-call markup in the same turn; the stream stops before one could run twice (onConflict: "prefer-native" keeps the native calls)')
}
