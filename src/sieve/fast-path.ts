/**
 * The chunks that skip the lexer (docs/DESIGN.md, "The sieve's shape"):
 * each method here answers what the lexer would do with a chunk
 * (`answer.ts`), in a case where that is provably simple, and changes
 * nothing (the driver applies the answer): nothing special in the chunk
 * for the current mode, specials that cannot matter where they stand
 * (`a < b`, a mid-line run in fenced code, `a[i]` in CDATA), a held tail
 * that only grows. A tag the chunk completes is the lexer's, over its span
 * (`tag-spans.ts`). The Markdown chunks are in `fast-path-markdown.ts`,
 * what all parts share there too.
 */
import { heldPrefixStart, lineStateBefore } from '../lexer/context.js'
import { advanceUnlessCode, quiet, type LineState } from '../lexer/lines.js'
import { commentLive } from '../lexer/inline-html.js'
import { modes } from '../lexer/modes.js'
import type { JsonScan } from '../lexer/json-scan.js'
import { jsonStep, type JsonStep } from '../lexer/json-tokens.js'
import { decideStart, type StartDecision } from '../lexer/start-tokens.js'
import type { TailState } from '../lexer/tail.js'
import { heldAfter, plainThen, type Answer } from './answer.js'
import { blank } from './char-set.js'
import type { ModeFastPath } from './fast-path-tables.js'
import { MarkdownFastPath } from './fast-path-markdown.js'
import { codeAt } from '../lexer/codes.js'

export class FastPath extends MarkdownFastPath {
  /**
   * In a block that ends with its JSON (`jsonBlock`): the block's token at
   * `at` of `text` (the pending tail and the chunk) from the scanner's state
   * `scan` (and `before`, see `JsonRun`), as its matchers' step reads it
   * (`lexer/json-tokens.ts`); null: the lexer reads the rest (a mention, a
   * broken value).
   */
  jsonStep(scan: JsonScan, before: number, text: string, at: number): JsonStep | null {
    const step = jsonStep(scan, before, text, at, this.d.lexer.grammar.blocks!.json!, false)
    return step === null || step.part === 'mention' || step.part === 'broken' ? null : step
  }

  /**
   * At a message's start (`atStart`, `json-reading.ts`), the start's
   * decision on `text` (the pending tail and the chunk) as its matchers make it
   * (`lexer/start-tokens.ts`) when the message opens with text or the start
   * waits for more; null: a block opens, and the lexer reads its opener.
   */
  start(text: string): StartDecision | null {
    const d = decideStart(text, 0, this.d.lexer.grammar.blocks!.json!.anchored!, this.d.s.started === 'separator')
    return d.kind === 'open' ? null : d
  }

  /** How `chunk` (nothing pending) reads without the lexer when nothing in it can matter in the current mode; null: the lexer. */
  chunk(chunk: string): Answer | null {
    const s = this.d.s
    const fp = this.fastPath()
    if (fp === undefined) return this.lineEnds(chunk, null)
    // a capture the chunk would take past its limit is the lexer's (see the sinks below): known before any scan
    if (fp.sink === 'capture' && (s.capture === null || s.capture.length + chunk.length > this.d.opts.captureLimit)) return null
    this.heldCarry = null
    this.heldTail = null
    this.spanAt = false
    let cut = chunk.length
    let line = s.lineState
    // mid-line with nothing pending, a chunk with nothing special, no line feed and no `<` leaves the line state as
    // it is and ends in no line-start prefix: most chunks, read once
    const still = quiet(line) && fp.specialOrLine.find(chunk) < 0
    // (no `<` in it either: no raw HTML ahead, `htmlAhead` below; a capture and its limit were checked above)
    if (still && (fp.sink === 'capture' || (fp.sink === 'text' && s.capture === null && s.hold === null))) return this.textAsIs(chunk, line, fp)
    if (!still) {
      // in a block quote a fence line decides at its line feed whether the quote (and the fence) went on
      if (s.mode === modes.fence && (s.md.fenceDepth > 0 || s.md.fenceIndent > 0) && (chunk.indexOf('\n') >= 0 || chunk.indexOf('\r') >= 0)) return null
      const special = fp.special.find(chunk)
      if (special >= 0) {
        cut = this.plainUpTo(chunk, fp, special)
        if (s.mode === modes.fence && cut !== chunk.length) return cut >= 0 ? this.closeFence(chunk, cut) : null
        if (cut < 0) return fp.sink === 'text' ? this.inlineRuns(chunk) ?? this.lineEnds(chunk, fp) : fp.sink === 'hold' ? this.releaseHold(chunk) : null
      }
      // where a line turns into indented code (in prose) the lexer switches mode
      line = s.mode === modes.prose ? advanceUnlessCode(line, chunk, 0, cut) : lineStateBefore(chunk, cut, line)
      if (line < 0) return null
    }
    // a capture's value or CDATA holds no line-start prefix: only a block's body between tags asks
    const prefixAtEnd = !still && cut === chunk.length && (fp.sink !== 'capture' || fp.lineStart === true) && heldPrefixStart(chunk, s.lineState, fp.quotes === true) >= 0
    if (this.htmlAhead(chunk, s.lineState, cut)) return null
    if (fp.sink === 'text') {
      if (s.capture !== null || s.hold !== null) return null
      // spaces before a held tail are not line-start spaces waiting for a fence: the tail follows them
      if (prefixAtEnd) return this.textThenIndent(chunk, fp.quotes === true)
    } else if (fp.sink === 'capture') {
      // the capture and its limit were checked before any scan
      if (prefixAtEnd) return null
    } else {
      const h = s.hold
      if (h === null || h.givenUp || h.length + chunk.length > this.d.opts.captureLimit || prefixAtEnd) return null
    }
    if (this.spanAt && s.mode === modes.rawValue) {
      const r = this.rawText(chunk, cut)
      if (r !== null) return r
    }
    // a delimiter the chunk completes at the cut: the lexer's, over its span; one the chunk end leaves undecided:
    // held, as the lexer's Incomplete token would hold it
    const span = this.spanAt ? this.tables.spans.span(s.mode, chunk.slice(cut)) : 0
    if (span < 0) return null
    const a = this.spanAt ? this.spanned(chunk, cut, span, s.mode, s.md, line) : cut < chunk.length ? heldAfter(this.a, cut, this.heldTail) : plainThen(this.a, cut, 'more')
    a.line = line
    a.type = fp.type ?? null
    // a fence's line-start run cut by the chunk end: out as text, its meaning carried (the lexer's runPart token)
    a.carry = this.heldCarry
    return a
  }

  /** All of `chunk` is text (or a capture's text), the line state `line` after it: the common chunk, answered before the checks it needs none of. */
  private textAsIs(chunk: string, line: LineState, fp: ModeFastPath): Answer {
    const a = plainThen(this.a, chunk.length, 'more')
    a.line = line
    a.type = fp.type ?? null
    a.carry = null
    return a
  }

  /** The tag `text` starts with, over its span (`tag-spans.ts`; `spanned`), the rest a chunk of its own; null: the lexer takes all of `text`. */
  readTag(text: string): Answer | null {
    const s = this.d.s
    if (s.mode === modes.rawValue) {
      const r = this.rawText(text, 0)
      if (r !== null) return r
    }
    const span = this.tables.spans.span(s.mode, text)
    return span < 0 ? null : this.spanned(text, 0, span, s.mode, s.md, s.lineState)
  }

  /**
   * A backtick or tilde run carried from the last chunk, which `chunk`
   * continues (outside captures and holds): its characters here are text,
   * and the run is carried longer, as the lexer's runPart token carries it
   * to a text's end; what follows them is a chunk of its own, at whose edge
   * the run's end is decided (any chunking reads alike).
   */
  runGoesOn(chunk: string): Answer {
    const s = this.d.s
    const c = s.carry!
    let k = 0
    while (k < chunk.length && codeAt(chunk, k) === c.ch) k++
    const a = plainThen(this.a, k, 'more')
    a.carry = { ch: c.ch, len: c.len + k, indent: c.indent, mode: s.mode }
    return a
  }

  /** In a raw value, a closer at `from` that spells another opener, with text after it: the value's text through it; null: not one. */
  private rawText(text: string, from: number): Answer | null {
    const cap = this.d.s.capture
    // past the capture's limit the lexer decides (the capture overflows), as for any plain text in a capture
    if (cap === null || cap.length + text.length > this.d.opts.captureLimit) return null
    const n = this.tables.spans.foreignCloser(text, from, this.d.rawOpener())
    if (n === 0) return null
    const a = plainThen(this.a, from + n, 'more')
    a.type = this.fastPath()?.type ?? null
    return a
  }

  /** The chunk only makes the undecided tail a longer prefix, or completes it: read off `tail`, the pending tail and the chunk joined, without lexing the tail again. */
  extendTail(chunk: string, tail: string): Answer | null {
    const d = this.d
    const s = d.s
    if (d.tail === null || s.pending.length + chunk.length > d.lexer.maxDelimiter) return null
    // a tag in an inline comment: held there (`tokens-html.ts`)
    if (s.capture === null && commentLive(s.lineState)) return null
    const matcher = this.matcher()
    if (matcher === undefined) return null
    const next = matcher.step(d.tail, chunk)
    if (next === 'died' && (s.mode === modes.prose || s.mode === modes.span)) {
      // `<` + `code>`, a line-start `<` + `pre>`: no tag, but raw HTML the lexer reads (`htmlAhead`)
      if (this.htmlAhead(tail, s.lineState)) return null
      // `<<<<` + `<`: no delimiter starts at the first `<` any more, so it is plain text there; the rest may still be a
      // tail, or (`< n, so`) nothing starts after the plain `<` either, and the rest is a chunk of its own
      const again = tail.length === 1 ? null : matcher.start(tail.slice(1))
      return again === null ? plainThen(this.a, 1, 'more') : heldAfter(this.a, 1, again)
    }
    // inside a block, an opening tag whose attributes may wait (`openerWaits`); else the tag the tail and the chunk
    // complete (a closer, a block's opening tag, a tag mentioned in prose), lexed over its span
    if (next === 'decide' && s.capture !== null) return this.openerWaits(tail) ?? this.readTag(tail)
    if (next === 'decide' && s.hold === null && (s.mode === modes.prose || s.mode === modes.span)) return this.readTag(tail)
    // `]` + `x` in CDATA, `<` + ` b` in a value: nothing starts where the tail did, so it is a chunk like any other
    if (next === 'died' && s.capture !== null) return plainThen(this.a, 0, 'more')
    if (typeof next === 'string') return null
    return heldAfter(this.a, 0, next)
  }

  /**
   * Inside a capture the held tail and the chunk complete the name of an
   * opening tag that continues the block (`<｜DSML｜parameter` + ` name="pa`):
   * its attributes may wait for the chunk that ends or breaks the tag, as
   * they would after a lexed opener, and one lexer run then takes the tag,
   * its attributes and what follows (the driver asks the deferral). Anything else: the lexer.
   */
  private openerWaits(text: string): Answer | null {
    const opened = this.tables.spans.opener(this.d.s.mode, text)
    if (opened === null) return null
    const a = plainThen(this.a, 0, 'defer')
    a.deferMode = opened.push
    a.end = opened.end
    return a
  }

  /**
   * What the lexer does with plain text ending in line-start spaces
   * (`"code\n  "`): the text goes out, the spaces are held as an undecided
   * tail, since a fence (closer) may follow in the next chunk.
   */
  private textThenIndent(chunk: string, quotes: boolean): Answer {
    return heldAfter(this.a, heldPrefixStart(chunk, this.d.s.lineState, quotes), null)
  }

  /**
   * The chunk has characters that are special in this mode: how much of it
   * is still plain where they stand (the rest, if any, is an undecided
   * tail; in a fence, the rest follows the fence's closer), or -1 when the
   * lexer must look. `special` is where the first special character is.
   */
  private plainUpTo(chunk: string, fp: ModeFastPath, special: number): number {
    const reads = fp.reads
    if (reads === undefined) return this.plainStarts(chunk, fp, special)
    return reads === 'fenceRuns' ? this.fenceRuns(chunk) : this.blankThenTag(chunk)
  }

  /**
   * Between a block's tags: indentation, then the start of the next tag that
   * the chunk end leaves undecided (`\n  </｜DS`). The indentation joins the
   * capture and the tag start is held, as the lexer's Incomplete token would.
   */
  private blankThenTag(chunk: string): number {
    let i = 0
    while (i < chunk.length && blank.has(codeAt(chunk, i))) i++
    const matcher = this.matcher()
    if (i === chunk.length || matcher === undefined) return -1
    this.heldTail = matcher.start(chunk.slice(i))
    // a tag the chunk completes: the blanks join the capture, the tag is lexed over its span
    this.spanAt = this.heldTail === null
    return i
  }

  /**
   * Every special character in the chunk that may start one of the mode's
   * delimiters provably starts none (`a < b`, `List<String>`, `<div>`; `a[i]`
   * in CDATA, `x--y` in a comment), reading only within the chunk, and no
   * other special one is in it: the lexer would make it all text. Or all of
   * them do up to one that the chunk end leaves undecided (`see <｜DS`, `x]]`):
   * the text goes up to it and the rest is held, as the lexer's Incomplete
   * token would hold it.
   */
  private plainStarts(chunk: string, fp: ModeFastPath, special: number): number {
    const matcher = this.matcher()
    const plain = fp.plain
    const starts = fp.starts
    if (plain === undefined || starts === undefined || matcher === undefined) return -1
    // one pass, from the first special character up to the first one that decides: a turn pushed whole is read
    // here once per tag or run in it, so nothing may scan on to the end of the chunk unless the chunk ends here
    let first = special
    const end = chunk.length
    // from special character to special character (plain and starts are the special ones): the text between is text
    const next = fp.special
    while (first < end) {
      const c = codeAt(chunk, first)
      if (plain !== null && plain.has(c)) return -1
      if (starts.has(c) && !matcher.startsNothingAt(chunk, first)) break
      first = next.find(chunk, first + 1)
      if (first < 0) first = end
    }
    let tail: TailState | null = null
    if (first < end) {
      // a delimiter completes inside the chunk (lexed over its span), or may have at its end (held)
      tail = matcher.start(chunk.slice(first))
      this.spanAt = tail === null
      // what is held is no longer than a delimiter
      if (tail !== null && plain !== null && plain.find(chunk, first) >= 0) return -1
    }
    this.heldTail = tail
    return first
  }

}


