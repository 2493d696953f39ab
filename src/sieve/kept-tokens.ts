/**
 * The tokens a capture keeps, shared by spelling: a block spells its tags
 * alike, and the lexer makes a token per tag, so of a parameter's seven
 * tokens held to the block's end, five would be the same tag tokens each
 * time. Tokens are values (the token memo shares them already), so the
 * capture keeps the last one it kept of a type and spelling for the next.
 */
import type { IToken } from 'chevrotain'

export class KeptTokens {
  /** By `tokenTypeIdx`: the last token kept of that type. */
  private readonly byType: Array<IToken | undefined> = []
  /** The types with a token in {@link byType}: what {@link forget} clears (it runs after every push). */
  private readonly used: number[] = []

  /** The token to keep for `tok`: the one kept last of its type when that one is spelled alike. */
  keep(tok: IToken): IToken {
    // a token carrying a Markdown state is its own
    if (tok.payload !== undefined) return tok
    const idx = tok.tokenTypeIdx
    const last = this.byType[idx]
    if (last !== undefined) {
      if (last.image === tok.image) return last
    } else {
      this.used.push(idx)
    }
    this.byType[idx] = tok
    return tok
  }

  /** Lets every kept token go: once no capture is open, nothing else holds them. */
  forget(): void {
    const used = this.used
    if (used.length === 0) return
    for (let i = 0; i < used.length; i++) this.byType[used[i]!] = undefined
    used.length = 0
  }
}
