/**
 * Tokens made outside a lexer run (the fast path's, a flushed run's, a
 * checkpoint's) in the shape of the lexer's own: Chevrotain with
 * `positionTracking: "onlyOffset"` makes `{ image, startOffset,
 * tokenTypeIdx, tokenType }`. `createTokenInstance` adds five position
 * fields nothing here reads; with both shapes in one capture every access
 * to a token (the driver's, the parser's) had two maps to tell apart, and
 * each token took half as much memory again.
 */
import type { IToken, TokenType } from 'chevrotain'
import { cat, type CategoryName } from './kinds.js'
import type { CompiledLexer } from './lexer.js'

/**
 * The `startOffset` of a token made outside a lexer run, which no text
 * places. An integer, not NaN: one NaN makes V8 store the field of every
 * token of the shape as a boxed double, 16 bytes more per token held.
 */
export const unplaced = -1

export function tokenOf(type: TokenType, image: string, startOffset: number): IToken {
  return { image, startOffset, tokenTypeIdx: type.tokenTypeIdx!, tokenType: type }
}

/**
 * The role category of one of `lexer`'s tokens (docs/STYLE.md §8): its
 * type's, from the lexer's table. A token made here of a category type
 * itself (`tokenOf(lexer.typeByName.get('InvokeClose'), '', unplaced)`: the empty
 * closers of a self-closing invoke, of a wrapper or a CDATA the stream left
 * open, the Incomplete of a tail held at the stream's end) has no entry
 * there: its category is its type.
 */
export function categoryOf(lexer: CompiledLexer, token: IToken): CategoryName {
  const info = lexer.infoByIdx[token.tokenTypeIdx]
  if (info !== undefined) return info.category
  const name = token.tokenType.name as CategoryName
  if (cat[name] !== token.tokenType) throw new Error(`token type ${token.tokenType.name} is neither this lexer's nor a category`)
  return name
}
