/**
 * The built-in dialect. Read from `grammar/default.json` at run time rather
 * than imported as JSON, so the package ships one copy of the file (also
 * exported as `toolsieve/grammar/default.json`) and the same relative URL
 * resolves from `src/grammar/` (tsx, vitest) and from `dist/grammar/`.
 */
import { readFileSync } from 'node:fs'
import { validateGrammar } from './load.js'
import type { Grammar } from './types.js'

/**
 * The default grammar: DSML (ASCII and fullwidth bars, or a lone bar),
 * fully fullwidth, and plain XML frames, each with the bounded drift its
 * `description` names; wrapper names `tool_calls`, `function_calls` and
 * `calls` (DSML and fullwidth frames only). Validated, normalized and
 * deep-frozen.
 */
export const defaultGrammar: Grammar = validateGrammar(
  JSON.parse(readFileSync(new URL('../../grammar/default.json', import.meta.url), 'utf8')),
)
