/**
 * The block grammar, one reused Chevrotain parser instance per compiled lexer (docs/STYLE.md §9):
 *
 *   block     := WrapperOpen tagRest gap (invoke gap)+ WrapperClose
 *              | (invoke gap)+ WrapperClose            (missing opening wrapper)
 *   invoke    := InvokeOpen tagRest (JsonOpen JsonText* | (Ws | comment | param)*) InvokeClose
 *   param     := ParamOpen tagRest (ValueText | cdata | comment)* ParamClose
 *   tagRest   := (Ws | AttrName | Eq | Attr | QuoteOpen AttrText* QuoteClose)* TagEnd
 *
 * It consumes role categories only. Recovery is off: a block that does not
 * fit is released as text by the driver, never repaired into something plausible.
 */
import { EmbeddedActionsParser, type IToken } from 'chevrotain'
import { allCategories, cat, isAttrBlank } from '../lexer/kinds.js'
import type { CompiledLexer } from '../lexer/lexer.js'

/** One piece of a parameter value, in order. */
export interface ValuePart {
  kind: 'text' | 'cdata'
  text: string
}

/** Attributes by lower-cased name; the first value of a name wins. A Map: names are keys like any other, and a lookup by a fresh string costs no interning. */
export type Attributes = Map<string, string>

export interface ParsedParam {
  attrs: Attributes
  parts: ValuePart[]
  /**
   * The exact text between the parameter's tags, CDATA delimiters and
   * comments included: `string="true"` values are this text, untouched.
   */
  raw: string
}

export interface ParsedInvoke {
  attrs: Attributes
  params: ParsedParam[]
  /** The invoke body when it is a JSON object, verbatim. */
  json: string | null
  /**
   * The body held something besides whitespace and parameters (a comment, a
   * JSON body): strict mode refuses to turn such a body into a silent `{}`.
   */
  hasContent: boolean
  /** The invoke's opening tag's first token. */
  open: IToken
  /** The invoke's closing tag: where this call's raw markup ends. */
  close: IToken
}

export interface ParsedBlock {
  wrapperAttrs: Attributes | null
  invokes: ParsedInvoke[]
}

const equals = 0x3d

/** The key a tag's own value (`<function=f>`: `f`) is kept under: no attribute name can be `=`. */
export const tagValueKey = '='

/** Attribute names compare by lower case; most are lower case already (`name`, `string`), and stay the same string. */
function lower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c >= 0x41 && c <= 0x5a) || c > 0x7f) return s.toLowerCase()
  }
  return s
}

export class BlockParser extends EmbeddedActionsParser {
  constructor() {
    super(allCategories, { recoveryEnabled: false, maxLookahead: 2 })
    this.performSelfAnalysis()
  }

  block = this.RULE('block', (): ParsedBlock => {
    let wrapperAttrs: Attributes | null = null
    const invokes: ParsedInvoke[] = []
    this.OPTION(() => {
      this.CONSUME(cat.WrapperOpen)
      wrapperAttrs = this.SUBRULE(this.tagRest)
    })
    this.SUBRULE(this.gap)
    this.AT_LEAST_ONE(() => {
      invokes.push(this.SUBRULE(this.invoke))
      this.SUBRULE2(this.gap)
    })
    this.CONSUME(cat.WrapperClose)
    return { wrapperAttrs, invokes }
  })

  // Rule state lives on the instance and the alternatives of each OR are built once: Chevrotain's
  // `this.OR([...])` idiom allocates an array and a closure per alternative on every iteration, which
  // showed in allocation profiles (one block parse per block, every attribute a few iterations). No rule
  // re-enters itself (a tag holds no tag, a parameter no invoke), so one state slot per rule is enough.
  private inv: { params: ParsedParam[]; json: string | null; hasContent: boolean } = { params: [], json: null, hasContent: false }
  private par: { parts: ValuePart[]; raw: string[] } = { parts: [], raw: [] }
  private tag: { attrs: Attributes; pending: string | null; afterEq: boolean; word: string | null; value: string } = {
    attrs: new Map(),
    pending: null,
    afterEq: false,
    word: null,
    value: '',
  }
  private gapAlts?: Array<{ ALT: () => unknown }>
  private invokeAlts?: Array<{ ALT: () => unknown }>
  private paramAlts?: Array<{ ALT: () => unknown }>
  private tagAlts?: Array<{ ALT: () => unknown }>

  private gap = this.RULE('gap', () => {
    this.MANY(() => this.OR((this.gapAlts ??= [{ ALT: () => this.CONSUME(cat.Ws) }, { ALT: () => this.SUBRULE(this.comment) }])))
  })

  private invoke = this.RULE('invoke', (): ParsedInvoke => {
    const open = this.CONSUME(cat.InvokeOpen)
    const attrs = this.SUBRULE(this.tagRest)
    const inv = (this.inv = { params: [], json: null, hasContent: false })
    this.MANY(() => this.OR((this.invokeAlts ??= [
      { ALT: () => { this.CONSUME(cat.Ws) } },
      { ALT: () => { this.SUBRULE(this.comment); this.inv.hasContent = true } },
      { ALT: () => { this.inv.params.push(this.SUBRULE(this.param)) } },
      {
        ALT: () => {
          let body = this.CONSUME(cat.JsonOpen).image
          this.MANY2(() => { body += this.CONSUME(cat.JsonText).image })
          this.inv.json = this.inv.json === null ? body : this.inv.json + body
          this.inv.hasContent = true
        },
      },
    ])))
    const close = this.CONSUME(cat.InvokeClose)
    return { attrs, params: inv.params, json: inv.json, hasContent: inv.hasContent, open, close }
  })

  private param = this.RULE('param', (): ParsedParam => {
    this.CONSUME(cat.ParamOpen)
    const attrs = this.SUBRULE(this.tagRest)
    // raw pieces, joined once: a value can arrive as many tokens
    const par = (this.par = { parts: [], raw: [] })
    this.MANY(() => this.OR((this.paramAlts ??= [
      {
        ALT: () => {
          const text = this.CONSUME(cat.ValueText).image
          // a chunk boundary or a comment splits text; value rules see one run
          const parts = this.par.parts
          const last = parts[parts.length - 1]
          if (last !== undefined && last.kind === 'text') last.text += text
          else parts.push({ kind: 'text', text })
          this.par.raw.push(text)
        },
      },
      {
        ALT: () => {
          const open = this.CONSUME(cat.CDataOpen).image
          let text = ''
          this.MANY2(() => { text += this.CONSUME(cat.CDataText).image })
          const close = this.CONSUME(cat.CDataClose).image
          this.par.parts.push({ kind: 'cdata', text })
          this.par.raw.push(open, text, close)
        },
      },
      { ALT: () => { this.par.raw.push(this.SUBRULE(this.comment)) } },
    ])))
    this.CONSUME(cat.ParamClose)
    return { attrs, parts: par.parts, raw: par.raw.join('') }
  })

  /** Returns the comment's whole text, for a parameter's raw value. */
  private comment = this.RULE('comment', (): string => {
    let image = this.CONSUME(cat.CommentOpen).image
    this.MANY(() => { image += this.CONSUME(cat.CommentText).image })
    image += this.CONSUME(cat.CommentClose).image
    return image
  })

  /** A word ended (space, `=`, a quote, the tag end): it names an attribute, or is the value an `=` waited for. */
  private endWord(): void {
    const t = this.tag
    const word = t.word
    if (word === null) return
    if (t.afterEq && t.pending !== null) {
      if (t.attrs.get(t.pending) === '') t.attrs.set(t.pending, word)
      t.pending = null
    } else {
      t.pending = lower(word)
      if (!t.attrs.has(t.pending)) t.attrs.set(t.pending, '')
    }
    t.afterEq = false
    t.word = null
  }

  // the embedded actions of tagRest, made once (not recorded: they run only when parsing)
  private readonly endWordAction = (): void => this.endWord()
  private readonly eqAction = (): void => {
    this.endWord()
    const t = this.tag
    // `=` right after the tag's name (`<function=f>`): what follows is the tag's own value
    if (t.pending === null && t.attrs.size === 0) {
      t.pending = tagValueKey
      t.attrs.set(tagValueKey, '')
    }
    t.afterEq = true
  }
  private readonly quotedAction = (): void => {
    const tag = this.tag
    this.endWord()
    if (tag.pending !== null && tag.attrs.get(tag.pending) === '') tag.attrs.set(tag.pending, tag.value)
    tag.pending = null
    tag.afterEq = false
  }

  /**
   * A whole attribute token: exactly what its pieces (spaces, name, `=`,
   * quoted value) would have done, in order. The token's regex matched the
   * whole image (`attributeSource`), so its parts are read off by position.
   */
  private attribute(image: string): void {
    let i = 1
    while (isAttrBlank(image.charCodeAt(i))) i++
    let j = i + 1
    while (j < image.length && !isAttrBlank(image.charCodeAt(j)) && image.charCodeAt(j) !== equals) j++
    // past the `=` and the blanks around it: the opening quote; the closing one is the image's last character
    let q = j
    while (image.charCodeAt(q) !== equals) q++
    q++
    while (isAttrBlank(image.charCodeAt(q))) q++
    const t = this.tag
    if (t.word === null && !t.afterEq) {
      // nothing pending (the common case): the name takes this value unless it already has one
      const name = lower(image.slice(i, j))
      const had = t.attrs.get(name)
      if (had === undefined || had === '') t.attrs.set(name, image.slice(q + 1, image.length - 1))
      t.pending = null
      return
    }
    this.endWord()
    this.tag.word = image.slice(i, j)
    this.eqAction()
    this.tag.value = image.slice(q + 1, image.length - 1)
    this.quotedAction()
  }

  private tagRest = this.RULE('tagRest', (): Attributes => {
    // the attribute an `=` may still give a value to; the first value of a name wins;
    // a window boundary can split one word into two AttrName tokens: adjacent ones are one word
    const t = (this.tag = { attrs: new Map(), pending: null, afterEq: false, word: null, value: '' })
    this.MANY(() => this.OR((this.tagAlts ??= [
      { ALT: () => { this.CONSUME(cat.Ws); this.ACTION(this.endWordAction) } },
      {
        ALT: () => {
          const w = this.CONSUME(cat.AttrName).image
          this.ACTION(() => { this.tag.word = this.tag.word === null ? w : this.tag.word + w })
        },
      },
      { ALT: () => { this.CONSUME(cat.Eq); this.ACTION(this.eqAction) } },
      {
        ALT: () => {
          const image = this.CONSUME(cat.Attr).image
          this.ACTION(() => this.attribute(image))
        },
      },
      {
        ALT: () => {
          this.CONSUME(cat.QuoteOpen)
          this.tag.value = ''
          this.MANY2(() => { this.tag.value += this.CONSUME(cat.AttrText).image })
          this.CONSUME(cat.QuoteClose)
          this.ACTION(this.quotedAction)
        },
      },
    ])))
    this.ACTION(this.endWordAction)
    this.CONSUME(cat.TagEnd)
    return t.attrs
  })

  /** A parameter's opening tag on its own, through its end: what `streamArguments` reads as the tag ends. */
  private paramHead = this.RULE('paramHead', (): Attributes => {
    this.CONSUME(cat.ParamOpen)
    return this.SUBRULE(this.tagRest)
  })

  /** Parse one block's tokens; `null` when they do not form a block. */
  parseBlock(tokens: IToken[]): ParsedBlock | null {
    return this.parse(tokens, this.block)
  }

  /** Parse a parameter's opening tag (all of `tokens`); `null` when they are not one. */
  parseParamHead(tokens: IToken[]): Attributes | null {
    return this.parse(tokens, this.paramHead)
  }

  /** All of `tokens` by `rule`, which starts the parse; `null` when they do not form one. */
  private parse<T>(tokens: IToken[], rule: () => T): T | null {
    this.input = tokens
    const result = rule.call(this)
    const ok = this.errors.length === 0
    this.input = []
    return ok ? result : null
  }
}

/**
 * Parse one block of `lexer`'s tokens with that lexer's parser, made on the
 * first block and kept for the lexer. Made then, not
 * shared by every lexer: Chevrotain snapshots each category's members into
 * its lookahead tables when a parser analyses its grammar, so a parser made
 * before a grammar's token types (its spellings are new ones) would fail to
 * parse them: adjacent `</parameter><parameter …>` came out malformed.
 */
/** Each compiled lexer's block parser. */
const parsers = new WeakMap<CompiledLexer, BlockParser>()

function parserOf(lexer: CompiledLexer): BlockParser {
  let parser = parsers.get(lexer)
  if (parser === undefined) {
    parser = new BlockParser()
    parsers.set(lexer, parser)
  }
  return parser
}

export function parseBlock(lexer: CompiledLexer, tokens: IToken[]): ParsedBlock | null {
  return parserOf(lexer).parseBlock(tokens)
}

/** A parameter's opening tag of `lexer`'s tokens, as the block parser reads it in a block: its attributes, or null. */
export function parseParamHead(lexer: CompiledLexer, tokens: IToken[]): Attributes | null {
  return parserOf(lexer).parseParamHead(tokens)
}
