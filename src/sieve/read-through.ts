/**
 * Reading an upstream source through a sieve to its end, or until it breaks
 * off: the loop every streaming adapter and `sieveIterable` share. An item's
 * output goes out as it is made; a source that throws, or an item the
 * reader refuses (a chunk of the wrong shape), is a break, and what the
 * reader held goes out before the error, so that nothing of the answer is
 * lost.
 */

/** What a source's items become. */
export interface Reading<I, O> {
  /** What one item makes; a throw refuses it, and the source broke off there. */
  item(item: I): Iterable<O>
  /** What goes out before the error of a break; null: the error goes on alone (a stop of the reader's own). */
  broke(error: unknown): Iterable<O> | null
  /** What goes out once the source is over. */
  end(): Iterable<O>
}

export async function* readThrough<I, O>(source: AsyncIterable<I> | Iterable<I>, reading: Reading<I, O>): AsyncGenerator<O, void, undefined> {
  /** The consumer holds the generator at a yield: what it throws in there is its own, not the source's. */
  let yielding = false
  try {
    // for await closes the source on any abrupt exit: a consumer's break or return(), or an item refused
    for await (const item of source) {
      const out = reading.item(item)
      yielding = true
      yield* out
      yielding = false
    }
  } catch (error) {
    const held = yielding ? null : reading.broke(error)
    if (held === null) throw error
    yield* held
    throw error
  }
  yield* reading.end()
}
