/**
 * Small pieces of the OpenAI wire that the repair writes or reads: its error
 * body, and which calls in a Responses stream were rescued (not upstream's own).
 */
/** An error body in OpenAI's shape (`{ error: { message, type, code } }`): the SDKs throw it as an API error. */
export function errorBody(code: string, message: string): { error: { message: string; type: 'toolsieve_error'; code: string } } {
  return { error: { message, type: 'toolsieve_error', code } }
}

/**
 * Counts the rescued calls that went out in a Responses stream: function_call
 * items added that were not upstream's. A rescued call's item id carries the
 * model's own call id where its markup had one, which can equal a native
 * item's: upstream's ids are counted as they go in, and each one passed out
 * uses one of them up, so a rescued call with the same id still counts.
 * (A chat stream's rescued calls are counted by the adapter itself:
 * `countedChatStream`.)
 */
export class RescueCount {
  /** Upstream's function_call item ids, each with how many such items have not gone out yet. */
  private readonly natives = new Map<string, number>()

  /** An upstream event, on its way into the sieve. */
  upstream(event: Record<string, unknown>): void {
    const id = callItemId(event)
    if (id !== undefined) this.natives.set(id, (this.natives.get(id) ?? 0) + 1)
  }

  /** The rescued calls that start in an output event (0 or 1). */
  sent(event: Record<string, unknown>): number {
    const id = callItemId(event)
    if (id === undefined) return 0
    const left = this.natives.get(id) ?? 0
    if (left === 0) return 1
    this.natives.set(id, left - 1)
    return 0
  }
}

/** The id of the function_call item an event adds, if it adds one. */
function callItemId(event: Record<string, unknown>): string | undefined {
  if (event.type !== 'response.output_item.added') return undefined
  const item = event.item as { type?: unknown; id?: unknown } | null | undefined
  return item?.type === 'function_call' ? (typeof item.id === 'string' ? item.id : '') : undefined
}
