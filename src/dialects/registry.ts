/**
 * The packs shipped in `grammar/dialects/`, validated, by name; and the
 * lookup the writers use for their `dialect` option.
 */
import { ToolsieveError } from '../errors.js'
import { dialectData } from './data.js'
import type { DialectPack } from './types.js'
import { validateDialect } from './validate.js'

/** Every shipped dialect pack by name (`dialects['qwen3-coder']`), as in `grammar/dialects/<name>.json`. */
export const dialects: Readonly<Record<string, DialectPack>> = Object.freeze(
  Object.fromEntries(Object.entries(dialectData).map(([name, data]) => [name, validateDialect(data)])),
)

/** Packs given as objects, validated: each object (and the pack made from it) to that pack, so a sieve per turn with the same pack validates it, and compiles its lexer, once. */
const checked = new WeakMap<object, DialectPack>()

/**
 * A pack by name, or a caller's own pack validated.
 *
 * @throws {ToolsieveError} `invalid-option` (`field` `dialect`) for an unknown
 *   name; `invalid-dialect` for a pack that does not validate.
 */
export function resolveDialect(dialect: string | DialectPack): DialectPack {
  if (typeof dialect === 'string') {
    const pack = Object.hasOwn(dialects, dialect) ? dialects[dialect] : undefined
    if (pack === undefined) throw new ToolsieveError('invalid-option', `no dialect named ${JSON.stringify(dialect)}; the packs are ${Object.keys(dialects).join(', ')}`, 'dialect')
    return pack
  }
  if (typeof dialect !== 'object' || dialect === null) throw new ToolsieveError('invalid-option', 'dialect must be a pack name or a pack', 'dialect')
  const known = checked.get(dialect)
  if (known !== undefined) return known
  const pack = validateDialect(dialect)
  checked.set(dialect, pack)
  checked.set(pack, pack)
  return pack
}
