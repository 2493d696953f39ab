/**
 * How a pack's tags are spelled as strings: the XML spelling unless the
 * pack says otherwise (`DialectPack.tagSpelling`), and a delimiter as the
 * strings it is written with. The writer, the reader and the grammar built
 * for the sieve all spell tags through these.
 */
import type { Delimiter, DialectPack, TagSpelling } from './types.js'

/** `<name>` and `</name>`. */
export const xmlSpelling: TagSpelling = { open: '<', close: '</', end: '>' }

/** The spelling of `pack`'s tags. */
export function spellingOf(pack: DialectPack): TagSpelling {
  return pack.tagSpelling ?? xmlSpelling
}

/** The strings a delimiter is spelled with: a literal's texts, a tag as its opener or closer in the spelling `sp`; none for any other kind. */
export function spellings(d: Delimiter | undefined, role: 'open' | 'close', sp: TagSpelling): string[] {
  if (d === undefined) return []
  if (d.kind === 'literal') return d.text
  if (d.kind === 'tag') return [role === 'open' ? sp.open + d.name + sp.end : sp.close + d.name + sp.end]
  return []
}
