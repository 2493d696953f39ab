/**
 * Token types of the Markdown guard: backtick/tilde runs and line feeds,
 * one type per (mode, target mode). Each matcher asks `markdown.ts` what the
 * construct means and matches only if that is its own target, so the mode
 * switch stays a static `push_mode`.
 */
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain'
import { codes } from './codes.js'
import { endsBlankLine, lineStartIndent, lineStates, positionBefore, type LexContext, type MarkdownState } from './context.js'
import { columnsOf, mayStartCode } from './lines.js'
import { decideLineFeed, decideRun, lineFeedTargets, runKindOf, runTargets, type Decision, type GuardSettings } from './markdown.js'
import { modes, type ModeName } from './modes.js'
import type { TokenFactory } from './tokens.js'

function apply(c: LexContext, d: Decision, image: string): CustomPatternMatcherReturn {
  const m = [image] as CustomPatternMatcherReturn
  if (d.md !== null) {
    c.levels = d.md.levels
    c.holdDepth = d.md.holdDepth
    c.fenceCh = d.md.fenceCh
    c.fenceLen = d.md.fenceLen
    // the driver reads the state back per token, so it can restart anywhere
    m.payload = d.md satisfies MarkdownState
  }
  return m
}

export function markdownTokens(f: TokenFactory, guard: GuardSettings) {
  const ctx = f.ctx
  const runHint = [codes.graveAccent, codes.tilde]

  function runs(mode: ModeName): TokenType[] {
    const kind = runKindOf(mode)
    if (kind === null) return []
    const out: TokenType[] = []
    // the run reached the end of the text: count it and decide when it ends
    const part = f.make(`${mode}.runPart`, 'Text', kind === 'capture' ? modes.prose : null, (text, offset) => {
      const c = ctx.current
      if (c.final) return null
      const ch = text.charCodeAt(offset)
      let end = offset + 1
      while (end < text.length && text.charCodeAt(end) === ch) end++
      if (end !== text.length) return null
      const carried = offset === 0 && c.carry !== null && c.carry.ch === ch ? c.carry : null
      c.carry = {
        ch,
        len: end - offset + (carried?.len ?? 0),
        indent: carried ? carried.indent : lineStartIndent(text, offset, c.lineState),
        mode: kind === 'capture' ? modes.prose : mode,
      }
      return [text.substring(offset, end)]
    }, runHint, false)
    f.info.get(part)!.runPart = true
    out.push(part)
    for (const target of runTargets(kind)) {
      out.push(f.make(`${mode}.run`, 'Text', target, (text, offset) => {
        const c = ctx.current
        const ch = text.charCodeAt(offset)
        let end = offset + 1
        while (end < text.length && text.charCodeAt(end) === ch) end++
        const carried = offset === 0 && c.carry !== null && c.carry.ch === ch ? c.carry : null
        const len = end - offset + (carried?.len ?? 0)
        const indent = carried ? carried.indent : lineStartIndent(text, offset, c.lineState)
        const d = decideRun(kind, c, ch, len, indent, guard)
        if (d.target !== target) return null
        c.carry = null
        return apply(c, d, text.substring(offset, end))
      }, runHint, false))
    }
    return out
  }

  function lineFeeds(mode: ModeName): TokenType[] {
    return lineFeedTargets(mode).map((target) =>
      f.make(`${mode}.lf`, 'Text', target, (text, offset) => {
        const c = ctx.current
        const d = decideLineFeed(mode, endsBlankLine(text, offset, c.lineState), c)
        if (d.target !== target) return null
        return apply(c, d, '\n')
      }, [codes.lineFeed], true),
    )
  }

  /**
   * Leading whitespace that reaches four columns on a line that may be
   * indented code (see `lines.ts`): the rest of the line is code.
   */
  function indentCode(): TokenType {
    return f.make(`${modes.prose}.IndentCode`, 'Text', modes.indented, (text, offset) => {
      const c = ctx.current
      if (positionBefore(text, offset, c.lineState) === lineStates.mid) return null
      const ls = c.lines.stateAt(text, offset)
      if (!mayStartCode(ls)) return null
      let cols = columnsOf(ls)
      let i = offset
      while (i < text.length && cols < 4) {
        const ch = text.charCodeAt(i)
        if (ch === codes.space) cols++
        else if (ch === codes.tab) cols = 4
        else break
        i++
      }
      return cols < 4 || i === offset ? null : [text.substring(offset, i)]
    }, [codes.space, codes.tab], false)
  }

  return { runs, lineFeeds, indentCode }
}
