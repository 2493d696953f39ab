/**
 * Generates the lexer's modes from a grammar config: every mode's token
 * list, in the order Chevrotain tries them (the first match wins), made of
 * the token types of `token-factory.ts`.
 */
import type { TokenType } from 'chevrotain'
import type { Grammar, Role } from '../grammar/types.js'
import { classUnits, codeAt, codes, isBlank, escapeRegExp, isNameChar, nameCharClass, nameChars } from './codes.js'
import { attributeSource, type CategoryName } from './kinds.js'
import { growsAt, compileAttrGap, compileClose, compileLiterals, compileOpen, compileTagEnd, type CompiledDelimiter } from './frames.js'
import type { LexContext } from './context.js'
import { modes, type ModeName } from './modes.js'
import { charsOf, jsonNext, tagCategory, literalNext, literalOnly, openingModes, rowOf, tagTargets, type TagKey } from './structure.js'
import { markdownTokens } from './tokens-markdown.js'
import { htmlTokens, type Opener } from './tokens-html.js'
import { TailMatcher } from './tail.js'
import { jsonBlockTokens } from './json-tokens.js'
import { messageStartTokens } from './start-tokens.js'
import { TokenFactory, matched, stickyAt, type TokenInfo } from './token-factory.js'

const roles: Role[] = ['wrapper', 'invoke', 'parameter']
/** The frame name of `Grammar.blocks`' literal delimiters (no frame can be named so: names are words). */
export const literalFrame = '<literal>'
/** The spelling family of `Grammar.blocks.json`' openers; their tokens' frame is {@link literalFrame} (read whole). */
const jsonFrame = '<json>'

/** The `Attr` token at an offset (the parser reads it as the pieces it stands for). */
export const attribute = new RegExp(attributeSource, 'y')
/** The capture modes between tags, where closing tags come most often. */
const bodyModes: ReadonlySet<ModeName> = new Set<ModeName>([modes.value, modes.invokeBody, modes.wrapperBody, modes.jsonBody])

type TagTargets = Partial<Record<TagKey, ModeName>>

export interface CompiledModes {
  modes: Record<ModeName, TokenType[]>
  info: Map<TokenType, TokenInfo>
  /** Longest delimiter: the bound on a held tail outside a capture. */
  maxDelimiter: number
  /** Characters that can start a tag in any frame. */
  tagStartChars: number[]
  /** Per mode, the matcher for its undecided tails (shared by the Incomplete token, the plain-`<` token and the driver). */
  tails: Map<ModeName, TailMatcher>
  /** Single characters that are a whole tag end, one nothing can lengthen (`>`, `＞`): right after an attribute they end the tag. */
  tagEndChars: number[]
  /**
   * Per capture body mode, CDATA, prose and span, the token type of each delimiter
   * of its tail matcher, by index (null: one the driver leaves to the
   * lexer). A closing tag (or `<![CDATA[`, `]]>`) the matcher completes for
   * good, or an opening tag's name and boundary, is exactly the token the
   * lexer would produce at the start of a text there, so the driver can take
   * it without a lexer run.
   */
  delimiterTokens: Map<ModeName, ReadonlyArray<TokenType | null>>
  /** Modes that hold a line-start prefix at the end of a text (the fast path must hold it too). */
  prefixModes: ReadonlySet<ModeName>
  /** Every family's parameter closer: where an unclosed CDATA is cut at the end of the stream (`unclosedCdata`). */
  paramCloses: readonly CompiledDelimiter[]
  /** Call once the Chevrotain lexer is built from {@link modes} (`TokenFactory.releaseHints`). */
  releaseHints(): void
}

/**
 * What a whole attribute (` name="value"`) says about a raw value: null when
 * it is not the `string` attribute (`name`, lower case), else whether its
 * value is `true` or `false` (DeepSeek-native: the value is read exactly).
 */
export function stringFlag(image: string, name: string): boolean | null {
  // most attributes are another one (` name="path"`): told apart by char codes, with no slice or trim. The name an
  // `Attr` token holds is ASCII name characters between blanks (`attributeSource`), so lowering it is ASCII's.
  let i = 0
  while (isBlank(codeAt(image, i))) i++
  let j = i
  while (j < image.length && isNameChar(codeAt(image, j))) j++
  let k = j
  while (isBlank(codeAt(image, k))) k++
  if (j > i && codeAt(image, k) === codes.equalsTo) {
    if (!sameAsciiLower(image, i, j, name)) return null
    // and its value as DeepSeek's encoders write it: `"true"` or `"false"`, nothing around the word
    let q = k + 1
    while (isBlank(codeAt(image, q))) q++
    const quote = codeAt(image, q)
    const n = image.length - q - 2
    if ((quote === codes.quotationMark || quote === codes.apostrophe) && codeAt(image, image.length - 1) === quote) {
      if ((n === 4 && image.startsWith('true', q + 1)) || (n === 5 && image.startsWith('false', q + 1))) return true
    }
  }
  const eq = image.indexOf('=')
  if (image.slice(0, eq).trim().toLowerCase() !== name) return null
  return flagWord(image.slice(eq + 1).trim().slice(1, -1)) !== null
}

/**
 * What a `string` attribute's value says, as every reader of it reads it
 * (the lexer's raw-value switch, argument streaming, the decoder): `true`
 * or `false` in any case with XML blanks around the word, else null. Only
 * XML blanks: a U+3000 or U+00A0 makes the word another one.
 */
export function flagWord(value: string): 'true' | 'false' | null {
  let i = 0
  let j = value.length
  while (i < j && isBlank(codeAt(value, i))) i++
  while (j > i && isBlank(codeAt(value, j - 1))) j--
  if (j - i !== 4 && j - i !== 5) return null
  const word = value.slice(i, j).toLowerCase()
  return word === 'true' || word === 'false' ? word : null
}

/** Whether `image[from, to)`, ASCII, lowered is `name`. */
function sameAsciiLower(image: string, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false
  for (let i = from; i < to; i++) {
    const c = codeAt(image, i)
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== codeAt(name, i - from)) return false
  }
  return true
}

/**
 * Content up to an end spelled `cc>` (CDATA's `]]>`, a comment's `-->`), or
 * up to a `c` or `cc` that ends the text (the Incomplete token holds it).
 * A `c` that starts neither is content like any other character: code in
 * CDATA (`a[i][j]`) or a comment (`x--`, `a - b`) is one token, not one per
 * `c`.
 */
function contentBefore(c: string): RegExp {
  const e = escapeRegExp(c)
  const lone = `${e}(?!${e}>|${e}?$)`
  return new RegExp(`(?:${lone}|[^${e}])[^${e}]*(?:${lone}[^${e}]*)*`, 'y')
}
const cdataTextRe = contentBefore(']')
const commentTextRe = contentBefore('-')

export function buildModes(grammar: Grammar, ctx: { current: LexContext }): CompiledModes {
  const f = new TokenFactory(ctx)
  const repair = grammar.repairs?.missingOpeningWrapper !== false
  const guard = { fences: grammar.markdown?.fences !== false, codeSpans: grammar.markdown?.codeSpans !== false }

  const opens = new Map<Role, Array<[string, CompiledDelimiter]>>()
  const closes = new Map<Role, Array<[string, CompiledDelimiter]>>()
  for (const role of roles) {
    opens.set(role, [])
    closes.set(role, [])
    grammar.frames.forEach((frame, i) => {
      const o = compileOpen(grammar, role, i)
      if (o) opens.get(role)!.push([frame.name, o])
      const c = compileClose(grammar, role, i)
      if (c) closes.get(role)!.push([frame.name, c])
    })
  }
  // a block read whole has literal delimiters: the wrapper's, in a frame of their own
  const blocks = grammar.blocks
  if (blocks !== undefined && blocks.open.length > 0) {
    opens.get('wrapper')!.push([literalFrame, compileLiterals(blocks.open)])
    closes.get('wrapper')!.push([literalFrame, compileLiterals(blocks.close)])
  }
  // a block that ends with its JSON has only an opener, which leads into the driver's scanner
  if (blocks?.json !== undefined && blocks.json.open.length > 0) opens.get('wrapper')!.push([jsonFrame, compileLiterals(blocks.json.open)])
  const tagStartChars = [...new Set([...opens.values(), ...closes.values()].flat().flatMap(([, d]) => d.firstChars))]
  const tagEnd = compileTagEnd(grammar)
  // models write `<![cdata[` too; `]]>` has no letters
  const cdataOpen = compileLiterals(['<![CDATA['], true)
  const cdataClose = compileLiterals([']]>'])
  const commentOpen = compileLiterals(['<!--'])
  const selfClose = [compileLiterals(['/>']), compileLiterals(['/＞'])]
  const commentClose = compileLiterals(['-->'])

  /** Tag tokens for a mode plus the delimiters its Incomplete token must know. */
  function tags(mode: ModeName, targets: TagTargets): { tokens: TokenType[]; delims: CompiledDelimiter[] } {
    const tokens: TokenType[] = []
    const delims: CompiledDelimiter[] = []
    const only = literalOnly(mode)
    // in the structure table's order: the tags that continue a block there first
    for (const key of Object.keys(targets) as Array<keyof TagTargets>) {
      const [kind, role] = key.split('.') as ['open' | 'close', Role]
      const target = targets[key]!
      for (const [fr, d] of (kind === 'open' ? opens : closes).get(role)!) {
        const literal = fr === literalFrame || fr === jsonFrame
        if (only.has(key) && !literal) continue
        const t = f.delimiter(`${fr}.${role}.${kind}`, tagCategory(key), fr === jsonFrame ? jsonNext(target) : literal ? literalNext(target) : target, d)
        f.info.get(t)!.frame = literal ? literalFrame : fr
        tokens.push(t)
        delims.push(d)
      }
    }
    return { tokens, delims }
  }

  /** The parameter tag's whole attribute token; ` string="true"` (or `false`) tells the tag's end to go raw. */
  const stringName = (grammar.attributes?.string ?? 'string').toLowerCase()
  // every value raw (`values.strings: 'raw'`): a parameter tag's end always leads into a raw value
  const rawValues = grammar.values?.strings === 'raw'
  const stringAttr = () => f.make(`${modes.tagParameter}.Attr`, 'Attr', null, (text, offset) => {
    const image = stickyAt(attribute, text, offset)
    if (image === null) return null
    const c = ctx.current
    // the first value of a name wins, as the block parser reads it
    if (c.rawNext === null) c.rawNext = stringFlag(image, stringName)
    return matched(image)
  }, [codes.space, codes.tab, codes.carriageReturn, codes.lineFeed], true)

  const md = markdownTokens(f, guard)
  // the openers that start a block in prose (or a hold in a pending span): inside an inline comment they are held
  const openers: Opener[] = (['wrapper', ...(repair ? ['invoke' as const] : [])] as const).flatMap((role) =>
    opens.get(role)!.map(([fr, d]) => ({ name: `${fr}.${role}.open`, category: tagCategory(`open.${role}`), d })))
  const html = htmlTokens(f, guard, openers)
  const nl = (mode: ModeName) => md.lineFeeds(mode)
  const text = (mode: ModeName, category: CategoryName, excluded: number[], push: ModeName | null = null, lineBreaks = true) => {
    const set = classUnits(excluded)
    return f.regex(`${mode}.${category}`, category, push, new RegExp(`[^${set}]+`, 'y'), f.allCharsExcept(excluded), lineBreaks)
  }
  const oneChar = (mode: ModeName, category: CategoryName, push: ModeName | null, chars: number[]) =>
    f.make(`${mode}.${category}1`, category, push, (t, o) => matched(t.charAt(o)), chars, true)
  // a call, not a list held here: the exec closures keep this scope, and the list is for the analysis only
  const anyChar = () => f.allCharsExcept([])
  const ws = (mode: ModeName) => f.regex(`${mode}.Ws`, 'Ws', null, /[ \t\r]+/y, [codes.space, codes.tab, codes.carriageReturn], false)
  const nlWs = (mode: ModeName) => f.regex(`${mode}.Nl`, 'Ws', null, /\n/y, [codes.lineFeed], true)
  // where each mode's text token stops: the structure table's
  const stops = (mode: ModeName): number[] => charsOf(rowOf(mode)!.stops!, tagStartChars)
  // `<` too: where no frame starts with it, the HTML guard's tokens (`tokens-html.ts`) still see it first
  const proseTagStarts = [...new Set([...tagStartChars, codes.lessThan])]

  // the tags each mode reads, and where each leads: the structure table's (`structure.ts`)
  const targets = (mode: ModeName): TagTargets => tagTargets(mode, repair)
  const asText = modes.prose

  const out = {} as Record<ModeName, TokenType[]>
  /**
   * `<` (or `＜`) that no delimiter can start, with the plain text after it, as one token:
   * `a < b`, `List<String>`, `<div>` and a run of `<<<<<` skip every delimiter matcher.
   */
  const plainLt = (mode: ModeName, category: CategoryName, excluded: number[], delims: CompiledDelimiter[]) => {
    const matcher = f.tailMatcher(mode, delims)
    // in prose and a pending span it stops where a `<code>` or `</code>` may start (its token opens or closes a level)
    const stop = mode === modes.prose || mode === modes.span ? html.stopsPlain : null
    const set = classUnits(excluded)
    const rest = new RegExp(`[^${set}]*`, 'y')
    const starts = new Set(tagStartChars)
    return f.make(`${mode}.${category}Lt`, category, null, (text, offset) => {
      let end = offset
      while (end < text.length && starts.has(codeAt(text, end)) && matcher.startsNothingAt(text, end) && !(stop !== null && end > offset && stop(text, end))) {
        // a sticky test leaves lastIndex where its match ends (it always matches, maybe empty): no match array made
        rest.lastIndex = end + 1
        rest.test(text)
        end = rest.lastIndex
      }
      return end === offset ? null : [text.substring(offset, end)]
    }, tagStartChars, true)
  }
  const delimiterTokens = new Map<ModeName, ReadonlyArray<TokenType | null>>()
  /** `extra`: delimiters of the mode's other tokens, with the token when it is one the driver may take by itself. */
  const build = (mode: ModeName, targets: TagTargets, before: TokenType[], after: TokenType[], lineStartSpaces: boolean, extra: Array<[CompiledDelimiter, TokenType | null]> = [], plain?: [CategoryName, number[]]) => {
    const t = tags(mode, targets)
    const delims = [...t.delims, ...extra.map(([d]) => d)]
    if (bodyModes.has(mode) || mode === modes.prose || mode === modes.span) delimiterTokens.set(mode, [...t.tokens, ...extra.map(([, tok]) => tok)])
    const lt = plain === undefined ? [] : [plainLt(mode, plain[0], plain[1], delims)]
    out[mode] = [...lt, ...before, ...t.tokens, f.incomplete(mode, delims, lineStartSpaces), ...after]
  }

  build(modes.prose, targets(modes.prose), [md.indentCode(), ...md.runs(modes.prose)], [...nl(modes.prose), text(modes.prose, 'Text', stops(modes.prose)), oneChar(modes.prose, 'Text', null, proseTagStarts)], true, [], ['Text', stops(modes.prose)])
  build(modes.span, targets(modes.span), md.runs(modes.span),
    [...nl(modes.span), text(modes.span, 'Text', stops(modes.span)), oneChar(modes.span, 'Text', null, proseTagStarts)], true, [], ['Text', stops(modes.span)])
  build(modes.spanHold, targets(modes.spanHold), md.runs(modes.spanHold), [...nl(modes.spanHold), text(modes.spanHold, 'Text', stops(modes.spanHold)),
    oneChar(modes.spanHold, 'Text', null, [codes.dash, codes.lessThan])], true)
  // raw HTML (`tokens-html.ts`) is tried first at a `<`: before the plain-`<` token and the tags
  for (const mode of [modes.prose, modes.span, modes.spanHold]) out[mode] = [...html.first(mode), ...out[mode]]
  Object.assign(out, html.blockModes())
  build(modes.fenceInfo, targets(modes.fenceInfo), md.runs(modes.fenceInfo),
    [...nl(modes.fenceInfo), text(modes.fenceInfo, 'Text', stops(modes.fenceInfo), null, false), oneChar(modes.fenceInfo, 'Text', null, tagStartChars)], false)
  out[modes.spanHoldFenceInfo] = [...md.runs(modes.spanHoldFenceInfo), ...nl(modes.spanHoldFenceInfo), text(modes.spanHoldFenceInfo, 'Text', stops(modes.spanHoldFenceInfo), null, false)]
  out[modes.fenceInfoHold] = [...md.runs(modes.fenceInfoHold), ...nl(modes.fenceInfoHold), text(modes.fenceInfoHold, 'Text', stops(modes.fenceInfoHold), null, false)]
  out[modes.indented] = [...nl(modes.indented), text(modes.indented, 'Text', stops(modes.indented))]
  build(modes.fence, targets(modes.fence), md.runs(modes.fence), [...nl(modes.fence), text(modes.fence, 'Text', stops(modes.fence))], true)
  // after a closer only spaces and tabs: a CR is its line ending
  out[modes.fenceClose] = [f.regex(`${modes.fenceClose}.Ws`, 'Ws', null, /[ \t]+/y, [codes.space, codes.tab], false), ...nl(modes.fenceClose), oneChar(modes.fenceClose, 'Text', modes.fence, anyChar())]

  // `<|DSML|invoke| name="x">`: a frame's drift before an attribute, a space where an attribute follows it (a Ws token);
  // where the text ends before that is known it is held, before the tag end could take a bar alone
  const gap = compileAttrGap(grammar)
  const gapHeld = gap === null ? null : new TailMatcher([gap.held])
  const gapTokens = (mode: ModeName): TokenType[] => gap === null || gapHeld === null ? [] : [
    f.regex(`${mode}.AttrGap`, 'Ws', null, gap.sticky, gap.firstChars, false),
    f.make(`${mode}.GapIncomplete`, 'Incomplete', null, (t, o) => {
      const c = ctx.current
      return c.final || t.length - o > gap.held.maxLength || !gapHeld.isPrefix(t, o) ? null : [t.substring(o)]
    }, gap.firstChars, true),
  ]

  for (const [role, tagMode] of openingModes) {
    const { end: bodyMode, quoted: [dq, sq] } = rowOf(tagMode)!.opening!
    // `<invoke name="x"/>`: the tag ends the invoke too (the driver adds its empty closer), a call with no arguments
    const selfCloses = role === 'invoke' ? selfClose.map((d, i) => {
      const t = f.delimiter(`${tagMode}.SelfClose${i}`, 'TagEnd', modes.wrapperBody, d)
      f.info.get(t)!.selfClose = true
      return t
    }) : []
    // a parameter tag whose whole `string` attribute was lexed ends into its raw value in the same run
    const rawEnd = role === 'parameter' ? [f.delimiterWhen(`${tagMode}.TagEndRaw`, 'TagEnd', modes.rawValue, tagEnd, rawValues ? () => true : (c) => c.rawNext === true)] : []
    build(tagMode, targets(tagMode), [
      ...md.runs(tagMode),
      ...gapTokens(tagMode),
      ...rawEnd,
      f.delimiter(`${tagMode}.TagEnd`, 'TagEnd', bodyMode, tagEnd),
      ...selfCloses,
    ], [
      // a whole attribute when its closing quote is in the text (most are): one token instead of six; the pieces
      // below take any other shape, and an attribute a chunk end cuts
      role === 'parameter' ? stringAttr() : f.regex(`${tagMode}.Attr`, 'Attr', null, attribute, [codes.space, codes.tab, codes.carriageReturn, codes.lineFeed], true),
      ws(tagMode), nlWs(tagMode),
      // every name character may start the token: a chunk boundary inside `a.b` must not turn `.b` into junk
      f.regex(`${tagMode}.AttrName`, 'AttrName', null, new RegExp(`[${nameCharClass}]+`, 'y'), [...nameChars].map((c) => codeAt(c, 0)), false),
      oneChar(tagMode, 'Eq', null, [codes.equalsTo]),
      oneChar(tagMode, 'QuoteOpen', dq, [codes.quotationMark]),
      oneChar(tagMode, 'QuoteOpen', sq, [codes.apostrophe]),
      oneChar(tagMode, 'Junk', asText, anyChar()),
    ], true, [[tagEnd, null], ...(gap === null ? [] : [[gap.held, null] as [CompiledDelimiter, null]]), ...selfClose.filter(() => role === 'invoke').map((d): [CompiledDelimiter, null] => [d, null])])
    out[dq] = [text(dq, 'AttrText', stops(dq)), oneChar(dq, 'QuoteClose', tagMode, stops(dq))]
    out[sq] = [text(sq, 'AttrText', stops(sq)), oneChar(sq, 'QuoteClose', tagMode, stops(sq))]
  }

  const comment = (mode: ModeName, back: ModeName) => {
    out[mode] = [
      f.delimiter(`${mode}.CommentClose`, 'CommentClose', back, commentClose),
      f.incomplete(mode, [commentClose], false),
      f.regex(`${mode}.CommentText`, 'CommentText', null, commentTextRe, anyChar(), true),
      oneChar(mode, 'CommentText', null, [codes.dash]),
    ]
    return f.delimiter(`${back}.CommentOpen`, 'CommentOpen', mode, commentOpen)
  }
  const junkTail = (mode: ModeName) => [ws(mode), nlWs(mode), oneChar(mode, 'Junk', asText, anyChar())]

  const wrapperComment = comment(modes.commentWrapper, modes.wrapperBody)
  build(modes.wrapperBody, targets(modes.wrapperBody),
    [...md.runs(modes.wrapperBody), wrapperComment], junkTail(modes.wrapperBody), true, [[commentOpen, wrapperComment]])
  const invokeComment = comment(modes.commentInvoke, modes.invokeBody)
  build(modes.invokeBody, targets(modes.invokeBody),
    [...md.runs(modes.invokeBody), invokeComment, oneChar(modes.invokeBody, 'JsonOpen', modes.jsonBody, [codes.leftCurlyBrace])], junkTail(modes.invokeBody), true, [[commentOpen, invokeComment]])
  build(modes.jsonBody, targets(modes.jsonBody), [],
    [text(modes.jsonBody, 'JsonText', stops(modes.jsonBody)), oneChar(modes.jsonBody, 'JsonText', null, tagStartChars)], false, [], ['JsonText', stops(modes.jsonBody)])
  const valueCdata = f.delimiter('value.CDataOpen', 'CDataOpen', modes.cdata, cdataOpen)
  const valueComment = comment(modes.commentValue, modes.value)
  build(modes.value, targets(modes.value),
    [valueCdata, valueComment],
    [text(modes.value, 'ValueText', stops(modes.value)), oneChar(modes.value, 'ValueText', null, tagStartChars)], false, [[cdataOpen, valueCdata], [commentOpen, valueComment]], ['ValueText', stops(modes.value)])
  /** A mode of text in which only `tags` (of `delims`) mean anything: a `<` that starts none of them is text too. */
  const textBetween = (mode: ModeName, category: CategoryName, tags: TokenType[], delims: CompiledDelimiter[]): TokenType[] => [
    plainLt(mode, category, stops(mode), delims),
    ...tags,
    f.incomplete(mode, delims, false),
    text(mode, category, stops(mode)),
    oneChar(mode, category, null, tagStartChars),
  ]
  // A value whose tag has a `string` attribute: text up to its opener's own closer (the driver enters this mode
  // at the tag's end, see `rawOpener`). Every family's parameter closer is a candidate the matcher checks.
  const paramCloses = closes.get('parameter')!.map(([, d]) => d)
  const rawCloses = closes.get('parameter')!.map(([fr, d]) => f.rawClose(`${modes.rawValue}.${fr}.parameter.close`, modes.invokeBody, d, paramCloses))
  // a raw value ends only at its opener's own closer (`LexContext.rawOpener`)
  delimiterTokens.set(modes.rawValue, rawCloses)
  out[modes.rawValue] = textBetween(modes.rawValue, 'ValueText', rawCloses, paramCloses)

  // A block read whole: text up to a literal closer
  const block = tags(modes.blockBody, targets(modes.blockBody))
  delimiterTokens.set(modes.blockBody, block.tokens)
  out[modes.blockBody] = textBetween(modes.blockBody, 'ValueText', block.tokens, block.delims)

  // A block that ends with its JSON: the scanner's matchers (`json-tokens.ts`)
  out[modes.jsonBlock] = jsonBlockTokens(f, blocks?.json ?? { open: [] }, anyChar)
  // A message's start, in a grammar with blocks anchored there: its decision's matchers, whose opener leads into `jsonBlock`
  out[modes.messageStart] = blocks?.json?.anchored === undefined ? [] : messageStartTokens(f, blocks.json.anchored, anyChar, literalFrame)

  // What is left of a failed block: text, with its wrapper and invoke tags recognised so the driver can find the closer
  // that balances the block's opener.
  const skipTags: TokenType[] = []
  const skipDelims: CompiledDelimiter[] = []
  for (const { tag } of rowOf(modes.skip)!.tags) {
    const [kind, role] = tag.split('.') as ['open' | 'close', Role]
    for (const [fr, d] of (kind === 'open' ? opens : closes).get(role)!) {
      // no push: the walk counts the depth and leaves the mode itself
      const t = f.delimiter(`${modes.skip}.${fr}.${role}.${kind}`, tagCategory(tag), null, d)
      f.info.get(t)!.frame = fr
      skipTags.push(t)
      skipDelims.push(d)
    }
  }
  out[modes.skip] = textBetween(modes.skip, 'Text', skipTags, skipDelims)

  const cdataEnd = f.delimiter('cdata.CDataClose', 'CDataClose', modes.value, cdataClose)
  delimiterTokens.set(modes.cdata, [cdataEnd])
  out[modes.cdata] = [
    cdataEnd,
    f.incomplete(modes.cdata, [cdataClose], false),
    f.regex(`${modes.cdata}.CDataText`, 'CDataText', null, cdataTextRe, anyChar(), true),
    oneChar(modes.cdata, 'CDataText', null, [codes.rightSquareBracket]),
  ]
  out[modes.halt] = [f.make('halt.Rest', 'Halt', null, (t, o) => [t.substring(o)], anyChar(), true)]

  const maxDelimiter = Math.max(3, ...[...opens.values(), ...closes.values()].flat().map(([, d]) => d.maxLength))
  const tagEndChars = [codes.greaterThan, codes.fullwidthGreaterThan].filter((c) => {
    const ch = String.fromCharCode(c)
    return stickyAt(tagEnd.sticky, ch, 0) === ch && !growsAt(tagEnd, ch, 0)
  })
  return { modes: out, info: f.info, maxDelimiter, tagStartChars, tails: f.tails, tagEndChars, delimiterTokens, prefixModes: f.prefixModes, paramCloses, releaseHints: () => f.releaseHints() }
}
