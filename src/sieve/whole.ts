/**
 * The sieve's reader of a pack's blocks read whole (`dialects/grammar.ts`): the
 * pack's reader (`read/`), kept per pack so a sieve per turn makes
 * none.
 */
import { closerPairs, type WholeReader } from './calls.js'
import { endsItsCalls, readsWhole, wholeDelimiters } from '../dialects/grammar.js'
import { readBlock } from '../read/read-block.js'
import { isJsonEndBlock, readJsonEndBlock } from '../read/read-json-end.js'
import { isAnchoredBlock, readAnchoredBlock } from '../read/read-anchored.js'
import type { DialectPack } from '../dialects/types.js'

const readers = new WeakMap<DialectPack, WholeReader>()

/** The reader of `pack`'s blocks read whole; null when the sieve reads the pack by tags. */
export function wholeReader(pack: DialectPack): WholeReader | null {
  if (!readsWhole(pack)) return null
  let r = readers.get(pack)
  if (r === undefined) {
    // a block that ends with its JSON, or opens the message, has a reader of its own; the closed ones, the pack's
    r = (text) => (isJsonEndBlock(pack, text) ? readJsonEndBlock(pack, text) : isAnchoredBlock(pack, text) ? readAnchoredBlock(pack, text) : readBlock(pack, text))
    if (endsItsCalls(pack)) r.endsCalls = true
    r.pairs = closerPairs(wholeDelimiters(pack))
    readers.set(pack, r)
  }
  return r
}
