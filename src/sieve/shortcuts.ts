/**
 * The chunks that skip the lexer (docs/DESIGN.md, "Fast path"): each method here
 * does exactly what the lexer would do with a chunk, in a case where that
 * is provably simple: nothing special in the chunk for the current mode,
 * specials that cannot matter where they stand (`a < b`, a mid-line run in
 * fenced code, `a[i]` in CDATA), a held tail that only grows or completes
 * a tag the lexer would take whole, or held indentation that turned out to
 * be only indentation. The Markdown chunks are in `markdown-shortcuts.ts`, what
 * all parts share in `shortcut-base.ts`.
 */
import { tokenOf } from '../lexer/token-instance.js'
import { heldLinePrefix, heldPrefixStart, lineStateBefore, tagKey } from '../lexer/context.js'
import { codes } from '../lexer/codes.js'
import { advanceUnlessCode, quiet } from '../lexer/lines.js'
import { commentLive } from '../lexer/inline-html.js'
import { modes } from '../lexer/modes.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import { blank } from './char-set.js'
import { endsInLineStartSpaces, type ModeShortcut } from './shortcut-tables.js'
import { MarkdownShortcuts } from './markdown-shortcuts.js'
import { flushRun } from './state.js'

export type { ShortcutHost } from './shortcut-base.js'

export class Shortcuts extends MarkdownShortcuts {
  /** Takes `chunk` (nothing pending) without the lexer when nothing in it can matter in the current mode. */
  chunk(chunk: string): boolean {
    const s = this.d.s
    const fp = this.fastPath()
    if (fp === undefined) return this.lineEnds(chunk, null)
    if (this.htmlAhead(chunk, s.lineState)) return false
    this.heldCarry = null
    let cut = chunk.length
    let line = s.lineState
    // mid-line with nothing pending, a chunk with nothing special, no line feed and no `<` leaves the line state as
    // it is and ends in no line-start prefix: most chunks, read once
    const still = quiet(line) && fp.specialOrLine.find(chunk) < 0
    if (!still) {
      // in a block quote a fence line decides at its line feed whether the quote (and the fence) went on
      if (s.mode === modes.fence && (s.md.fenceDepth > 0 || s.md.fenceIndent > 0) && chunk.indexOf('\n') >= 0) return false
      const special = fp.special.find(chunk)
      if (special >= 0) {
        cut = this.plainUpTo(chunk, fp, special)
        // CDATA's end in the chunk (`x]]>`): the content and the end as the lexer's tokens, then the rest
        if (cut < 0 && s.mode === modes.cdata && s.capture !== null && s.capture.length + chunk.length <= this.d.opts.captureLimit) return this.d.readTag(chunk)
        if (s.mode === modes.fence && cut !== chunk.length) return cut >= 0 && this.closeFence(chunk, cut)
        if (cut < 0) return fp.sink === 'text' ? this.inlineRuns(chunk) || this.lineEnds(chunk, fp) : fp.sink === 'hold' && this.releaseHold(chunk)
      }
      // where a line turns into indented code (in prose) the lexer switches mode
      line = s.mode === modes.prose ? advanceUnlessCode(line, chunk, 0, cut) : lineStateBefore(chunk, cut, line)
      if (line < 0) return false
    }
    const head = cut === chunk.length ? chunk : chunk.slice(0, cut)
    // a capture's value or CDATA holds no line-start prefix: only a block's body between tags asks
    const prefixAtEnd = !still && cut === chunk.length && (fp.sink !== 'capture' || fp.lineStart === true) && endsInLineStartSpaces(chunk, s.lineState, fp.quotes === true)
    if (fp.sink === 'text') {
      if (s.capture !== null || s.hold !== null) return false
      // spaces before a held tail are not line-start spaces waiting for a fence: the tail follows them
      if (prefixAtEnd) return this.textThenIndent(chunk, fp.quotes === true)
      this.d.out.text(head)
    } else if (fp.sink === 'capture') {
      const cap = s.capture
      if (cap === null || cap.length + chunk.length > this.d.opts.captureLimit || prefixAtEnd) return false
      // a capture over the limit passes its body out as it comes: memory stays bounded
      if (cap.overflow) {
        if (head.length > 0) this.d.out.text(head)
      } else if (head.length > 0) {
        if (cap.run === null || cap.run.type !== fp.type) {
          flushRun(cap)
          cap.run = { type: fp.type!, blocks: [], parts: [] }
        }
        const run = cap.run
        run.parts.push(head)
        // a 4 MB value in 4-char chunks would be a million pieces: fold every 4096 into one block so the collector sees few
        if (run.parts.length >= 4096) {
          run.blocks.push(run.parts.join(''))
          run.parts = []
        }
        cap.length += head.length
      }
    } else {
      const h = s.hold
      if (h === null || h.givenUp || h.length + chunk.length > this.d.opts.captureLimit || prefixAtEnd) return false
      h.parts.push(chunk)
      h.length += chunk.length
    }
    s.lineState = line
    s.pos += cut
    if (this.heldCarry !== null) {
      // a fence's line-start run cut by the chunk end: out as text, its meaning carried (the lexer's runPart token)
      s.carry = this.heldCarry
      this.heldCarry = null
    }
    if (cut < chunk.length) {
      // what the lexer's Incomplete token would hold: a tag start the chunk end leaves undecided
      s.pending = chunk.slice(cut)
      this.tail = this.heldTail
      this.noteHeldTail()
    }
    return true
  }

  /** Held line-start spaces, then a chunk that the fast path can take whole: they were only indentation. */
  afterIndent(chunk: string): boolean {
    const s = this.d.s
    const held = s.pending
    if (!heldLinePrefix(held, 0, s.lineState, this.fastPath()?.quotes === true)) return false
    s.pending = ''
    if (this.chunk(held + chunk)) return true
    s.pending = held
    return false
  }

  /** The held candidate run's tag or autolink is still open after `chunk`: hold it too, without lexing. */
  extendCandidate(chunk: string): boolean {
    const c = this.candidate
    if (c === null || !c.extend(chunk)) return false
    this.d.s.pending += chunk
    this.noteHeldTail()
    return true
  }

  /** The chunk only makes the undecided tail a longer prefix: hold it without lexing the tail again. */
  extendTail(chunk: string): boolean {
    const d = this.d
    const s = d.s
    if (this.tail === null || s.pending.length + chunk.length > d.lexer.maxDelimiter) return false
    // a tag in an inline comment: held there (`tokens-html.ts`)
    if (s.capture === null && commentLive(s.lineState)) return false
    const matcher = this.matcher()
    if (matcher === undefined) return false
    let next = matcher.step(this.tail, chunk)
    let tail = s.pending + chunk
    if (next === 'died' && (s.mode === modes.prose || s.mode === modes.span)) {
      // `<` + `code>`, a line-start `<` + `pre>`: no tag, but raw HTML the lexer reads (`htmlAhead`)
      if (this.htmlAhead(tail, s.lineState)) return false
      // `<<<<` + `<`: no delimiter starts at the first `<` any more, so it is plain text there; the rest may still be a tail
      const rest = tail.slice(1)
      s.pending = ''
      d.passText(tail, 1)
      this.tail = null
      if (rest.length === 0) return true
      const again = matcher.start(rest)
      // `< n, so`: nothing starts after the plain `<` either, so the rest is a chunk of its own
      if (again === null) return this.rest(rest, 0)
      next = again
      tail = rest
    }
    if (next === 'decide' && s.capture !== null) return this.closingTag(matcher, chunk, tail) || this.openerWaits(tail)
    // a block's opening tag, whole (`<｜DSML｜tool_calls` + `>\n`): read as the lexer would, the capture starts;
    // a closing tag mentioned in prose or inline code is text, taken as the lexer's token
    // an opening tag that starts no block is text, or (after an unmatched backtick) held until the span decides
    if (next === 'decide' && s.hold === null && (s.mode === modes.prose || s.mode === modes.span)) {
      return this.closingTag(matcher, chunk, tail) || (s.mode === modes.prose && d.readTag(tail)) || this.mention(tail)
    }
    if (next === 'died' && s.capture !== null) {
      // `]` + `x` in CDATA, `<` + ` b` in a value: nothing starts where the tail did, so it is a chunk like any other
      s.pending = ''
      this.tail = null
      return this.rest(tail, 0)
    }
    if (typeof next === 'string') return false
    this.tail = next
    s.pending = tail
    this.noteHeldTail()
    return true
  }

  /**
   * The held tail and the chunk (`text`, the two joined) complete a delimiter that cannot grow
   * (`</｜DSML｜parameter>`): at the start of the text the lexer would
   * produce exactly that token, so the driver takes it without a lexer run
   * (one per closing tag inside a block; a closer mentioned in prose or
   * inline code, which is text). Anything else: the lexer.
   */
  private closingTag(matcher: TailMatcher, chunk: string, text: string): boolean {
    const d = this.d
    const s = d.s
    const types = d.lexer.delimiterTokens.get(s.mode)
    if (types === undefined || this.tail === null) return false
    const hit = matcher.firstComplete(this.tail, chunk)
    const type = hit === null ? null : types[hit.d]
    if (hit === null || type === null || type === undefined) return false
    // outside a capture only a tag that is text where it stands (a closer mentioned in prose or inline code)
    if (s.capture === null && d.lexer.infoByIdx[type.tokenTypeIdx!]!.push !== s.mode) return false
    const end = s.pending.length + hit.end
    // the token's own regex has the last word on what it matches
    const image = text.slice(0, end)
    if (!matcher.confirmsWhole(hit.d, image)) return false
    // a raw value ends only at its opener's own closer, and a `<` before that closer is the value's: the lexer reads
    // any other (`rawClose`)
    if (s.mode === modes.rawValue && (tagKey(image) !== s.raw || this.tables.tagStarts.has(image.charCodeAt(1)))) return false
    d.applyToken(tokenOf(type, image, 0), text)
    return true
  }

  /**
   * Inside a capture the held tail and the chunk complete the name of an
   * opening tag that continues the block (`<｜DSML｜parameter` + ` name="pa`):
   * its attributes may wait for the chunk that ends or breaks the tag, as
   * they would after a lexed opener, and one lexer run then takes the tag,
   * its attributes and what follows. Anything else: the lexer.
   */
  private openerWaits(text: string): boolean {
    const opened = this.tables.tagReader.opener(this.d.s.mode, text)
    return opened !== null && this.d.deferTag(opened.tag.mode, text, opened.token.image.length)
  }

  /**
   * What the lexer does with plain text ending in line-start spaces
   * (`"code\n  "`): the text goes out, the spaces are held as an undecided
   * tail, since a fence (closer) may follow in the next chunk.
   */
  private textThenIndent(chunk: string, quotes: boolean): boolean {
    const s = this.d.s
    const cut = heldPrefixStart(chunk, s.lineState, quotes)
    this.d.passText(chunk, cut)
    s.pending = chunk.slice(cut)
    this.tail = null
    this.noteHeldTail()
    return true
  }

  /**
   * The chunk has characters that are special in this mode: how much of it
   * is still plain where they stand (the rest, if any, is an undecided
   * tail; in a fence, the rest follows the fence's closer), or -1 when the
   * lexer must look. `special` is where the first special character is.
   */
  private plainUpTo(chunk: string, fp: ModeShortcut, special: number): number {
    const mode = this.d.s.mode
    if (mode === modes.fence) return this.fenceRuns(chunk)
    if (mode === modes.cdata) return this.cdataText(chunk)
    if (mode === modes.invokeBody || mode === modes.wrapperBody) return this.blankThenTag(chunk)
    return this.plainTagStarts(chunk, fp, special)
  }

  /**
   * CDATA content with `]` in it (`a[i]`, `[[1]]`) is text when no `]]>` is
   * in the chunk, up to a `]` or `]]` at its end, which the next chunk could
   * make `]]>`: that is held, as the lexer's Incomplete token holds it.
   */
  private cdataText(chunk: string): number {
    if (chunk.indexOf(']]>') >= 0) return -1
    let cut = chunk.length
    while (cut > 0 && cut > chunk.length - 2 && chunk.charCodeAt(cut - 1) === codes.rightSquareBracket) cut--
    if (cut === chunk.length) return cut
    this.heldTail = this.d.lexer.tails.get(modes.cdata)?.start(chunk.slice(cut)) ?? null
    return this.heldTail === null ? -1 : cut
  }

  /**
   * Between a block's tags: indentation, then the start of the next tag that
   * the chunk end leaves undecided (`\n  </｜DS`). The indentation joins the
   * capture and the tag start is held, as the lexer's Incomplete token would.
   */
  private blankThenTag(chunk: string): number {
    let i = 0
    while (i < chunk.length && blank.has(chunk.charCodeAt(i))) i++
    const matcher = this.matcher()
    if (i === chunk.length || matcher === undefined) return -1
    this.heldTail = matcher.start(chunk.slice(i))
    return this.heldTail === null ? -1 : i
  }

  /**
   * Every tag-start character in the chunk provably starts no delimiter
   * (`a < b`, `List<String>`, `<div>`), reading only within the chunk, and
   * nothing else in it is special: the lexer would make it all text. Or all
   * of them do up to one that the chunk end leaves undecided (`see <｜DS`):
   * the text goes up to it and the rest is held, as the lexer's Incomplete
   * token would hold it.
   */
  private plainTagStarts(chunk: string, fp: ModeShortcut, special: number): number {
    const matcher = this.matcher()
    const notTag = fp.notTag
    if (notTag === undefined || matcher === undefined) return -1
    // one pass, from the first special character up to the first one that decides: a turn pushed whole is read
    // here once per tag or run in it, so nothing may scan on to the end of the chunk unless the chunk ends here
    const starts = this.tables.tagStarts
    let first = special
    for (; first < chunk.length; first++) {
      const c = chunk.charCodeAt(first)
      if (notTag !== null && notTag.has(c)) return -1
      if (starts.has(c) && !matcher.startsNothingAt(chunk, first)) break
    }
    let tail: TailState | null = null
    if (first < chunk.length) {
      // a delimiter completes inside the chunk, or may have at its end: the lexer decides
      tail = matcher.start(chunk.slice(first))
      if (tail === null) return -1
      // what is held is no longer than a delimiter
      if (notTag !== null && notTag.find(chunk, first) >= 0) return -1
    }
    this.heldTail = tail
    return first
  }

}


