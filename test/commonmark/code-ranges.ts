/**
 * Internal: where the Markdown guard sees code in a whole text, read off the
 * token stream of the toolsieve lexer (modes and markdown payloads). Used by
 * the CommonMark oracle test; not exported from `src/index.ts`.
 *
 * ```
 * > | Use `a` then
 *         ^^^ code span: opening run start to closing run end
 * > |   ```js
 *     ^ fenced code: opener line start (indent included) …
 * > | <tool_calls>
 * > | ```
 *        ^ … to the end of the closing fence line (or the end of input)
 * ```
 *
 * It runs the lexer once over the whole text as final, with the one restart
 * the driver makes on its own (a tag held after an unmatched backtick whose
 * paragraph ends: lexed again from the tag, as prose). Captures over the
 * capture limit are not modelled. Nothing here decides what Markdown means:
 * a code span is a level that a run opened (payload grew) and a later run
 * closed (payload shrank); a fence is a `fenceInfo` line that reached `fence`.
 */
import type { IToken } from 'chevrotain'
import { defaultGrammar } from '../../src/grammar/default.js'
import type { Grammar } from '../../src/grammar/types.js'
import type { Span } from '../../src/types.js'
import { codeAt, codes } from '../../src/lexer/codes.js'
import { freshMarkdown, lineStateBefore, type LexContext, type MarkdownState } from '../../src/lexer/context.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { streamStart } from '../../src/lexer/lines.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { modes, type ModeName } from '../../src/lexer/modes.js'
import { captureModes } from '../../src/lexer/structure.js'

export interface CodeRanges {
  /** Fenced code: opener line start (indent included) to the end of the closing fence line, or of the input. */
  fenced: Span[]
  /** Code spans: opening backtick run start to closing run end. */
  text: Span[]
}

/** An open code-span level: where its run starts, its length, and spans closed inside it (void if it closes). */
interface Level {
  start: number
  len: number
  inner: Span[]
}

/** Code ranges of `text` as the guard of `grammar` sees them once the whole text has arrived. */
export function codeRanges(text: string, grammar: Grammar = defaultGrammar): CodeRanges {
  const lexer = compileLexer(grammar)
  const fenced: Span[] = []
  const spans: Span[] = []
  let levels: Level[] = []
  /** A fence opener whose line has not ended: a backtick in its info string would make it an inline run. */
  let opener: { start: number; len: number; lineStart: number } | null = null
  let fenceStart = -1
  let holdStart = -1
  let voided = false

  /** The paragraph ended: every level still open was literal, so the spans closed inside them stand. */
  const endParagraph = (before = Infinity) => {
    for (const l of levels) for (const s of l.inner) if (s.end <= before) spans.push(s)
    levels = []
  }
  /** One inline backtick run: it closes the first open level of its length, or opens a level. */
  const inlineRun = (start: number, len: number) => {
    const k = levels.findIndex((l) => l.len === len)
    if (k < 0) return void levels.push({ start, len, inner: [] })
    const span = { start: levels[k]!.start, end: start + len }
    levels.length = k
    if (k === 0) spans.push(span)
    else levels[k - 1]!.inner.push(span)
  }
  /** The opener's line start, indent included; after block quote markers, the opener itself (as micromark has it). */
  const lineStartOf = (pos: number) => {
    let i = pos
    while (i > 0 && codeAt(text, i - 1) === codes.space) i--
    return i === 0 || codeAt(text, i - 1) === codes.lineFeed || codeAt(text, i - 1) === codes.carriageReturn ? i : pos
  }
  const lineEnd = (lf: number) => (lf > 0 && codeAt(text, lf - 1) === codes.carriageReturn ? lf - 1 : lf)

  let base = 0
  let mode: ModeName = modes.prose
  let md: MarkdownState = freshMarkdown()
  for (;;) {
    const startLine = lineStateBefore(text, base, streamStart)
    const ctx: LexContext = { levels: md.levels.slice(), holdDepth: md.holdDepth, fenceCh: md.fenceCh, fenceLen: md.fenceLen, fenceDepth: md.fenceDepth, fenceIndent: md.fenceIndent, final: true, lineState: startLine, lines: new LineCursor(startLine), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
    const tokens: IToken[] = lexer.tokenize(base === 0 ? text : text.slice(base), mode, ctx)
    let restart = -1
    for (const tok of tokens) {
      const info = lexer.infoByIdx[tok.tokenTypeIdx]!
      const at = base + tok.startOffset
      const target = info.push
      const ch = codeAt(tok.image, 0)
      const isRun = (ch === codes.graveAccent || ch === codes.tilde) && info.category === 'Text' && tok.tokenType.name.includes('.run')
      const isLf = (tok.image === '\n' || tok.image === '\r') && info.category === 'Text' && tok.tokenType.name.includes('.lf')
      if (isRun) {
        if (target === modes.fenceInfo || target === modes.spanHoldFenceInfo) opener = { start: at, len: tok.image.length, lineStart: lineStartOf(at) }
        else if ((mode === modes.fenceInfo || mode === modes.spanHoldFenceInfo) && (target === modes.prose || target === modes.span || target === modes.spanHold)) {
          // the opener's info string holds a backtick: opener and this run are inline runs (this one
          // literal if it stood inside a raw HTML tag or autolink: then the state has only the opener's)
          inlineRun(opener!.start, opener!.len)
          const payload = tok.payload as MarkdownState | undefined
          if (payload === undefined || !sameLengths(levels, payload.levels)) inlineRun(at, tok.image.length)
          opener = null
        } else if (ch === codes.graveAccent && target === modes.span && (mode === modes.prose || captureModes.has(mode))) {
          levels = []
          inlineRun(at, tok.image.length)
        } else if (ch === codes.graveAccent && (mode === modes.span || mode === modes.spanHold) && target !== modes.halt && tok.payload !== undefined) {
          // (a run with no new state stood inside a raw HTML tag or autolink: literal)
          inlineRun(at, tok.image.length)
        }
      } else if (isLf) {
        if (mode === modes.fenceInfo || mode === modes.fenceInfoHold) {
          // the opener line ended: a fence, which interrupts the paragraph (and ends here if the next line leaves its block quote)
          fenceStart = opener!.lineStart
          opener = null
          endParagraph()
          if (target === modes.prose) {
            fenced.push({ start: fenceStart, end: lineEnd(at) })
            fenceStart = -1
          }
        } else if ((mode === modes.fenceClose || mode === modes.fence) && target === modes.prose) {
          // a closing fence line ends here; a fence in a block quote ends with its last quoted line
          fenced.push({ start: fenceStart, end: lineEnd(at) })
          fenceStart = -1
        } else if (mode === modes.span && target === modes.prose) endParagraph()
      }
      if ((target === modes.spanHold && mode === modes.span) || target === modes.fenceInfoHold) holdStart = at
      if (target === modes.halt) {
        restart = holdStart
        voided = mode === modes.fenceInfoHold
        break
      }
      const payload = tok.payload as MarkdownState | undefined
      if (payload !== undefined) {
        md = payload
        if (target !== modes.fenceInfo && target !== modes.fence && !sameLengths(levels, payload.levels)) {
          throw new Error(`inspect: level tracking diverged at ${at}: [${levels.map((l) => l.len)}] vs [${payload.levels}]`)
        }
      }
      if (target !== null) mode = target
    }
    if (restart < 0 && (mode === modes.spanHold || mode === modes.spanHoldFenceInfo)) restart = holdStart // end of input ends the paragraph: the held tag is live
    if (restart < 0) break
    base = restart
    holdStart = -1
    if (voided) {
      // a backtick voided the fence opener the tag sat in: the opener is an inline run, and the driver lexes on from the tag
      inlineRun(opener!.start, opener!.len)
      opener = null
      voided = false
      mode = levels.length === 0 ? modes.prose : modes.span
      md = { levels: levels.map((l) => l.len), holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0 }
      continue
    }
    // the driver lexes again from the held tag, as prose: the levels open at it were literal
    opener = null
    endParagraph(restart)
    spans.splice(0, spans.length, ...spans.filter((s) => s.end <= restart))
    mode = modes.prose
    md = freshMarkdown()
  }
  if (opener !== null) fenceStart = opener.lineStart
  if (fenceStart >= 0) fenced.push({ start: fenceStart, end: text.length })
  endParagraph()
  spans.sort((a, b) => a.start - b.start)
  return { fenced, text: spans }
}

function sameLengths(levels: Level[], lens: readonly number[]): boolean {
  return levels.length === lens.length && levels.every((l, i) => l.len === lens[i])
}
