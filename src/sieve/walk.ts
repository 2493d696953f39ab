/**
 * The token walk (docs/DESIGN.md, "The sieve's shape"): every token a lexer
 * run makes, or a fast-path answer recalls, goes through `walkToken` once,
 * and by the token's mode and role (`lexer/structure.ts`) it leaves as
 * text, joins a capture or a hold, skips a failed block's rest, or opens
 * a capture or a hold. With the handlers it calls (`capture.ts`,
 * `holds.ts`, `json-block.ts`, `call-stream.ts`) it is the one writer of
 * the sieve's state. It runs per token: free functions of the driver,
 * called directly, with nothing made per call.
 */
import type { IToken } from 'chevrotain'
import { categoryOf, tokenOf, unplaced } from '../lexer/token-instance.js'
import { lineStateBefore, type LexContext, type LineState, type MarkdownState, type RunCarry } from '../lexer/context.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { codes } from '../lexer/codes.js'
import { columnsOf, isLineEnding, linePositions, mayStartCode, onCodeLine, positionOf } from '../lexer/lines.js'
import type { TokenInfo } from '../lexer/token-factory.js'
import type { JsonPayload } from '../lexer/json-tokens.js'
import { literalFrame } from '../lexer/tokens.js'
import { committed, completeBlock, joined, passOverflow, releaseCapture, stringValueKey, type DriverCore } from './capture.js'
import type { CaptureRules } from '../lexer/structure.js'
import type { Holds } from './holds.js'
import type { KeptTokens } from './kept-tokens.js'
import { jsonCapture, jsonMention, jsonToken } from './json-block.js'
import { flushRun, type Capture, type Restart } from './state.js'

/** What the walk needs of the driver beyond its core. */
export interface WalkHost extends DriverCore {
  readonly holds: Holds
  /** Which tokens continue a capture: a reader's memo of the structure table (`CaptureRules`, `lexer/structure.ts`). */
  readonly rules: CaptureRules
  /** The tokens a capture keeps, shared by spelling; let go after a push that leaves no capture open. */
  readonly kept: KeptTokens
  /** The run whose tokens these are (`RunHost.ctxNow`): its carry is cleared where a token leaves the run's mode. */
  ctxNow: LexContext | null
  lineAt(text: string, offset: number, startLine: LineState): LineState
}

/** One token of a run over `text` (`RunHost.token`, which the driver hands here). */
export function walkToken(d: WalkHost, tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState, carry0: RunCarry | null): Restart | null {
  const s = d.s
  // a token that moves the Markdown state carries the state after it (a run, a line feed; a tag held after an
  // unmatched backtick, the levels open at it)
  if (tok.payload !== undefined && info.json === undefined) s.md = tok.payload as MarkdownState
  const target = info.push
  if (s.skip !== null) return skipped(d, tok, info, text, base, startLine)
  const cap = s.capture
  if (cap?.json !== undefined) return walkJsonToken(d, tok, info, text, base, startLine)
  if (cap !== null) {
    flushRun(cap)
    const mode = s.mode
    const category = info.category
    // after an unclosed CDATA was cut at the stream's end, what follows may close the block, never open an invoke:
    // an invoke there would come from the CDATA's content
    if (!d.rules.continues(mode, category) || (category === 'InvokeOpen' && cap.repairedCdata !== undefined) || proseGap(d, cap, mode, category, tok, text, startLine)) {
      return interrupted(d, tok, info, text, base, startLine)
    }
    cap.tokens.push(d.kept.keep(tok))
    cap.length += tok.image.length
    if (category === 'InvokeOpen') cap.invokeSeen = true
    else if (category === 'ParamOpen') cap.paramSeen = true
    else if (category === 'ParamClose') s.raw = null
    else if (category === 'InvokeClose') cap.lastClose = cap.tokens.length
    if (info.selfClose === true) {
      // `<invoke name="x"/>`: its closer, empty, so the block parser sees a whole invoke and the raw stays the input's
      cap.tokens.push(tokenOf(d.lexer.typeByName.get('InvokeClose')!, '', unplaced))
      cap.lastClose = cap.tokens.length
    }
    if (target !== null) s.mode = target
    // read before an overflow lets the tag's tokens go
    const raw = category === 'TagEnd' && mode === modes.tagParameter ? stringValueKey(d, cap.tokens) : null
    if (cap.overflow || cap.length > d.opts.captureLimit) passOverflow(d, cap)
    if (category === 'WrapperClose') {
      // another block's closer inside a block read whole is its text: only its opener's own closers end it
      const pairs = d.opts.readWhole?.pairs
      if (pairs !== undefined && !cap.overflow && cap.tokens.length > 1 && info.frame === literalFrame && pairs.get(cap.tokens[0]!.image)?.has(tok.image) === false) {
        return restartAfter(d, tok, text, base, startLine, modes.blockBody)
      }
      if (cap.overflow) s.capture = null
      else completeBlock(d, cap)
      // the run goes on in the closer's mode, prose, unless the closer stands on a line of indented code
      return onCodeLine(d.lineAt(text, tok.startOffset + tok.image.length, startLine)) ? restartAfter(d, tok, text, base, startLine, modes.prose) : null
    }
    // a bare invoke is a block of its own where the grammar says so (`invokeBlocks`): done at its closer
    if (category === 'InvokeClose' && !cap.wrapper && d.lexer.grammar.invokeBlocks === true) {
      if (cap.overflow) s.capture = null
      else {
        // the wrapper closer it never had, empty: its raw markup stays the input's
        cap.tokens.push(tokenOf(d.lexer.typeByName.get('WrapperClose')!, '', unplaced))
        completeBlock(d, cap)
      }
      // the closer leads between invokes; after a block of its own the text is prose
      return restartAfter(d, tok, text, base, startLine, modes.prose)
    }
    if (raw !== null) s.raw = raw
    // the lexer switched as the tag's tokens say (its whole `string` attribute seen): nothing to do again
    if ((raw !== null) === (target === modes.rawValue) || category !== 'TagEnd' || mode !== modes.tagParameter) return null
    // the tag was cut (a window, or read without the lexer): lexed again from here in the mode its tokens say
    return restartAfter(d, tok, text, base, startLine, raw !== null ? modes.rawValue : modes.value)
  }
  const h = s.hold
  if (h !== null) return d.holds.token(h, tok, info, text, base, startLine, carry0, info.runPart ? d.ctxNow!.carry!.len : null)
  return switchMode(d, target, tok, text, base, startLine)
}

/**
 * Whether a token between a bare block's invokes stands where prose reads
 * a block of its own, so that the bare block ends before the blanks that
 * lead to it: an invoke opener four columns into a line that interrupts no
 * paragraph (indented code), or a comment at a line's start (an HTML block,
 * or indented code: the rest of the line holding its end is HTML, and an
 * indented line after it is code). A wrapper's gaps are the wrapper's, however they are laid out.
 */
function proseGap(d: WalkHost, cap: Capture, mode: ModeName, category: string, tok: IToken, text: string, startLine: LineState): boolean {
  if (cap.wrapper || mode !== modes.wrapperBody || (category !== 'InvokeOpen' && category !== 'CommentOpen')) return false
  const ls = d.lineAt(text, tok.startOffset, startLine)
  if (category === 'CommentOpen') return positionOf(ls) !== linePositions.mid
  return mayStartCode(ls) && columnsOf(ls) >= 4
}

/**
 * A token of a block that ends with its JSON (`json-tokens.ts`): the
 * block's handler takes it; once the block is over, the run goes on after
 * it from the mode it left (a mention: from right after the opener).
 */
export function walkJsonToken(d: WalkHost, tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
  const s = d.s
  s.pos = base + tok.startOffset
  s.lineState = d.lineAt(text, tok.startOffset, startLine)
  if (d.ctxNow !== null) d.ctxNow.carry = null
  const part = info.json!
  if (part === 'mention') return jsonMention(d, text.substring(tok.startOffset))
  const payload = tok.payload as JsonPayload | undefined
  if (!jsonToken(d, part, tok.image, payload?.scan, payload?.why)) return null
  const at = tok.startOffset + tok.image.length
  return { text: text.substring(at), base: s.pos, mode: s.mode, md: s.md, lineState: s.lineState, carry: null }
}

/**
 * Lexing goes on after `tok` in `mode`: a restart when `text` goes on
 * past it (its tokens were lexed in the mode `tok` pushes), else the mode
 * the next text starts in.
 */
function restartAfter(d: WalkHost, tok: IToken, text: string, base: number, startLine: LineState, mode: ModeName): Restart | null {
  const s = d.s
  const at = tok.startOffset + tok.image.length
  const lineState = mode === modes.prose || at < text.length ? d.lineAt(text, at, startLine) : 0
  // prose taken up after a block's tag on a line of indented code (a block's gaps are its own, however indented, and
  // a mention's or a failed block's last tag may stand there): the rest of that line is code, as prose reads the line
  const next = mode === modes.prose && onCodeLine(lineState) ? modes.indented : mode
  s.mode = next
  // a backtick run the token ended with means nothing in the new mode: it must not be carried into it
  if (d.ctxNow !== null) d.ctxNow.carry = null
  if (at >= text.length) return null
  return { text: text.substring(at), base: base + at, mode: next, md: s.md, lineState, carry: null }
}

/**
 * A token that cannot continue the capture. A mention (a wrapper with no
 * invoke yet, a bare invoke tag with nothing after it) is released and the
 * token read as prose reads it. A block that broke is released with a
 * diagnostic, and what is left of it is skipped as text up to the closer
 * that balances its opener: no call comes from inside a failed block.
 */
function interrupted(d: WalkHost, tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
  const s = d.s
  const cap = s.capture!
  const mode = s.mode
  if (!committed(cap)) {
    const opener = cap.tokens[0]!
    const tail = joined(cap.tokens, 1)
    const at = firstUnlike(d, tail, tok, info, text.substring(tok.startOffset, tok.startOffset + 3))
    if (at < 0) {
      releaseCapture(d, null, '')
      return codeFrom(d, text, tok.startOffset, base, startLine) ?? switchMode(d, info.push, tok, text, base, startLine)
    }
    // a mention: it is text up to where prose would read the rest otherwise, and prose reads it again from there
    releaseCapture(d, null, '', opener.image + tail.slice(0, at))
    return proseFrom(d, tail.slice(at) + text.substring(tok.startOffset), cap.start + opener.image.length + at, lineStateBefore(tail, at, cap.lineState))
  }
  const between = mode === modes.wrapperBody || mode === modes.commentWrapper
  if (!cap.wrapper && between && !cap.overflow) {
    const blanks = blankTail(d, cap)
    // decided by what the capture holds and the breaking token alone, never by text a chunk may not have brought
    // yet (the released text and the diagnostic's span depend on it): a run at a line's start is taken for a fence
    if (firstUnlike(d, blanks.text, tok, info, tok.image, true) < 0) {
      releaseCapture(d, 'malformed-block', 'markup that cannot belong to a block interrupted it')
      return codeFrom(d, text, tok.startOffset, base, startLine) ?? switchMode(d, info.push, tok, text, base, startLine)
    }
    // the blanks before the breaking token are read again as prose with it: an indent there may start indented code
    cap.tokens = cap.tokens.slice(0, blanks.from)
    cap.length -= blanks.text.length
    releaseCapture(d, 'malformed-block', 'markup that cannot belong to a block interrupted it')
    return proseFrom(d, blanks.text + text.substring(tok.startOffset), base + tok.startOffset - blanks.text.length, blanks.lineState)
  }
  releaseCapture(d, cap.overflow ? null : 'malformed-block', 'markup that cannot belong to a block interrupted it')
  // What is skipped, by where the block broke:
  //   a wrapper's block, anywhere            → to its wrapper's balancing closer (its later invokes are text too)
  //   a bare block inside an invoke          → to that invoke's balancing closer
  //   a bare block between invokes, over the limit → to a wrapper closer
  //   a bare block between invokes           → nothing: what follows is read as prose reads it (above)
  // The breaking token never closes anything (a closer inside a value is the value's text); an opener of the
  // block's own family opens one more level. Tags of another family are text.
  const role = cap.wrapper || between ? 'wrapper' : 'invoke'
  const frame = cap.frame
  const depth = 1 + (counts(info, frame) && depthChange(role, info.category) > 0 ? 1 : 0)
  d.out.text(tok.image)
  s.skip = { role, depth, frame }
  return restartAfter(d, tok, text, base, startLine, modes.skip)
}

/**
 * A released capture's text went out and prose goes on with `text`, from
 * stream offset `base` where the line state is `lineState`, read again as
 * prose: the capture's mode read it otherwise (a `<` that starts `<pre>`
 * or `<code>` was a stray character, an indent before an opener blanks),
 * and prose must see the HTML block, code span or indented code that the
 * markup after it stands in.
 */
function proseFrom(d: WalkHost, text: string, base: number, lineState: LineState): Restart {
  const s = d.s
  // past the leading blanks of a code line (the capture's mode read them): the rest of that line is code
  const mode = onCodeLine(lineState) ? modes.indented : modes.prose
  s.mode = mode
  if (d.ctxNow !== null) d.ctxNow.carry = null
  return { text, base, mode, md: s.md, lineState, carry: null }
}

/** The token at `at` of `text`, which a released block left to prose, stands on a line of indented code: read from there as code ({@link proseFrom}); null: it does not. */
function codeFrom(d: WalkHost, text: string, at: number, base: number, startLine: LineState): Restart | null {
  const lineState = d.lineAt(text, at, startLine)
  return onCodeLine(lineState) ? proseFrom(d, text.substring(at), base + at, lineState) : null
}

/**
 * The blank tokens that end a capture (spaces, line feeds): where they
 * begin among its tokens, their text, and the line state there.
 */
function blankTail(d: WalkHost, cap: Capture): { from: number; text: string; lineState: LineState } {
  const tokens = cap.tokens
  let k = tokens.length
  // a token made here (a self-closing invoke's empty closer) has no entry in the lexer's table: its category is its type
  while (k > 1 && categoryOf(d.lexer, tokens[k - 1]!) === 'Ws') k--
  // the capture's line state is the one right after its opener
  const between = joined(tokens, 1, k)
  return { from: k, text: joined(tokens, k), lineState: lineStateBefore(between, between.length, cap.lineState) }
}

/** Block tags: read alike in a capture's modes and in prose (an opener starts a capture in both, a closer is text in both). */
const tags: ReadonlySet<string> = new Set(['WrapperOpen', 'InvokeOpen', 'ParamOpen', 'WrapperClose', 'InvokeClose', 'ParamClose'])

/**
 * Where prose would first read a released capture's `tail` (its text after
 * the opener) and then the breaking token `tok` (`text` from its start on)
 * otherwise than the capture's modes did, as an offset in `tail`
 * (`tail.length`: at `tok`), or -1 when it reads them alike. A `<` that
 * starts no tag of the capture's modes is a stray character there, where
 * prose may start HTML (a `<pre>`, a `<code>`); a backtick or tilde in the
 * tail (an invoke's JSON body is text there) may open code in prose; and
 * after a line end, prose may start a block (indented code, HTML, a quote,
 * a list, a fence, a heading). Block tags are read alike, and so is a line
 * that starts with other text, or with a backtick run that cannot be a
 * fence (the capture's modes read runs as prose does): such a capture is
 * not lexed again. `runsFence`: any run at a line's start counts as a
 * fence, for a decision that must not read past `tok`.
 */
function firstUnlike(d: WalkHost, tail: string, tok: IToken, info: TokenInfo, text: string, runsFence = false): number {
  const starts = d.lexer.tagStartChars
  const tagStart = (c: number): boolean => c === codes.lessThan || starts.includes(c)
  const run = (c: number): boolean => c === codes.graveAccent || c === codes.tilde
  let lineEnd = -1
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i)
    if (tagStart(c) || run(c)) return lineEnd >= 0 ? lineEnd : i
    if (isLineEnding(c) && lineEnd < 0) lineEnd = i
  }
  if (!tags.has(info.category) && tagStart(tok.image.charCodeAt(0))) return lineEnd >= 0 ? lineEnd : tail.length
  if (lineEnd < 0) return -1
  // the last line's start: its indent, then the first character that is not a blank
  let k = Math.max(tail.lastIndexOf('\n'), tail.lastIndexOf('\r')) + 1
  let column = 0
  for (; k < tail.length; k++) {
    const c = tail.charCodeAt(k)
    if (c === codes.space) column++
    else if (c === codes.tab) column += 4 - (column % 4)
    else break
  }
  const line = tail.slice(k) + text.slice(0, 3)
  const next = line.charCodeAt(0)
  // a backtick or tilde starts a block only as a fence, a run of three; a shorter run the text ends in may be one
  let same = 1
  while (same < 3 && line.charCodeAt(same) === next) same++
  const fence = run(next) && (runsFence || same === 3 || same === line.length)
  return column >= 4 || fence || blockStarts.includes(next) || (next >= 0x30 && next <= 0x39) ? lineEnd : -1
}

/** Characters that may start a block at a line's start (quote, list, heading, thematic break, table), fences, `<` and digits aside. */
const blockStarts: readonly number[] = [...'>-*+_=#|'].map((c) => c.charCodeAt(0))

/** Whether a tag counts towards a skip of blocks of `frame` ('*': a checkpoint from before skips knew their family). */
function counts(info: TokenInfo, frame: string): boolean {
  return frame === '*' || info.frame === frame
}

/** +1 for an opener of `role`, -1 for its closer, else 0. */
function depthChange(role: 'wrapper' | 'invoke', category: string): number {
  if (role === 'wrapper') return category === 'WrapperOpen' ? 1 : category === 'WrapperClose' ? -1 : 0
  return category === 'InvokeOpen' ? 1 : category === 'InvokeClose' ? -1 : 0
}

/** What is left of a failed block: text, until the closer that balances its opener. */
function skipped(d: WalkHost, tok: IToken, info: TokenInfo, text: string, base: number, startLine: LineState): Restart | null {
  const s = d.s
  const k = s.skip!
  d.out.slice(text, tok.startOffset, tok.startOffset + tok.image.length)
  if (counts(info, k.frame)) k.depth += depthChange(k.role, info.category)
  if (k.depth > 0) return null
  s.skip = null
  return restartAfter(d, tok, text, base, startLine, modes.prose)
}

/** Outside captures and holds: the token is text unless it opens a capture or a hold. */
function switchMode(d: WalkHost, target: ModeName | null, tok: IToken, text: string, base: number, startLine: LineState): null {
  const s = d.s
  const start = base + tok.startOffset
  if (target === modes.jsonBlock) {
    s.capture = jsonCapture(start, tok, d.lexer.infoByIdx[tok.tokenTypeIdx]!.frame ?? '', d.lineAt(text, tok.startOffset + tok.image.length, startLine))
    s.sawSyntax = true
  } else if (target === modes.tagWrapper || target === modes.tagInvoke || target === modes.blockBody) {
    const wrapper = target !== modes.tagInvoke
    const lineState = d.lineAt(text, tok.startOffset + tok.image.length, startLine)
    // a block read whole is a block from its literal opener on: failing, it is a broken block, not a mention
    s.capture = { start, tokens: [tok], length: tok.image.length, invokeSeen: target !== modes.tagWrapper, wrapper, overflow: false, paramSeen: false, lastClose: 0, frame: d.lexer.infoByIdx[tok.tokenTypeIdx]!.frame ?? '', run: null, lineState }
    s.sawSyntax = true
  } else if (target === modes.spanHold || target === modes.fenceInfoHold) {
    s.hold = { start, parts: [tok.image], length: tok.image.length, lineState: d.lineAt(text, tok.startOffset, startLine), givenUp: false }
  } else {
    const cat = d.lexer.infoByIdx[tok.tokenTypeIdx]!.category
    if (cat === 'WrapperClose' || cat === 'InvokeClose') s.sawSyntax = true
    d.out.slice(text, tok.startOffset, tok.startOffset + tok.image.length)
  }
  if (target !== null) s.mode = target
  return null
}
