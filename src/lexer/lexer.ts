/**
 * Wiring the generated token types into one Chevrotain multi-mode lexer per
 * grammar (compiled once, kept on the grammar: `grammar/derived.ts`), and
 * running it on a piece of text from a given mode and context.
 */
import { Lexer, type ILexingResult, type IToken, type TokenType } from 'chevrotain'
import { derived } from '../grammar/derived.js'
import { sharedGrammar } from '../grammar/fingerprint.js'
import type { Grammar } from '../grammar/types.js'
import { freshContext, type LexContext } from './context.js'
import { modes, type ModeName } from './modes.js'
import { buildModes, type CompiledModes } from './tokens.js'
import type { TokenInfo } from './token-factory.js'
import { allCategories } from './kinds.js'
import { enlist } from './token-registry.js'

/** A grammar's lexer: the compiled modes' tables (see {@link CompiledModes}) and its run. */
export interface CompiledLexer extends Pick<CompiledModes, 'maxDelimiter' | 'tagStartChars' | 'tagEndChars' | 'delimiterTokens' | 'prefixModes' | 'paramCloses' | 'tails'> {
  readonly grammar: Grammar
  /** Info per token type, indexed by `tokenTypeIdx` for a cheap lookup per token. */
  readonly infoByIdx: ReadonlyArray<TokenInfo | undefined>
  readonly typeByName: ReadonlyMap<string, TokenType>
  /** Run the lexer on `text` from `mode` with `ctx` (mutated: carry and markdown state at the end). */
  tokenize(text: string, mode: ModeName, ctx: LexContext): IToken[]
}

/** Each grammar's lexer: compiling one takes some 100 ms, and a sieve per turn is common. */
const lexers = new WeakMap<Grammar, CompiledLexer>()

/**
 * The lexer of `grammar`: compiled on first use and kept on it when
 * `validateGrammar` made it, else compiled every time. A grammar equal to
 * one given lately (`sharedGrammar`) gets that one's lexer: a config
 * validated or extended afresh per turn compiles nothing.
 */
export function compileLexer(grammar: Grammar): CompiledLexer {
  return derived(grammar, lexers, () => {
    const shared = sharedGrammar(grammar)
    return shared === grammar ? compile(grammar) : compileLexer(shared)
  })
}

let compiles = 0

/** How many lexers this process has compiled (for the tests that bound it). */
export function lexerCompiles(): number {
  return compiles
}

function compile(grammar: Grammar): CompiledLexer {
  compiles++
  const ctxRef: { current: LexContext } = { current: freshContext(false) }
  const built = buildModes(grammar, ctxRef)
  const lexer = new Lexer(
    { modes: built.modes, defaultMode: modes.prose },
    { positionTracking: 'onlyOffset', ensureOptimizations: true, recoveryEnabled: true, skipValidations: false },
  )
  built.releaseHints()
  // `tokenize` checks the definition errors on every call with lodash's isEmpty: a tenth of a short run's cost.
  // The definition was validated above (none, or the constructor threw), so runs call the method behind it
  // directly: chevrotain is pinned to an exact version, and the public method stays the fallback.
  const internal = (lexer as unknown as { tokenizeInternal?: (text: string, mode: string) => ILexingResult }).tokenizeInternal
  const run: (text: string, mode: string) => ILexingResult =
    typeof internal === 'function' && lexer.lexerDefinitionErrors.length === 0 ? internal.bind(lexer) : (text, mode) => lexer.tokenize(text, mode)
  const infoByIdx: Array<TokenInfo | undefined> = []
  const typeByName = new Map<string, TokenType>()
  for (const [t, info] of built.info) {
    infoByIdx[t.tokenTypeIdx!] = info
    typeByName.set(t.name, t)
  }
  for (const c of allCategories) typeByName.set(c.name, c)
  const compiled: CompiledLexer = {
    grammar,
    infoByIdx,
    typeByName,
    ...pick(built, 'maxDelimiter', 'tagStartChars', 'tagEndChars', 'delimiterTokens', 'prefixModes', 'paramCloses', 'tails'),
    tokenize(text, mode, ctx) {
      ctxRef.current = ctx
      const r = run(text, mode)
      // every mode ends in a catch-all token, so an error here is a bug: never let the lexer drop characters silently
      if (r.errors.length > 0) throw new Error(`lexer error in mode ${mode}: ${r.errors[0]!.message}`)
      return r.tokens
    },
  }
  enlist(compiled, built.info)
  return compiled
}

/** The `keys` of `o`, alone. */
function pick<T, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>
  for (const k of keys) out[k] = o[k]
  return out
}
