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
import { allCategories, cat } from '../lexer/kinds.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { TagAttributes, type Attributes } from './tag-attributes.js'

/** One piece of a parameter value, in order. */
export interface ValuePart {
  kind: 'text' | 'cdata'
  text: string
}

export type { Attributes } from './tag-attributes.js'

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
  private readonly tag = new TagAttributes()
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
    this.par = { parts: [], raw: [] }
    this.MANY(() => this.OR((this.paramAlts ??= [
      {
        ALT: () => {
          const text = this.CONSUME(cat.ValueText).image
          // a chunk boundary or a comment splits text; value rules see one run
          const parts = this.par.parts
          const last = parts[parts.length - 1]
          if (last !== undefined && last.kind === 'text') last.text += text
          else this.addPart({ kind: 'text', text })
          this.par.raw.push(text)
        },
      },
      {
        ALT: () => {
          const open = this.CONSUME(cat.CDataOpen).image
          let text = ''
          this.MANY2(() => { text += this.CONSUME(cat.CDataText).image })
          const close = this.CONSUME(cat.CDataClose).image
          this.addPart({ kind: 'cdata', text })
          this.par.raw.push(open, text, close)
        },
      },
      { ALT: () => { this.par.raw.push(this.SUBRULE(this.comment)) } },
    ])))
    this.CONSUME(cat.ParamClose)
    return { attrs, parts: this.par.parts, raw: this.par.raw.join('') }
  })

  /** A value's next part. Most values are one part: an array of exactly that, not one a push grows to 17 slots (a block holds them all). */
  private addPart(part: ValuePart): void {
    if (this.par.parts.length === 0) this.par.parts = [part]
    else this.par.parts.push(part)
  }

  /** Returns the comment's whole text, for a parameter's raw value. */
  private comment = this.RULE('comment', (): string => {
    let image = this.CONSUME(cat.CommentOpen).image
    this.MANY(() => { image += this.CONSUME(cat.CommentText).image })
    image += this.CONSUME(cat.CommentClose).image
    return image
  })

  // the embedded actions of tagRest, made once (not recorded: they run only when parsing)
  private readonly endWordAction = (): void => this.tag.endWord()
  private readonly eqAction = (): void => this.tag.eq()
  private readonly quotedAction = (): void => this.tag.quoted()

  /** The image of the token an action below reads (set as the token is consumed: the actions are made once, not per token). */
  private image = ''
  private readonly wordAction = (): void => this.tag.addWord(this.image)
  private readonly attributeAction = (): void => this.tag.attribute(this.image)

  private tagRest = this.RULE('tagRest', (): Attributes => {
    this.tag.reset()
    const attrs = this.tag.attrs
    this.MANY(() => this.OR((this.tagAlts ??= [
      { ALT: () => { this.CONSUME(cat.Ws); this.ACTION(this.endWordAction) } },
      { ALT: () => { this.image = this.CONSUME(cat.AttrName).image; this.ACTION(this.wordAction) } },
      { ALT: () => { this.CONSUME(cat.Eq); this.ACTION(this.eqAction) } },
      { ALT: () => { this.image = this.CONSUME(cat.Attr).image; this.ACTION(this.attributeAction) } },
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
    return attrs
  })

  /** Parse one block's tokens; `null` when they do not form a block. */
  parseBlock(tokens: IToken[]): ParsedBlock | null {
    this.input = tokens
    const result = this.block()
    const ok = this.errors.length === 0
    // the parser outlives the block (one per lexer): it keeps nothing of it, not the last invoke's parameters
    this.input = []
    this.inv = { params: [], json: null, hasContent: false }
    this.par = { parts: [], raw: [] }
    this.tag.reset()
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
