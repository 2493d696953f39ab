/**
 * Several sieves reading at once (the choices of an `n > 1` chat stream,
 * the text parts of a Responses stream open together), each a lane whose
 * output keeps its own order, and items passed through that stand between
 * what every lane sent before them and what it sends after them (a chunk
 * of a shape the adapter does not read, a usage chunk, an event of another
 * item). Each lane's sieve gives a mark where the item stands in its text
 * ({@link ActionSieve.mark}); the item goes out once every lane has reached
 * its mark, and what a lane makes after its mark waits behind the item
 * until then:
 *
 * ```
 * > | choice 0: a <｜DSML｜too   |P|   k A2
 * > | choice 1: b <｜DSML｜too   |P|            k B2
 *     out: a, b, (0 reaches P; `k A2` waits), (1 reaches P) <｜DSML｜too, P, k A2, k B2
 * ```
 *
 * Going out with the last lane to reach it instead would put it after what
 * the earlier lanes sent after it. Pieces of different lanes are
 * independent otherwise: a lane that has not reached an item's mark is
 * not held back by it.
 */
import { maxMarks } from './actions.js'

/** An item passed through, waiting for `left` lanes to reach its mark. */
export interface Barrier<P> {
  left: number
  readonly item: P
  /** It went out: a lane that reaches its mark later has nothing more to wait for. */
  done: boolean
}

/** A lane that reached the mark of an item still waiting: what it makes after, in order, until that item goes out. */
interface Blocked<P> {
  on: Barrier<P>
  backlog: Array<(() => void) | Barrier<P>>
}

export class Lanes<L, P> {
  /** The items waiting, in the order they came: one goes out once its lanes reached it and those before it went. */
  private readonly queue: Array<Barrier<P>> = []
  private readonly blocked = new Map<L, Blocked<P>>()

  /** @param release writes an item passed through, when its turn comes */
  constructor(private readonly release: (item: P) => void) {}

  /** An item that waits for `lanes` lanes to reach their mark for it (none: it goes once those before it went). */
  wait(lanes: number, item: P): Barrier<P> {
    const barrier: Barrier<P> = { left: lanes, item, done: false }
    this.queue.push(barrier)
    this.flush()
    return barrier
  }

  /** Something a lane writes: at once, or behind the item whose mark it reached. */
  write(lane: L, out: () => void): void {
    const blocked = this.blocked.get(lane)
    if (blocked === undefined) return out()
    this.hold(lane, blocked, out)
  }

  /** A lane reached its mark for `barrier`: what it makes next waits until the item has gone out. */
  reach(lane: L, barrier: Barrier<P>): void {
    const blocked = this.blocked.get(lane)
    if (blocked !== undefined) return this.hold(lane, blocked, barrier)
    if (barrier.done) return
    barrier.left--
    this.flush()
    if (!barrier.done) this.blocked.set(lane, { on: barrier, backlog: [] })
  }

  /**
   * A lane that none of the items waiting counts (a choice that first came
   * after them): it is past every one of them, so what it writes goes out
   * after them all, not ahead of the one another lane's held text keeps.
   */
  join(lane: L): void {
    for (const barrier of this.queue) {
      barrier.left++
      this.reach(lane, barrier)
    }
  }

  /**
   * Held text is bounded by the capture limit, but the time it is held is
   * not: a lane whose text another lane's `<` holds back would wait for as
   * long. Past {@link maxMarks} pieces of it, the items it waits behind go
   * out, ahead of the text the other lanes still hold, as one sieve's
   * waiting items do.
   */
  private hold(lane: L, blocked: Blocked<P>, next: (() => void) | Barrier<P>): void {
    blocked.backlog.push(next)
    if (blocked.backlog.length <= maxMarks) return
    for (const barrier of this.queue) {
      barrier.left = 0
      if (barrier === blocked.on) break
    }
    this.flush()
  }

  /** Writes the items whose turn came, and what the lanes made behind each. */
  private flush(): void {
    while (this.queue.length > 0 && this.queue[0]!.left <= 0) {
      const barrier = this.queue.shift()!
      barrier.done = true
      this.release(barrier.item)
      const freed: Array<[L, Blocked<P>]> = []
      for (const [lane, blocked] of this.blocked) if (blocked.on === barrier) freed.push([lane, blocked])
      for (const [lane] of freed) this.blocked.delete(lane)
      // through write and reach again: a lane may reach a later item's mark in what it made, and wait there
      for (const [lane, { backlog }] of freed) {
        for (const next of backlog) {
          if (typeof next === 'function') this.write(lane, next)
          else this.reach(lane, next)
        }
      }
    }
  }
}
