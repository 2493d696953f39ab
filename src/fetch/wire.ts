/**
 * Small pieces of the OpenAI wire that the repair writes or reads: its error
 * body, and which calls in the output were rescued (not upstream's own).
 */
import type { RouteKind } from './request.js'

/** An error body in OpenAI's shape (`{ error: { message, type, code } }`): the SDKs throw it as an API error. */
export function errorBody(code: string, message: string): { error: { message: string; type: 'toolsieve_error'; code: string } } {
  return { error: { message, type: 'toolsieve_error', code } }
}

type ToolCallDeltas = { delta?: { tool_calls?: ({ id?: unknown } | null)[] | null } | null } | null

/** Counts the calls that went out in a stream and were not upstream's: the ids upstream used are remembered as its chunks go in. */
export class RescueCount {
  private readonly natives = new Set<string>()

  constructor(private readonly kind: RouteKind) {}

  /** An upstream chunk, on its way into the sieve. */
  upstream(chunk: Record<string, unknown>): void {
    for (const id of this.callIds(chunk)) this.natives.add(id)
  }

  /** The rescued calls that start in an output chunk. */
  sent(chunk: Record<string, unknown>): number {
    let n = 0
    for (const id of this.callIds(chunk)) if (!this.natives.has(id)) n++
    return n
  }

  /** Ids of the calls a chunk starts: a chat delta's `tool_calls` with an id, a Responses function_call item added. */
  private callIds(chunk: Record<string, unknown>): string[] {
    const ids: string[] = []
    if (this.kind === 'chat') {
      const choices = chunk.choices
      if (!Array.isArray(choices)) return ids
      for (const choice of choices as ToolCallDeltas[]) {
        const calls = choice?.delta?.tool_calls
        if (Array.isArray(calls)) for (const call of calls) if (typeof call?.id === 'string') ids.push(call.id)
      }
    } else if (chunk.type === 'response.output_item.added') {
      const item = chunk.item as { type?: unknown; id?: unknown } | null | undefined
      if (item?.type === 'function_call') ids.push(typeof item.id === 'string' ? item.id : '')
    }
    return ids
  }
}
