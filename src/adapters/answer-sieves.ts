/**
 * The sieves of one answer, each answering in actions (`action-sieve.ts`):
 * one per piece of text an adapter reads the answer in, with one set of
 * the ids its calls went out with.
 */
import { createSieve } from '../sieve/create.js'
import type { SieveOptions } from '../types.js'
import { Actions } from './action-sieve.js'
import type { ActionSieve } from './actions.js'
import { CallIds } from './call-ids.js'
import type { ResolvedAdapterOptions } from './options.js'

/** How the sieves of an {@link AnswerSieves} are made. */
export interface AnswerLayout {
  /**
   * The text around calls is one string (an OpenAI `content`), so the
   * blank lines before a block stay between the text before and after it.
   */
  oneText?: boolean
  /** What a sieve after the first is made with besides `startInReasoning: false` (Messages: `reasoning: false`). */
  later?: SieveOptions
}

/**
 * The sieves of one answer (a response, a message, a result, a choice),
 * answering in actions: an adapter that reads the answer's text in pieces
 * (a Responses text part, a run of AI SDK or Messages text parts) takes one
 * sieve per piece. The first is made with the adapter's options; a later
 * one does not start in the reasoning (`thinking`), as its text is not the
 * start of the completion. The ids of the rescued calls are unique over all
 * of them: a call whose id an earlier call of the answer went out with (the
 * model's own, written again in a later message item) goes out with a made
 * id, on its start, its deltas and its end, and an `invalid-call-id`
 * diagnostic (see `CallIds`); so does one whose id upstream gave a call
 * that goes out beside them ({@link holdId}).
 *
 * ```ts
 * const sieves = new AnswerSieves(resolveAdapterOptions(options))
 * const part = sieves.next()
 * for (const action of part.push(delta.text)) write(action)
 * ```
 */
export class AnswerSieves {
  private made = 0
  /** Null with `generateId`: the caller's ids are theirs. */
  private readonly ids: CallIds | null

  constructor(
    private readonly resolved: ResolvedAdapterOptions,
    private readonly layout: AnswerLayout = {},
  ) {
    this.ids = resolved.sieve.generateId === undefined || resolved.sieve.generateId === null ? new CallIds() : null
  }

  /**
   * An id upstream gave a call of the answer that goes out beside the
   * rescued ones and is no native call (a Responses `custom_tool_call`, an
   * AI SDK provider-executed call): a rescued call that comes later does not
   * take it. Anything but a non-empty string is no id, and is ignored; so
   * is every id with `generateId`.
   */
  holdId(id: unknown): void {
    if (typeof id === 'string' && id !== '') this.ids?.hold(id)
  }

  /** The sieve of the answer's next piece of text. */
  next(): ActionSieve {
    const resolved = this.resolved
    const sieve = this.made++ === 0 ? resolved.newSieve() : createSieve({ ...resolved.sieve, startInReasoning: false, ...this.layout.later })
    return new Actions(sieve, resolved, this.layout.oneText === true, this.ids)
  }
}

/**
 * A sieve made with the adapter's options, answering in actions: the one
 * sieve of an answer read whole through it (a chat choice).
 *
 * ```ts
 * const resolved = resolveAdapterOptions(options)
 * const sieve = createActionSieve(resolved)
 * for (const action of sieve.push(delta.content)) write(action)
 * ```
 */
export function createActionSieve(resolved: ResolvedAdapterOptions, layout: { oneText?: boolean } = {}): ActionSieve {
  return new AnswerSieves(resolved, layout).next()
}

