/**
 * Loading grammar configs from objects; validation and extension live in
 * `validate.ts` and `extend.ts` (re-exported here, the module users have
 * always imported). Reading a JSON file needs `node:fs`, so that lives in
 * `src/node.ts` (`toolsieve/node`), out of the main entry's import graph.
 */
import { GrammarError } from '../errors.js'
import type { Grammar } from './types.js'
import { validateGrammar } from './validate.js'

export { validateGrammar } from './validate.js'
export { extendGrammar } from './extend.js'

/** A file name or URL, which only `toolsieve/node` can read. */
export function isGrammarFile(source: unknown): source is string | URL {
  return typeof source === 'string' || source instanceof URL
}

/**
 * Load a grammar config: the parsed JSON, validated (see
 * {@link validateGrammar}). To read a JSON file, use `loadGrammar` from
 * `toolsieve/node`.
 *
 * @throws {GrammarError} code `grammar-unreadable` (with the file as `field`)
 *   for a string or URL, naming `toolsieve/node`: the main entry reads no
 *   files, so that it runs where there is no file system; code
 *   `invalid-grammar` when the config is invalid.
 */
export function loadGrammar(source: unknown): Grammar {
  if (isGrammarFile(source)) {
    throw new GrammarError(
      "the main entry reads no files (it runs in browsers and on edge runtimes too): import { loadGrammar } from 'toolsieve/node' to read a grammar file, or pass the parsed JSON",
      String(source),
      'grammar-unreadable',
    )
  }
  return validateGrammar(source)
}
