/**
 * Tokens made outside a lexer run (the fast lane's, a flushed run's, a
 * checkpoint's) in the shape of the lexer's own: Chevrotain with
 * `positionTracking: "onlyOffset"` makes `{ image, startOffset,
 * tokenTypeIdx, tokenType }`. `createTokenInstance` adds five position
 * fields nothing here reads; with both shapes in one capture every access
 * to a token (the driver's, the parser's) had two maps to tell apart, and
 * each token took half as much memory again.
 */
import type { IToken, TokenType } from 'chevrotain'

export function tokenOf(type: TokenType, image: string, startOffset: number): IToken {
  return { image, startOffset, tokenTypeIdx: type.tokenTypeIdx!, tokenType: type }
}
