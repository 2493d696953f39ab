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
  /**
   * An error met while an item (or the end) was read and held back, so that
   * what it made goes out first (a user's `onDiagnostic` that threw inside a
   * push): handed over once. Once the item's output is out it breaks the
   * source off there; when the item then fails anyway, it is still the error
   * thrown, having come first.
   */
  held?(): { error: unknown } | undefined
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
      const late = reading.held?.()
      if (late !== undefined) throw late.error
    }
  } catch (error) {
    if (yielding) throw error
    // taken before the break's release, which may call the callback again: the first error is the one thrown
    const first = reading.held?.() ?? { error }
    const held = reading.broke(error)
    if (held === null) throw first.error
    yield* held
    throw first.error
  }
  let last: Iterable<O>
  try {
    last = reading.end()
  } catch (error) {
    throw (reading.held?.() ?? { error }).error
  }
  yield* last
  const late = reading.held?.()
  if (late !== undefined) throw late.error
}
