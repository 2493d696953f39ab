/**
 * The built-in dialect. `grammar/default.json` is the source; its data comes
 * from the generated `default-data.ts` rather than a read of the file at run
 * time, so the main entry imports no `node:` module and works bundled, in
 * browsers and on edge runtimes, where there is no file beside the code.
 */
import { defaultGrammarConfig } from './default-data.js'
import { validateGrammar } from './validate.js'
import type { Grammar } from './types.js'

/**
 * The default grammar: DSML (ASCII and fullwidth bars, or a lone bar),
 * fully fullwidth, and plain XML frames, each with the bounded drift its
 * `description` names; wrapper names `tool_calls`, `function_calls` and
 * `calls` (DSML and fullwidth frames only). Validated, normalized and
 * deep-frozen.
 */
export const defaultGrammar: Grammar = validateGrammar(defaultGrammarConfig)
