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
 * Not used with `generateId`: the caller's generator makes every id, and
 * its scheme holds for every call (the sieve does not check its ids either).
 */
import { madeId, type CallId } from '../sieve/ids.js'

export class CallIds {
  /** Every id a call of the answer went out with, the made ones too. */
  private readonly given = new Set<string>()

  /**
   * The id a call the sieve named `id` goes out with: `id`, unless an
   * earlier call of the answer went out with it; then a made id, and why
   * (the `invalid-call-id` diagnostic's message).
   */
  take(id: string): CallId {
    if (!this.given.has(id)) {
      this.given.add(id)
      return { id, problem: null }
    }
    const made = madeId(`the model's call id ${JSON.stringify(id)} was given to an earlier call of the response`)
    this.given.add(made.id)
    return made
  }
}
