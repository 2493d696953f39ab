/**
 * How a compiled lexer's token types live in Chevrotain's registry, and
 * leave it when the lexer goes. Chevrotain keeps every token type it ever
 * made in a module-level table (by `tokenTypeIdx`, read when it fills in
 * categories) that nothing empties, and lists each one in its categories'
 * `categoryMatchesMap` and `categoryMatches`: the role categories of
 * `kinds.ts`, shared by every lexer. Left to that, each lexer compiled for
 * a grammar of its own stayed forever (its token types' matchers close over
 * the grammar, which keeps the compiled lexer, some 2 MB, alive), and the
 * categories' lists grew by some 300 entries a lexer, which Chevrotain walks
 * whole for every token type it makes and every mode it builds: each
 * compile was slower than the one before.
 *
 * So a token type is made with no category and on an index a collected
 * lexer freed when there is one ({@link tokenType}); once the Chevrotain
 * lexer is built, {@link enlist} lists the types in their categories (the
 * parser reads them there; the lexer never does), takes their matchers off
 * them (the built lexer holds its own reference to each), and, when the
 * compiled lexer is collected, takes them out of the categories and frees
 * their indexes. What Chevrotain's table keeps of a type is then a name and
 * a few numbers, and neither it nor the lists outgrow the lexers alive at
 * once.
 */
import { createToken, type ITokenConfig, type TokenType } from 'chevrotain'
import { allCategories, cat, type CategoryName } from './kinds.js'

/** Indexes of token types whose lexer was collected, free for new token types. */
const free: number[] = []

const gone = new FinalizationRegistry<number[]>((indexes) => {
  for (const c of allCategories) {
    const map = c.categoryMatchesMap
    if (map === undefined) continue
    for (const i of indexes) delete map[i]
    if (c.categoryMatches !== undefined) c.categoryMatches = c.categoryMatches.filter((i) => map[i] === true)
  }
  free.push(...indexes)
})

/**
 * `createToken(config)`, with no category yet ({@link enlist} adds it), on an
 * index a collected lexer freed when there is one. Chevrotain gives an index
 * only to a type that has none; its table keeps the freed type under it, a
 * stub whose `tokenTypeIdx` is still that index: all it is read for.
 */
export function tokenType(config: ITokenConfig): TokenType {
  const index = free.pop()
  if (index === undefined) return createToken(config)
  const t: TokenType = { name: config.name, PATTERN: config.pattern, CATEGORIES: [], tokenTypeIdx: index, categoryMatches: [], categoryMatchesMap: {}, isParent: false }
  if (config.push_mode !== undefined) t.PUSH_MODE = config.push_mode
  if (config.line_breaks !== undefined) t.LINE_BREAKS = config.line_breaks
  if (config.start_chars_hint !== undefined) t.START_CHARS_HINT = config.start_chars_hint
  return t
}

/**
 * Lists each of `types` in its category, as `createToken` with `categories`
 * would have, and lets them go with `owner`, the compiled lexer. Call once
 * the Chevrotain lexer that holds them is built.
 */
export function enlist(owner: object, types: Iterable<[TokenType, { category: CategoryName }]>): void {
  const indexes: number[] = []
  for (const [t, { category }] of types) {
    const c = cat[category]
    const index = t.tokenTypeIdx!
    t.CATEGORIES = [c]
    c.categoryMatchesMap![index] = true
    c.categoryMatches!.push(index)
    c.isParent = true
    delete (t as { PATTERN?: unknown }).PATTERN
    indexes.push(index)
  }
  gone.register(owner, indexes)
}

/** How many freed indexes wait for reuse (for the bound's tests). */
export function freeIndexCount(): number {
  return free.length
}
