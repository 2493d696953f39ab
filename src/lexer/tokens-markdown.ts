/**
 * Token types of the Markdown guard: backtick/tilde runs and line feeds,
 * one type per (mode, target mode). Each matcher asks `markdown.ts` what the
 * construct means and matches only if that is its own target, so the mode
 * switch stays a static `push_mode`.
 */
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain'
import { codeAt, codes } from './codes.js'
import { freshMarkdown, keepsFence, lineStartIndent, positionBefore, rawIndent, type LexContext, type MarkdownState } from './context.js'
import { afterCarriageReturn, columnsOf, linePositions, endsParagraph, enterCode, leaveCode, mayStartCode, next, nextLineInterrupts, type LineMark } from './lines.js'
import { candidateLive } from './inline-html.js'
import { afterVoidedFence, decideLineFeed, decideRun, inlineRun, lineFeedTargets, runKindOf, runTargets, type Decision, type GuardSettings, type RunKind } from './markdown.js'
import { modes, type ModeName } from './modes.js'
import type { TokenFactory } from './token-factory.js'

const stay: Decision = { target: null, md: null }

/** The token for `image` that decision `d` makes: the context takes the new Markdown state, and the token carries it. */
export function apply(c: LexContext, d: Decision, image: string): CustomPatternMatcherReturn {
  const m = [image] as CustomPatternMatcherReturn
  if (d.md !== null) {
    c.levels = d.md.levels
    c.holdDepth = d.md.holdDepth
    c.fenceCh = d.md.fenceCh
    c.fenceLen = d.md.fenceLen
    c.fenceDepth = d.md.fenceDepth
    c.fenceIndent = d.md.fenceIndent
    // the driver reads the state back per token, so it can restart anywhere
    m.payload = d.md satisfies MarkdownState
  }
  return m
}

/** The LF at `offset` follows a CR: the CR ended the line (CRLF is one line ending). */
export function crsLineFeed(c: LexContext, text: string, offset: number): boolean {
  if (codeAt(text, offset) !== codes.lineFeed) return false
  return offset > 0 ? codeAt(text, offset - 1) === codes.carriageReturn : afterCarriageReturn(c.lineState)
}

/** Where the line after the line ending at `offset` starts (past the LF of a CRLF). */
function nextLine(text: string, offset: number): number {
  return codeAt(text, offset) === codes.carriageReturn && codeAt(text, offset + 1) === codes.lineFeed ? offset + 2 : offset + 1
}

/** Where a run stands at its line start: in a list item's fence, its plain indent (a closer's place); else `lineStartIndent`. */
function runAt(kind: RunKind, c: LexContext, text: string, offset: number): number {
  if (kind === 'fence' && c.fenceIndent > 0) return rawIndent(text, offset, c.lineState)
  return offset === 0 && c.startAt >= 0 ? c.startAt : lineStartIndent(text, offset, c.lineState, c.lines.stateAt(text, offset))
}

/**
 * How a line feed from `mode` to `target` changes the line state beyond what
 * the text shows: an opener's line feed into the fence begins code, a line
 * feed from a fence (its closer's line, or a line its quote or list item
 * does not keep) back to prose ends it (`lines.ts`, IN_CODE). The fast
 * lane's line ends (`MarkdownFastPath.lineEnds`) ask the same.
 */
export function lineMarkAt(mode: ModeName, target: ModeName | null): LineMark | null {
  if (target === modes.fence && (mode === modes.fenceInfo || mode === modes.fenceInfoHold)) return enterCode
  if (target === modes.prose && (mode === modes.fence || mode === modes.fenceClose)) return leaveCode
  return null
}

export function markdownTokens(f: TokenFactory, guard: GuardSettings) {
  const ctx = f.ctx
  const runHint = [codes.graveAccent, codes.tilde]

  /**
   * A backtick run inside a candidate tag or autolink: `done` when the
   * candidate completes (the run is literal), `void` when it cannot or when
   * the run closes a code span opened before the candidate (the span began
   * first, so the `<` sat in code), `open` when the text ends undecided.
   */
  function fate(kind: RunKind, c: LexContext, text: string, offset: number, len: number, indent: number): 'done' | 'void' | 'open' | 'closes' | null {
    // a run that may open a fence is read by the fence rules (block structure first)
    if (indent >= 0 && len >= 3) return null
    if (!inTag(kind, c, text, offset)) return null
    return spanLevels(kind, c).indexOf(len) >= 0 ? 'closes' : c.lines.fate(text, offset, c.final)
  }

  /** The open span levels a run may close: in a backtick fence opener's info string, the opener is an inline run before it. */
  function spanLevels(kind: RunKind, c: LexContext): number[] {
    return kind === 'fenceInfo' || kind === 'fenceInfoHold' ? inlineRun(c.levels, c.fenceLen) : c.levels
  }

  /** A backtick run at `offset` stands in an open tag or autolink, where that can matter. */
  function inTag(kind: RunKind, c: LexContext, text: string, offset: number): boolean {
    // in a tilde fence opener's info string backticks are plain text; in a backtick one a backtick voids the
    // fence, and the opener is an inline run before it
    if (kind === 'fenceInfo' && c.fenceCh !== codes.graveAccent) return false
    // the run's first backtick may itself end the candidate (as a list item's first content it ends the paragraph
    // the tag began in): then the run stands in no tag, though its length is not known yet at a text's end
    return candidateLive(next(c.lines.stateAt(text, offset), codes.graveAccent))
  }

  /** Kinds whose backtick runs may stand inside a raw HTML tag or autolink. */
  const inlineKinds: ReadonlySet<RunKind> = new Set<RunKind>(['prose', 'span', 'spanHold', 'fenceInfo'])
  /**
   * Kinds that hold a run in an undecided tag or autolink until it is
   * decided: the inline ones, and a fence opener's info string with a tag
   * held in it. There the run voids the opener whatever the tag, but once
   * the hold has gone out as text past the capture limit the driver lexes
   * the run again as an inline run (`Holds.token`); carried over a chunk end
   * instead, its characters were out before the tag it stands in was known.
   */
  const candidateKinds: ReadonlySet<RunKind> = new Set<RunKind>([...inlineKinds, 'fenceInfoHold'])

  function runs(mode: ModeName): TokenType[] {
    const kind = runKindOf(mode)
    if (kind === null) return []
    const out: TokenType[] = []
    const inline = inlineKinds.has(kind)
    if (candidateKinds.has(kind)) {
      // held from the run to the end of the text until the candidate it stands in is decided
      const hold = f.make(`${mode}.candidateHold`, 'Incomplete', null, (text, offset) => {
        const c = ctx.current
        if (c.final || codeAt(text, offset) !== codes.graveAccent) return null
        // a run carried from the last text is decided as a run, tag or not (as the run token does)
        if (offset === 0 && c.carry !== null && c.carry.ch === codes.graveAccent) return null
        let end = offset + 1
        while (end < text.length && codeAt(text, end) === codes.graveAccent) end++
        const at = runAt(kind, c, text, offset)
        if (end === text.length) {
          // cut by the end of the text: its length (a level it closes, a fence it opens) is not known yet: held while
          // in a tag, and the held candidate gives it back once that length is known and decides it (`HeldCandidate`)
          if (!inTag(kind, c, text, offset)) return null
          c.lines.heldRun = { closes: spanLevels(kind, c), lineStart: at >= 0 }
          return [text.substring(offset)]
        }
        if (fate(kind, c, text, offset, end - offset, at) !== 'open') return null
        c.lines.heldRun = null
        return [text.substring(offset)]
      }, [codes.graveAccent], true)
      f.info.get(hold)!.candidateHold = true
      out.push(hold)
    }
    // the run reached the end of the text: count it and decide when it ends
    const part = f.make(`${mode}.runPart`, 'Text', kind === 'capture' ? modes.prose : null, (text, offset) => {
      const c = ctx.current
      if (c.final) return null
      const ch = codeAt(text, offset)
      let end = offset + 1
      while (end < text.length && codeAt(text, end) === ch) end++
      if (end !== text.length) return null
      const carried = offset === 0 && c.carry !== null && c.carry.ch === ch ? c.carry : null
      c.carry = {
        ch,
        len: end - offset + (carried?.len ?? 0),
        indent: carried ? carried.indent : runAt(kind, c, text, offset),
        mode: kind === 'capture' ? modes.prose : mode,
      }
      return [text.substring(offset, end)]
    }, runHint, false)
    f.info.get(part)!.runPart = true
    out.push(part)
    for (const target of runTargets(kind)) {
      out.push(f.make(`${mode}.run`, 'Text', target, (text, offset) => {
        const c = ctx.current
        const ch = codeAt(text, offset)
        let end = offset + 1
        while (end < text.length && codeAt(text, end) === ch) end++
        const carried = offset === 0 && c.carry !== null && c.carry.ch === ch ? c.carry : null
        const len = end - offset + (carried?.len ?? 0)
        const indent = carried ? carried.indent : runAt(kind, c, text, offset)
        const inside = carried === null && ch === codes.graveAccent && inline ? fate(kind, c, text, offset, len, indent) : null
        // literal: no run at all; in an info string it still voids the fence (the block structure reads it raw)
        const d = inside !== 'done' ? decideRun(kind, c, ch, len, indent, guard) : kind === 'fenceInfo' ? afterVoidedFence(c, guard) : stay
        if (d.target !== target) return null
        // the code span it closes began before the `<`, so that was no tag: it must not swallow later runs
        if (inside === 'closes') c.lines.kill(text, end)
        c.carry = null
        return apply(c, d, text.substring(offset, end))
      }, runHint, false))
    }
    return out
  }

  /**
   * The line endings of `mode`: a CR or an LF ends a line at once; an LF
   * right after a CR (in this text, or carried in the line state when the
   * CR ended the last one) is the same ending, plain text that decides
   * nothing: CRLF is one line ending however a chunk cuts it.
   */
  function lineFeeds(mode: ModeName): TokenType[] {
    // the modes whose line feed may end a fence that began in a block quote (or the line that opened one)
    const quotedFence = mode === modes.fence || mode === modes.fenceInfo || mode === modes.fenceInfoHold
    // the modes in which a paragraph's end decides: a code span (or a hold) pending in it never closes
    const inParagraph = mode === modes.span || mode === modes.spanHold
    const out = lineFeedTargets(mode).map((target) =>
      f.make(`${mode}.lf`, 'Text', target, (text, offset) => {
        const c = ctx.current
        if (crsLineFeed(c, text, offset)) return null
        let ends = positionBefore(text, offset, c.lineState) !== linePositions.mid
        if (!ends && inParagraph) {
          // a break or a heading ends the paragraph as a blank line does (the lines that hold no run of their own),
          // and so does the line feed before a list item or a heading that interrupts it
          const ls = c.lines.stateAt(text, offset)
          ends = endsParagraph(ls) || nextLineInterrupts(ls, text, offset, c.final) === true
        }
        let d = decideLineFeed(mode, ends, c)
        if (quotedFence && (c.fenceDepth > 0 || c.fenceIndent > 0) && (mode === modes.fence || d.target === modes.fence)) {
          // a fence in a block quote or a list item ends with it: the next line must keep its markers or its
          // indent (or be blank, in a list item); no lazy lines
          const kept = keepsFence(text, nextLine(text, offset), c.fenceDepth, c.fenceIndent)
          if (kept === null && !c.final) return null
          if (kept === false) d = { target: modes.prose, md: freshMarkdown() }
        }
        if (d.target !== target) return null
        const m = lineMarkAt(mode, target)
        if (m !== null) c.lines.mark(text, offset + 1, m)
        return apply(c, d, text.charAt(offset))
      }, [codes.lineFeed, codes.carriageReturn], true),
    )
    if (quotedFence) {
      // the next line's markers cut by the end of the text: held with the line feed until they are known
      out.unshift(f.make(`${mode}.quoteLf`, 'Incomplete', null, (text, offset) => {
        const c = ctx.current
        if (c.final || (c.fenceDepth === 0 && c.fenceIndent === 0) || crsLineFeed(c, text, offset)) return null
        return keepsFence(text, nextLine(text, offset), c.fenceDepth, c.fenceIndent) === null ? [text.substring(offset)] : null
      }, [codes.lineFeed, codes.carriageReturn], true))
    }
    if (inParagraph) {
      // the next line's start cut by the end of the text: held with the line feed until it shows whether it interrupts
      out.unshift(f.make(`${mode}.interruptLf`, 'Incomplete', null, (text, offset) => {
        const c = ctx.current
        if (c.final || crsLineFeed(c, text, offset) || positionBefore(text, offset, c.lineState) !== linePositions.mid) return null
        const ls = c.lines.stateAt(text, offset)
        return !endsParagraph(ls) && nextLineInterrupts(ls, text, offset, false) === null ? [text.substring(offset)] : null
      }, [codes.lineFeed, codes.carriageReturn], true))
    }
    out.unshift(f.make(`${mode}.crLf`, 'Text', null, (text, offset) => (crsLineFeed(ctx.current, text, offset) ? ['\n'] : null), [codes.lineFeed], true))
    return out
  }

  /**
   * Leading whitespace that reaches four columns on a line that may be
   * indented code (see `lines.ts`): the rest of the line is code.
   */
  function indentCode(): TokenType {
    return f.make(`${modes.prose}.IndentCode`, 'Text', modes.indented, (text, offset) => {
      const c = ctx.current
      if (positionBefore(text, offset, c.lineState) === linePositions.mid) return null
      const ls = c.lines.stateAt(text, offset)
      if (!mayStartCode(ls)) return null
      let cols = columnsOf(ls)
      let i = offset
      while (i < text.length && cols < 4) {
        const ch = codeAt(text, i)
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
