/**
 * Loading grammar configs from objects and JSON files; validation and
 * extension live in `validate.ts` and `extend.ts` (re-exported here, the
 * module users have always imported).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { GrammarError } from '../errors.js'
import type { Grammar } from './types.js'
import { deepFreeze, normalize, report, validateGrammar } from './validate.js'

export { validateGrammar } from './validate.js'
export { extendGrammar } from './extend.js'

/**
 * Load a grammar config. A string (relative to the working directory) or a
 * `file:` URL names a JSON file, read synchronously; any other value is
 * validated as the config itself.
 *
 * @throws {GrammarError} code `grammar-unreadable` (with the file as `field`)
 *   when the file cannot be read or is not JSON; code `invalid-grammar` when
 *   the config is invalid (see {@link validateGrammar}).
 */
export function loadGrammar(source: unknown | string | URL): Grammar {
  if (typeof source !== 'string' && !(source instanceof URL)) return validateGrammar(source)
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

