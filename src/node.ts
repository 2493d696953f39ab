/**
 * toolsieve/node: what needs Node's file system (Deno and Bun provide
 * `node:fs` too). Kept apart so that the main entry imports no `node:`
 * module and bundles for browsers and edge runtimes.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { GrammarError } from './errors.js'
import { isGrammarFile } from './grammar/load.js'
import type { Grammar } from './grammar/types.js'
import { deepFreeze, normalize, report, validateGrammar } from './grammar/validate.js'

/**
 * Load a grammar config. A string (relative to the working directory) or a
 * `file:` URL names a JSON file, read synchronously; any other value is
 * validated as the config itself, as the main entry's `loadGrammar` does.
 *
 * @throws {GrammarError} code `grammar-unreadable` (with the file as `field`)
 *   when the file cannot be read or is not JSON; code `invalid-grammar` when
 *   the config is invalid (see {@link validateGrammar}), naming the file.
 */
export function loadGrammar(source: unknown): Grammar {
  if (!isGrammarFile(source)) return validateGrammar(source)
  const file = typeof source === 'string' ? source : source.protocol === 'file:' ? fileURLToPath(source) : source.href
  let parsed: unknown
  try {
    // Editors on Windows like to start files with a BOM, which JSON.parse rejects.
    parsed = JSON.parse(readFileSync(source, 'utf8').replace(/^\uFEFF/, ''))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const what = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read'
    throw new GrammarError(`grammar file ${what}: ${reason}`, file, 'grammar-unreadable')
  }
  return report(() => deepFreeze(normalize(parsed)), `in ${file}`)
}
