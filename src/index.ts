/** toolsieve: pull tool calls out of a language model's text stream. */
export { createSieve } from './sieve/create.js'
export { parseToolCalls } from './parse.js'
export { formatToolCalls } from './format/format.js'
export { defaultGrammar } from './grammar/default.js'
export { extendGrammar, loadGrammar, validateGrammar } from './grammar/load.js'
export { ToolsieveError, GrammarError, type ToolsieveErrorCode } from './errors.js'
export type * from './types.js'
export type { Grammar, GrammarPatch, Frame, FramePart, FrameSequence, Role, RoleName } from './grammar/types.js'
