/**
 * Ids the OpenAI adapters make: for calls that arrive without one (a legacy
 * `function_call`, the shape before `tool_calls` had no id, and a tool call
 * needs one), and the Responses function_call items' ids (`CallItemIds`).
 */
import type { AnswerSieves, ResolvedAdapterOptions } from '../adapters/index.js'
import { randomCallId } from '../sieve/ids.js'

/** An id from the caller's `generateId` (so tests stay deterministic), else `call_` + 24 hex digits. */
export function legacyCallId(resolved: ResolvedAdapterOptions): string {
  const generate = resolved.sieve.generateId
  try {
    const id = typeof generate === 'function' ? generate() : undefined
    if (typeof id === 'string' && id !== '') return id
  } catch {
    // the core reports a failing generateId on the calls it makes; a legacy call just gets a default id
  }
  return randomCallId()
}

/**
 * The item ids of one Responses answer, for its function_call items. An
 * item's id is `fc_` and its call id without a leading `call_` (OpenAI's
 * `fc_…` beside `call_…`), but the model's own ids make that two-to-one:
 * `call_abc` and `abc` both give `fc_abc`, and a caller that keys items by
 * id (the SDK's stream accumulator, a store of the output) would merge two
 * calls. An id the answer has already, an earlier call's item's or an item
 * upstream sent, gets the first free suffix `_1`, `_2`… instead. Only on a
 * clash: every other item keeps the id it had, so a caller that makes an
 * item id from a call id still finds it, and made ids (random) never clash.
 * The call id, which tool results are matched by, is never changed here.
 *
 * ```ts
 * const itemIds = new CallItemIds()
 * itemIds.take('call_abc') // 'fc_abc'
 * itemIds.take('abc') // 'fc_abc_1'
 * ```
 */
export class CallItemIds {
  /** Every item id of the answer so far: upstream's items' and the function_call items made. */
  private readonly taken = new Set<string>()

  /** An item upstream sent (its `id`, when a string): no function_call item takes that id. */
  hold(item: unknown): void {
    const id = (item as { id?: unknown } | null | undefined)?.id
    if (typeof id === 'string') this.taken.add(id)
  }

  /** The item id of a function_call item whose call goes out with `callId`. */
  take(callId: string): string {
    const base = `fc_${callId.startsWith('call_') ? callId.slice(5) : callId}`
    let id = base
    for (let n = 1; this.taken.has(id); n++) id = `${base}_${n}`
    this.taken.add(id)
    return id
  }
}

/**
 * An upstream item's ids, which the rescued calls do not take: its item id,
 * and the `call_id` of a call that is no native function_call (a
 * `custom_tool_call`, a `computer_call`, …). A native call's id is not held:
 * native and rescued calls never go out together (`onConflict`).
 */
export function holdIds(item: unknown, sieves: AnswerSieves, itemIds: CallItemIds): void {
  if (item === null || typeof item !== 'object') return
  itemIds.hold(item)
  const { type, call_id: callId } = item as Record<string, unknown>
  if (type !== 'function_call') sieves.holdId(callId)
}
