/**
 * A tag's attributes, built from its tokens in order: the one reading of
 * the attribute syntax. The block parser's `tagRest` calls it as it
 * consumes a tag; `readTagHead` walks an opening tag's tokens by role
 * without the parser (`streamArguments` reads every parameter's tag as it
 * ends, and a block of 40,000 parameters paid a parse, its closures and
 * its maps for each).
 */
import type { IToken } from 'chevrotain'
import { isAttrBlank, type CategoryName } from '../lexer/kinds.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { categoryOf } from '../lexer/token-instance.js'

/** Attributes by lower-cased name; the first value of a name wins. A Map: names are keys like any other, and a lookup by a fresh string costs no interning. */
export type Attributes = Map<string, string>

/** The key a tag's own value (`<function=f>`: `f`) is kept under: no attribute name can be `=`. */
export const tagValueKey = '='

const equals = 0x3d

/** Attribute names compare by lower case; most are lower case already (`name`, `string`), and stay the same string. */
function lower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c >= 0x41 && c <= 0x5a) || c > 0x7f) return s.toLowerCase()
  }
  return s
}

/** One tag's attributes as its pieces arrive: spaces, words, `=`, whole attribute tokens, quoted values. */
export class TagAttributes {
  attrs: Attributes = new Map()
  /** The attribute an `=` may still give a value to. */
  private pending: string | null = null
  private afterEq = false
  /** A word not ended yet: a window boundary can split one word into two AttrName tokens, and adjacent ones are one word. */
  private word: string | null = null
  /** The quoted value being read. */
  value = ''

  /** Starts a new tag. */
  reset(): void {
    this.attrs = new Map()
    this.pending = null
    this.afterEq = false
    this.word = null
    this.value = ''
  }

  /** A word ended (space, `=`, a quote, the tag end): it names an attribute, or is the value an `=` waited for. */
  endWord(): void {
    const word = this.word
    if (word === null) return
    if (this.afterEq && this.pending !== null) {
      if (this.attrs.get(this.pending) === '') this.attrs.set(this.pending, word)
      this.pending = null
    } else {
      this.pending = lower(word)
      if (!this.attrs.has(this.pending)) this.attrs.set(this.pending, '')
    }
    this.afterEq = false
    this.word = null
  }

  addWord(w: string): void {
    this.word = this.word === null ? w : this.word + w
  }

  eq(): void {
    this.endWord()
    // `=` right after the tag's name (`<function=f>`): what follows is the tag's own value
    if (this.pending === null && this.attrs.size === 0) {
      this.pending = tagValueKey
      this.attrs.set(tagValueKey, '')
    }
    this.afterEq = true
  }

  /** A quoted value closed (`value` holds it). */
  quoted(): void {
    this.endWord()
    if (this.pending !== null && this.attrs.get(this.pending) === '') this.attrs.set(this.pending, this.value)
    this.pending = null
    this.afterEq = false
  }

  /**
   * A whole attribute token: exactly what its pieces (spaces, name, `=`,
   * quoted value) would have done, in order. The token's regex matched the
   * whole image (`attributeSource`), so its parts are read off by position.
   */
  attribute(image: string): void {
    let i = 1
    while (isAttrBlank(image.charCodeAt(i))) i++
    let j = i + 1
    while (j < image.length && !isAttrBlank(image.charCodeAt(j)) && image.charCodeAt(j) !== equals) j++
    // past the `=` and the blanks around it: the opening quote; the closing one is the image's last character
    let q = j
    while (image.charCodeAt(q) !== equals) q++
    q++
    while (isAttrBlank(image.charCodeAt(q))) q++
    if (this.word === null && !this.afterEq) {
      // nothing pending (the common case): the name takes this value unless it already has one
      const name = lower(image.slice(i, j))
      const had = this.attrs.get(name)
      if (had === undefined || had === '') this.attrs.set(name, image.slice(q + 1, image.length - 1))
      this.pending = null
      return
    }
    this.endWord()
    this.word = image.slice(i, j)
    this.eq()
    this.value = image.slice(q + 1, image.length - 1)
    this.quoted()
  }
}

const reader = new TagAttributes()

/**
 * The attributes of the opening tag in `tokens[from..to)` (an `open`
 * token, its attribute pieces, its `TagEnd` last), read by role as the
 * block parser's `tagRest` reads them; null when the tokens are not one
 * such tag.
 */
export function readTagHead(lexer: CompiledLexer, tokens: readonly IToken[], from: number, to: number, open: CategoryName): Attributes | null {
  if (to - from < 2 || categoryOf(lexer, tokens[from]!) !== open) return null
  const r = reader
  r.reset()
  let inQuote = false
  for (let k = from + 1; k < to - 1; k++) {
    const t = tokens[k]!
    const c = categoryOf(lexer, t)
    if (inQuote) {
      if (c === 'AttrText') r.value += t.image
      else if (c === 'QuoteClose') {
        inQuote = false
        r.quoted()
      } else return null
    } else if (c === 'Ws') r.endWord()
    else if (c === 'AttrName') r.addWord(t.image)
    else if (c === 'Eq') r.eq()
    else if (c === 'Attr') r.attribute(t.image)
    else if (c === 'QuoteOpen') {
      inQuote = true
      r.value = ''
    } else return null
  }
  if (inQuote || categoryOf(lexer, tokens[to - 1]!) !== 'TagEnd') return null
  r.endWord()
  return r.attrs
}
