/**
 * A tag's attributes, built from its tokens in order: the one reading of
 * the attribute syntax. The block parser's `tagRest` calls it as it
 * consumes a tag; `readTagHead` walks an opening tag's tokens by role
 * without the parser (`streamArguments` reads every parameter's tag as it
 * ends, and a block of 40,000 parameters paid a parse, its closures and
 * its maps for each).
 */
import type { IToken } from 'chevrotain'
import { isBlank } from '../lexer/codes.js'
import type { CategoryName } from '../lexer/kinds.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { categoryOf } from '../lexer/token-instance.js'
import { flagWord } from '../lexer/tokens.js'

/**
 * A tag's attributes by lower-cased name, in the order they came; the
 * first value of a name wins (the reader decides that, not this). The first
 * two live in fields and any more in a Map: a parsed block holds one per
 * tag (a block of 40,000 parameters, most with one or two attributes), and
 * a Map costs about 180 bytes. A Map, not a plain object, for the rest:
 * names are keys like any other, and a lookup by a fresh string costs no
 * interning.
 */
export class Attributes {
  private n0: string | null = null
  private v0 = ''
  private n1: string | null = null
  private v1 = ''
  private more: Map<string, string> | null = null
  /** Names written more than once in the tag (the first value stands); null while none is. */
  private twice: string[] | null = null

  /** Whether `name` was written more than once in the tag: readers refuse the tag where the name matters. */
  repeated(name: string): boolean {
    return this.twice !== null && this.twice.includes(name)
  }

  /** `name` came again in the tag. */
  again(name: string): void {
    if (!this.repeated(name)) (this.twice ??= []).push(name)
  }

  get size(): number {
    return (this.n0 === null ? 0 : 1) + (this.n1 === null ? 0 : 1) + (this.more === null ? 0 : this.more.size)
  }

  get(name: string): string | undefined {
    if (name === this.n0) return this.v0
    if (name === this.n1) return this.v1
    return this.more === null ? undefined : this.more.get(name)
  }

  has(name: string): boolean {
    return this.get(name) !== undefined
  }

  set(name: string, value: string): this {
    if (name === this.n0) this.v0 = value
    else if (name === this.n1) this.v1 = value
    else if (this.n0 === null) {
      this.n0 = name
      this.v0 = value
    } else if (this.n1 === null) {
      this.n1 = name
      this.v1 = value
    } else (this.more ??= new Map()).set(name, value)
    return this
  }

  *entries(): IterableIterator<[string, string]> {
    if (this.n0 !== null) yield [this.n0, this.v0]
    if (this.n1 !== null) yield [this.n1, this.v1]
    if (this.more !== null) yield* this.more
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }
}

/** What a tag's `string` attribute (named `stringAttr` in the grammar) says: see {@link flagWord}; null without one. */
export function stringFlagOf(attrs: Attributes, stringAttr: string): 'true' | 'false' | null {
  const value = attrs.get(stringAttr.toLowerCase())
  return value === undefined ? null : flagWord(value)
}

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
  attrs = new Attributes()
  /** The attribute an `=` may still give a value to. */
  private pending: string | null = null
  private afterEq = false
  /** A word not ended yet: a window boundary can split one word into two AttrName tokens, and adjacent ones are one word. */
  private word: string | null = null
  /** The quoted value being read. */
  value = ''

  /** Starts a new tag. */
  reset(): void {
    this.attrs = new Attributes()
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
      else this.attrs.again(this.pending)
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

  /** A quoted value closed (`value` holds it): the value of the attribute an `=` before it named, else of none. */
  quoted(): void {
    // a word right before the quote (`name"x"`) is an attribute with no `=`: nothing gives it this value
    const eq = this.afterEq && this.word === null
    this.endWord()
    if (eq && this.pending !== null && this.attrs.get(this.pending) === '') this.attrs.set(this.pending, this.value)
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
    while (isBlank(image.charCodeAt(i))) i++
    let j = i + 1
    while (j < image.length && !isBlank(image.charCodeAt(j)) && image.charCodeAt(j) !== equals) j++
    // past the `=` and the blanks around it: the opening quote; the closing one is the image's last character
    let q = j
    while (image.charCodeAt(q) !== equals) q++
    q++
    while (isBlank(image.charCodeAt(q))) q++
    if (this.word === null && !this.afterEq) {
      // nothing pending (the common case): the name takes this value unless it already has one
      const name = lower(image.slice(i, j))
      const had = this.attrs.get(name)
      if (had === undefined || had === '') this.attrs.set(name, image.slice(q + 1, image.length - 1))
      if (had !== undefined) this.attrs.again(name)
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
