/**
 * Token types of the Markdown guard's raw HTML (`html.ts` reads the
 * constructs): HTML blocks of kind 1 to 5 at a line start, where
 * everything up to the end of the closer's line is text; inline `<code>`,
 * which opens a level of its paragraph as an unmatched backtick run does
 * (`codeLevel`: a tag after it is held until `</code>` or the paragraph's
 * end); and a tag inside an open inline comment, held until `-->` (an
 * example) or the paragraph's end (live).
 *
 * ```
 * > | <!--
 *     ^^ htmlComment: text up to the line holding `-->`
 * > | <tool_calls>…
 * > | --> after
 *     ^^^ htmlEnd: the rest of the line; its line feed goes back to prose
 * > | <?x ?> <tool_calls>…
 *     ^ htmlInstruction (kinds 4 and 5 alike: htmlDeclaration, htmlCdata)
 *         ^^ its closer: the rest of the line is htmlEnd's
 * > | a <!-- <tool_calls>… --> b
 *       ^ the line state follows the comment (`inline-html.ts`)
 *            ^ a tag in it: held (`spanHold`, with `commentLevel` on its levels)
 *                           ^^^ the comment ends: the hold was an example (text)
 * > | a <code>x</code> <tool_calls>
 *       ^^^^^^ a level opens (`span`) ^ live: the level closed before it
 * ```
 *
 * A comment held this way kills the line state's comment at the tag (the
 * lexer's `LineCursor.kill`): the hold's own tokens find the `-->`, and if
 * the paragraph ends first, lexing again from the tag sees no comment
 * there, as CommonMark sees none (`<!--` was literal).
 */
import type { TokenType } from 'chevrotain'
import { classUnits, codeAt, codes } from './codes.js'
import { freshMarkdown, itemColumnOf, lineStartIndent, quoteDepthOf, type LexContext } from './context.js'
import { growsAt, type CompiledDelimiter } from './frames.js'
import { blockClosers, blockOpenerAt, closeCode, closerAt, codeCloseAt, codeOpenAt, commentCloserAt, mayBeCodeTag, commentLevel, lastCodeLevel, openCode, rawCloserAt, type Answer, type HtmlBlockKind } from './html.js'
import { commentLive } from './inline-html.js'
import { enterCode, leaveCode } from './lines.js'
import type { CategoryName } from './kinds.js'
import { spanOrProse, state, type Decision, type GuardSettings } from './markdown.js'
import { modes, type ModeName } from './modes.js'
import { delimiterAt, matched, type TokenFactory } from './token-factory.js'
import { apply } from './tokens-markdown.js'

/** An opening tag that may start a block in prose (or a hold in a pending span): the token the comment guard puts before it. */
export interface Opener {
  name: string
  category: CategoryName
  d: CompiledDelimiter
}

const lt = [codes.lessThan]
/** The mode each kind of HTML block reads its lines in, up to the line of its closer. */
const blockModeOf = {
  raw: modes.htmlRaw,
  comment: modes.htmlComment,
  instruction: modes.htmlInstruction,
  declaration: modes.htmlDeclaration,
  cdata: modes.htmlCdata,
} as const satisfies Record<HtmlBlockKind, ModeName>
const blockKinds = Object.keys(blockModeOf) as HtmlBlockKind[]
const isNumber = (a: Answer): a is number => typeof a === 'number'

/** Where a `<` at `offset` stands: at a line start (at most 3 spaces in, no quote or list marker before it). */
function atLineStart(c: LexContext, text: string, offset: number): boolean {
  const at = offset === 0 && c.startAt >= 0 ? c.startAt : lineStartIndent(text, offset, c.lineState)
  return at >= 0 && quoteDepthOf(at) === 0 && itemColumnOf(at) === 0
}

export function htmlTokens(f: TokenFactory, guard: GuardSettings, openers: readonly Opener[]) {
  const ctx = f.ctx
  // the guard's settings: HTML blocks go with fences, inline HTML with code spans
  const blocks = guard.fences
  const inline = guard.codeSpans

  /** A line-start `<` that may still open an HTML block when more text comes: held. */
  const blockHeld = (mode: ModeName) =>
    f.make(`${mode}.HtmlBlockHeld`, 'Incomplete', null, (text, offset) => {
      const c = ctx.current
      if (!blocks || c.final || !atLineStart(c, text, offset)) return null
      return blockOpenerAt(text, offset, false) === 'more' ? [text.substring(offset)] : null
    }, lt, false)

  /** An HTML block's opener: the block begins (from prose or a pending span), or ends the held paragraph (`halt`). */
  const blockOpen = (mode: ModeName, target: ModeName, kind: HtmlBlockKind | null) =>
    f.make(`${mode}.HtmlBlock${kind ?? ''}`, 'Text', target, (text, offset) => {
      const c = ctx.current
      if (!blocks || !atLineStart(c, text, offset)) return null
      const o = blockOpenerAt(text, offset, c.final)
      if (o === null || o === 'more' || (kind !== null && o.kind !== kind)) return null
      const image = text.substring(offset, o.end)
      if (target === modes.halt) return [image]
      // its lines are code until the line of its closer ends (`lines.ts`): no list item or heading in them counts
      c.lines.mark(text, o.end, enterCode)
      // an HTML block interrupts the paragraph: its pending backticks were literal
      return apply(c, { target, md: freshMarkdown() }, image)
    }, lt, false)

  /** A tag inside an open inline comment: held (`spanHold`), or text once its paragraph was read twice (`noHoldBefore`). */
  const hidden = (mode: ModeName, o: Opener, hold: boolean) =>
    f.make(`${mode}.${o.name}.inComment${hold ? '' : 'Text'}`, o.category, hold ? modes.spanHold : null, (text, offset) => {
      const c = ctx.current
      // no comment open here (nearly every `<`): told by the line state, with no match of the opener tried
      if (!inline || offset < c.noHoldBefore === hold || !commentLive(c.lines.stateAt(text, offset))) return null
      const image = delimiterAt(o.d, text, offset)
      if (image === null || (!c.final && growsAt(o.d, text, offset))) return null
      if (!hold) return matched(image)
      c.lines.kill(text, offset)
      const levels = [...c.levels, commentLevel]
      return apply(c, { target: modes.spanHold, md: state(levels, levels.length) }, image)
    }, o.d.firstChars, false)

  /** A `<code>` or `</code>` tag the text end cuts: held until it is known. */
  const codeHeld = (mode: ModeName) =>
    f.make(`${mode}.CodeTagHeld`, 'Incomplete', null, (text, offset) => {
      const c = ctx.current
      if (!inline || c.final) return null
      if (c.levels.includes(commentLevel)) return commentCloserAt(text, offset) === 'more' ? [text.substring(offset)] : null
      return codeOpenAt(text, offset) === 'more' || codeCloseAt(text, offset) === 'more' ? [text.substring(offset)] : null
    }, [codes.lessThan, codes.dash], false)

  /** `<code …>`: a level of the paragraph opens (inside a held comment it is text). */
  const codeOpen = (mode: ModeName, target: ModeName | null) =>
    f.make(`${mode}.CodeOpen`, 'Text', target, (text, offset) => {
      const c = ctx.current
      if (!inline || c.levels.includes(commentLevel)) return null
      const end = codeOpenAt(text, offset)
      if (!isNumber(end)) return null
      const depth = mode === modes.spanHold ? c.holdDepth : 0
      return apply(c, { target, md: state(openCode(c.levels, depth), depth) }, text.substring(offset, end))
    }, lt, false)

  /**
   * `</code>` closing the paragraph's last open `<code>`: its level goes (the
   * others stay: backticks inside `<code>` are runs). While a tag is held, a
   * level open at the tag proves it an example (a release to prose or span).
   */
  const codeClose = (mode: ModeName, target: ModeName | null) =>
    f.make(`${mode}.CodeClose`, 'Text', target, (text, offset) => {
      const c = ctx.current
      if (!inline || c.levels.includes(commentLevel)) return null
      const k = lastCodeLevel(c.levels)
      if (k < 0) return null
      const end = codeCloseAt(text, offset)
      if (!isNumber(end)) return null
      const levels = closeCode(c.levels, k)
      let d: Decision
      if (mode !== modes.spanHold || k < c.holdDepth) d = spanOrProse(levels)
      else d = { target: null, md: state(levels, c.holdDepth) }
      if (mode === modes.span && d.target === modes.span) d = { target: null, md: d.md }
      if (d.target !== target) return null
      return apply(c, d, text.substring(offset, end))
    }, lt, false)

  /** `-->` ending the comment a held tag stood in: an example (the levels before the comment stay). */
  const commentEnd = (target: ModeName) =>
    f.make(`${modes.spanHold}.CommentEnd`, 'Text', target, (text, offset) => {
      const c = ctx.current
      const k = c.levels.indexOf(commentLevel)
      if (k < 0) return null
      const end = commentCloserAt(text, offset)
      if (!isNumber(end)) return null
      const d = spanOrProse(c.levels.slice(0, k))
      if (d.target !== target) return null
      // the comment ends here: no HTML candidate that began inside it goes on
      c.lines.kill(text, end)
      return apply(c, d, text.substring(offset, end))
    }, [codes.dash], false)

  /** The tokens tried first at a `<` (before the plain-`<` token and the tags) in prose, a pending span or a hold. */
  function first(mode: ModeName): TokenType[] {
    if (mode === modes.spanHold) {
      return [blockHeld(mode), blockOpen(mode, modes.halt, null), commentEnd(modes.prose), commentEnd(modes.span), codeHeld(mode), codeOpen(mode, null),
        codeClose(mode, modes.prose), codeClose(mode, modes.span), codeClose(mode, null)]
    }
    const out = [blockHeld(mode), ...blockKinds.map((kind) => blockOpen(mode, blockModeOf[kind], kind))]
    for (const o of openers) out.push(hidden(mode, o, true), hidden(mode, o, false))
    out.push(codeHeld(mode))
    if (mode === modes.prose) out.push(codeOpen(mode, modes.span))
    else out.push(codeOpen(mode, null), codeClose(mode, modes.prose), codeClose(mode, null))
    return out
  }

  /** Where a `<` in plain text must stop the plain-`<` token: a `<code>` or `</code>` may start there. */
  function stopsPlain(text: string, offset: number): boolean {
    return inline && mayBeCodeTag(text, offset)
  }

  const text = (mode: ModeName, excluded: number[]) => {
    const set = classUnits(excluded)
    return f.regex(`${mode}.Text`, 'Text', null, new RegExp(`[^${set}]+`, 'y'), f.allCharsExcept(excluded), true)
  }
  const one = (mode: ModeName, ch: number) => f.make(`${mode}.Text1`, 'Text', null, (t, o) => matched(t.charAt(o)), [ch], ch === codes.lineFeed)

  /** The end of a block's closer, held while cut: the rest of that line follows (`htmlEnd`). */
  const closer = (mode: ModeName, at: (text: string, offset: number) => Answer, ch: number): TokenType[] => [
    f.make(`${mode}.Close`, 'Text', modes.htmlEnd, (t, o) => {
      const end = at(t, o)
      return isNumber(end) ? [t.substring(o, end)] : null
    }, [ch], false),
    f.make(`${mode}.Incomplete`, 'Incomplete', null, (t, o) => (!ctx.current.final && at(t, o) === 'more' ? [t.substring(o)] : null), [ch], false),
    text(mode, [ch]),
    one(mode, ch),
  ]

  /** The token lists of the HTML block modes. */
  function blockModes(): Record<(typeof blockModeOf)[HtmlBlockKind] | 'htmlEnd', TokenType[]> {
    const endLine = f.make(`${modes.htmlEnd}.lf`, 'Text', modes.prose, (t, o) => {
      const c = ctx.current
      // the block ends with its line: an HTML candidate begun in it (`<a title="` after `-->`) is none outside it, and
      // the next line follows no paragraph (it may be indented code)
      c.lines.mark(t, o + 1, leaveCode)
      return apply(c, { target: modes.prose, md: freshMarkdown() }, t.charAt(o))
    }, [codes.lineFeed, codes.carriageReturn], true)
    // kinds 2 to 5 end at a fixed spelling, its first character the text token's stop
    const spelled = (kind: Exclude<HtmlBlockKind, 'raw'>) => closer(blockModeOf[kind], closerAt(kind), codeAt(blockClosers[kind], 0))
    return {
      htmlRaw: closer(modes.htmlRaw, rawCloserAt, codes.lessThan),
      htmlComment: spelled('comment'),
      htmlInstruction: spelled('instruction'),
      htmlDeclaration: spelled('declaration'),
      htmlCdata: spelled('cdata'),
      htmlEnd: [endLine, text(modes.htmlEnd, [codes.lineFeed, codes.carriageReturn])],
    }
  }

  return { first, stopsPlain, blockModes }
}
