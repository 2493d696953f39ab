/**
 * The ids the rescued calls of one answer went out with, over all the
 * sieves the adapter reads it through. A sieve keeps the model's own ids
 * unique in its stream (`modelCallId`), but an adapter reads a response in
 * pieces, one sieve each: a Responses text part or message item, an AI SDK
 * or Messages run of text parts. A model that counts its calls per message
 * writes `functions.get_weather:0` in two message items of one response;
 * read apart, both calls would have that id (and the item id `fc_` made of
 * it), and a caller matching tool results by id would match the wrong call.
 * The later one gets a made id instead, as a repeat in one stream does.
 *
 * Upstream's own calls that go out beside the rescued ones hold their ids
 * too ({@link hold}): a Responses `custom_tool_call` or `computer_call`, an
 * AI SDK provider-executed call. A model id equal to one of them would give
 * a caller two calls of one id, so that call gets a made id as well. Native
 * calls the caller runs (`function_call`, `tool_use`, a chat `tool_calls`
 * entry) are not held here: the conflict gate (`conflict.ts`) never lets
 * them go out beside a rescued call.
 *
 * Not used with `generateId`: the caller's generator makes every id, and
 * its scheme holds for every call (the sieve does not check its ids either).
 */
import { madeId, type CallId } from '../sieve/ids.js'

export class CallIds {
  /** Every id a call of the answer went out with, the made ones too. */
  private readonly given = new Set<string>()
  /**
   * Ids of upstream's calls beside the rescued ones, as far as the adapter
   * has read: a whole answer holds all of them before it is read, a stream
   * those that came before a call's start (the id of a call that went out
   * cannot change).
   */
  private readonly held = new Set<string>()

  /** An id upstream gave a call that goes out beside the rescued ones: no rescued call takes it. */
  hold(id: string): void {
    this.held.add(id)
  }

  /**
   * The id a call the sieve named `id` goes out with: `id`, unless an
   * earlier call of the answer went out with it or upstream gave it a call
   * ({@link hold}); then a made id, and why (the `invalid-call-id`
   * diagnostic's message).
   */
  take(id: string): CallId {
    const upstream = this.held.has(id)
    if (!upstream && !this.given.has(id)) {
      this.given.add(id)
      return { id, problem: null }
    }
    const made = madeId(`the model's call id ${JSON.stringify(id)} was given to ${upstream ? 'a call upstream sent in' : 'an earlier call of'} the response`)
    this.given.add(made.id)
    return made
  }
}
