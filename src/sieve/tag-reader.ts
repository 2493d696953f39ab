/**
 * A deferred tag read without the lexer (docs/DESIGN.md, "The sieve's shape"). When the
 * deferral stops (`deferral.ts`), the pending text is most often one opening
 * tag in its common shape: the tag's name, whole attributes, spaces, the
 * tag end, then value text, or the blanks before the next tag. Each of those
 * is one token of one mode, matched by one regex or character class, and
 * nothing earlier in the mode's token order can match there; this reads
 * them into the tokens the lexer would make. Any other shape (an attribute
 * the text does not close, a line break inside the tag, a stray character,
 * blanks at the end of the text, which the lexer holds) ends the reading,
 * and the lexer takes the rest.
 */
import type { IToken, TokenType } from 'chevrotain'
import { tokenOf } from '../lexer/token-instance.js'
import { codes } from '../lexer/codes.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { openingModes, rowOf } from '../lexer/structure.js'
import { copyMarkdown, type MarkdownState } from '../lexer/context.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import { TailMatcher } from '../lexer/tail.js'
import { attribute, stringFlag } from '../lexer/tokens.js'
import { compileAttrGap, growsAt, type CompiledGap } from '../lexer/frames.js'
import { CaptureRules } from './capture-rules.js'
import type { CharSet } from './char-set.js'

interface TagTypes {
  /** The tag mode these are the tokens of. */
  mode: ModeName
  attr: TokenType
  ws: TokenType
  end: TokenType
  /** The frames' drift before an attribute (`<|DSML|invoke| name="x">`), when the grammar has any. */
  gap?: TokenType
  body: ModeName
  /** A parameter tag's end when its `string` attribute makes the value raw, and that mode. */
  raw?: { end: TokenType; body: ModeName }
}

interface OpenerHit {
  type: TokenType
  info: TokenInfo
  /** Where the name ends. */
  end: number
  /** The delimiter's index in the mode's tail matcher. */
  d: number
  matcher: TailMatcher
}

/** A parameter's value: text up to a tag start; between tags: blanks before one. */
type BodyTypes = { text: TokenType } | { ws: TokenType; nl: TokenType }

export class TagReader {
  private readonly tags = new Map<ModeName, TagTypes>()
  private readonly bodies = new Map<ModeName, BodyTypes>()
  private readonly cdataText: TokenType
  private readonly rules = new CaptureRules()
  /** The grammar's `string` attribute, lower case. */
  private readonly stringName: string
  /** Every value is raw (`values.strings: 'raw'`). */
  private readonly rawValues: boolean
  /** The grammar's attribute gaps, and a matcher of what may still become one (see `compileAttrGap`); null: none. */
  private readonly gap: { compiled: CompiledGap; held: TailMatcher } | null

  constructor(private readonly lexer: CompiledLexer, private readonly tagStarts: CharSet) {
    const type = (name: string): TokenType => {
      const t = lexer.typeByName.get(name)
      if (t === undefined) throw new Error(`no token type ${name}`)
      return t
    }
    const compiled = compileAttrGap(lexer.grammar)
    this.gap = compiled === null ? null : { compiled, held: new TailMatcher([compiled.held]) }
    // each opening tag, the body its end leads to (the structure table's), and a parameter's raw value
    const bodies: ModeName[] = [modes.rawValue]
    for (const [role, tag] of openingModes) {
      const body = rowOf(tag)!.opening!.end
      bodies.push(body)
      this.tags.set(tag, { mode: tag, attr: type(`${tag}.Attr`), ws: type(`${tag}.Ws`), end: type(`${tag}.TagEnd>${body}`), body, ...(compiled === null ? {} : { gap: type(`${tag}.AttrGap`) }) })
      if (role === 'parameter') this.tags.get(tag)!.raw = { end: type(`${tag}.TagEndRaw>${modes.rawValue}`), body: modes.rawValue }
    }
    this.stringName = (lexer.grammar.attributes?.string ?? 'string').toLowerCase()
    this.rawValues = lexer.grammar.values?.strings === 'raw'
    // a body's text is a value up to a tag start, or blanks between tags
    for (const body of bodies) {
      const category = rowOf(body)!.text
      this.bodies.set(body, category === 'ValueText' ? { text: type(`${body}.ValueText`) } : { ws: type(`${body}.Ws`), nl: type(`${body}.Nl`) })
    }
    this.cdataText = type(`${modes.cdata}.CDataText`)
  }

  /**
   * The tokens at the start of `text`, lexed from `mode` (prose or a body
   * mode whose text opens a tag, or a tag mode), through the tag's end and
   * its value or blanks; and where they end. Null when the tag's end is not
   * reached.
   */
  read(mode: ModeName, text: string): { tokens: IToken[]; end: number } | null {
    const tokens: IToken[] = []
    let at = 0
    let tag = this.tags.get(mode)
    if (tag === undefined) {
      const opened = this.opener(mode, text)
      if (opened === null) return null
      tokens.push(opened.token)
      at = opened.token.image.length
      tag = opened.tag
    }
    const tagEnd = this.lexer.tagEnd
    // as the lexer's `Attr` token sets `LexContext.rawNext`: the first `string` attribute decides
    let raw: boolean | null = this.rawValues ? true : null
    for (;;) {
      if (at >= text.length) return null
      // a gap before an attribute comes before the tag end, which would take a bar alone; one the text end leaves
      // undecided is the lexer's to hold
      const gap = this.gap
      if (gap !== null && tag.gap !== undefined) {
        const re = gap.compiled.sticky
        re.lastIndex = at
        if (re.test(text)) {
          tokens.push(token(tag.gap, text, at, re.lastIndex))
          at = re.lastIndex
          continue
        }
        if (text.length - at <= gap.compiled.held.maxLength && gap.held.isPrefix(text, at)) return null
      }
      // the tag end (spaces before it included) comes first in a tag mode's tokens; one the text end could still
      // lengthen is the lexer's to hold
      // (sticky tests: where a match ends is their lastIndex, with no match array made)
      tagEnd.sticky.lastIndex = at
      if (tagEnd.sticky.test(text)) {
        const end = tagEnd.sticky.lastIndex
        if (growsAt(tagEnd, text, at)) return null
        tokens.push(token(raw === true && tag.raw !== undefined ? tag.raw.end : tag.end, text, at, end))
        at = end
        break
      }
      attribute.lastIndex = at
      const whole = attribute.test(text)
      let end = whole ? attribute.lastIndex : at
      if (!whole) while (end < text.length && isSpace(text.charCodeAt(end))) end++
      // a line break in a tag could put a line prefix (the lexer holds one at the end of a text) inside it
      if (end === at || (whole && hasLineFeed(text, at, end))) return null
      tokens.push(token(whole ? tag.attr : tag.ws, text, at, end))
      if (whole && raw === null && tag.raw !== undefined) raw = stringFlag(text.slice(at, end), this.stringName)
      at = end
    }
    return { tokens, end: this.body(raw === true && tag.raw !== undefined ? tag.raw.body : tag.body, text, at, tokens) }
  }

  /**
   * CDATA content and its end (`a[i]]]>`) in one text: the content's token
   * and the `]]>` token, the lexer's types, and where they end. Null when
   * `]]>` is not in `text`.
   */
  cdataEnd(text: string): { tokens: IToken[]; end: number } | null {
    const at = text.indexOf(']]>')
    const close = this.lexer.delimiterTokens.get(modes.cdata)?.[0]
    if (at < 0 || close === null || close === undefined) return null
    const tokens = at > 0 ? [token(this.cdataText, text, 0, at)] : []
    tokens.push(token(close, text, at, at + 3))
    return { tokens, end: at + 3 }
  }

  /**
   * The opening tag whose name `text` starts with, in body mode `mode`, when
   * it continues the block (in prose: starts one): its token, and the tag
   * mode that token pushes.
   */
  opener(mode: ModeName, text: string): { token: IToken; tag: TagTypes } | null {
    const hit = this.openerHit(mode, text)
    const tag = hit === null || hit.info.push === null ? undefined : this.tags.get(hit.info.push)
    if (hit === null || tag === undefined || (mode !== modes.prose && !this.rules.continues(mode, hit.info.category)) || !hit.matcher.confirms(hit.d, text, hit.end)) return null
    return { token: token(hit.type, text, 0, hit.end), tag }
  }

  /**
   * The opening tag whose name `text` starts with, in prose or a pending
   * code span, when it starts no block there: its token, which is text where
   * it stands (`<｜DSML｜parameter` in prose), or held until the span decides
   * (after an unmatched backtick: `spanHold`), carrying the Markdown state
   * `md` with the levels open at it, as the lexer's delimiter token sets it.
   */
  mention(mode: ModeName, text: string, md: MarkdownState): IToken | null {
    const hit = this.openerHit(mode, text)
    if (hit === null || (hit.info.push !== mode && hit.info.push !== modes.spanHold) || !hit.matcher.confirms(hit.d, text, hit.end)) return null
    const tok = token(hit.type, text, 0, hit.end)
    if (hit.info.push === modes.spanHold) {
      const held: MarkdownState = copyMarkdown(md)
      held.holdDepth = md.levels.length
      tok.payload = held
    }
    return tok
  }

  /** The opener name `text` starts with in `mode` (`TailMatcher.openerAt`), its token type, and the matcher whose `confirms` checks it by the type's own regex. */
  private openerHit(mode: ModeName, text: string): OpenerHit | null {
    const lexer = this.lexer
    const matcher = lexer.tails.get(mode)
    const types = lexer.delimiterTokens.get(mode)
    if (matcher === undefined || types === undefined) return null
    const hit = matcher.openerAt(text)
    const type = hit === null ? null : types[hit.d]
    if (hit === null || type === null || type === undefined) return null
    return { type, info: lexer.infoByIdx[type.tokenTypeIdx!]!, end: hit.end, d: hit.d, matcher }
  }

  /** After the tag end: value text up to a tag start, or blanks before one (not blanks that end the text). */
  private body(mode: ModeName, text: string, at: number, tokens: IToken[]): number {
    const b = this.bodies.get(mode)
    if (b === undefined) return at
    if ('text' in b) {
      let end = at
      while (end < text.length && !this.tagStarts.has(text.charCodeAt(end))) end++
      if (end > at) tokens.push(token(b.text, text, at, end))
      return end
    }
    let end = at
    while (end < text.length && (isSpace(text.charCodeAt(end)) || text.charCodeAt(end) === codes.lineFeed)) end++
    if (end === text.length || !this.tagStarts.has(text.charCodeAt(end))) return at
    while (at < end) {
      let next = at + 1
      if (text.charCodeAt(at) !== codes.lineFeed) while (next < end && isSpace(text.charCodeAt(next))) next++
      tokens.push(token(text.charCodeAt(at) === codes.lineFeed ? b.nl : b.ws, text, at, next))
      at = next
    }
    return end
  }
}

function hasLineFeed(text: string, from: number, to: number): boolean {
  const i = text.indexOf('\n', from)
  return i >= 0 && i < to
}

function isSpace(c: number): boolean {
  return c === codes.space || c === codes.tab || c === codes.carriageReturn
}

function token(type: TokenType, text: string, start: number, end: number): IToken {
  return tokenOf(type, text.slice(start, end), start)
}
