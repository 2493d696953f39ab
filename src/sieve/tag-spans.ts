/**
 * How far a lexer run over a tag reaches (docs/DESIGN.md, "The sieve's
 * shape"). The fast path reads no tag: where a delimiter completes in the
 * text (a closer, a block's opening tag, a tag mentioned in prose, CDATA's
 * `]]>`), it hands the lexer a span that covers it, and reads what follows
 * as a chunk of its own. A span's end is a chunk edge like any other, so
 * where it falls changes how fast, never what: a span that stops short (a
 * `>` inside a quoted attribute) leaves the lexer holding the rest, as at a
 * chunk's end, and the next chunk decides it.
 */
import type { CompiledLexer } from '../lexer/lexer.js'
import { tagKey } from '../lexer/context.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { CaptureRules, tagModeRole } from '../lexer/structure.js'
import { blank, type CharSet } from './char-set.js'
import { codeAt } from '../lexer/codes.js'

/** How far after a tag's start or name its end may be for a span to reach it. */
const nearTagEnd = 256

export class TagSpans {
  private readonly rules = new CaptureRules()

  constructor(private readonly lexer: CompiledLexer, private readonly tagStarts: CharSet, private readonly tagEnds: CharSet) {}

  /**
   * The length of the span from the start of `text` (in `mode`) that covers
   * the delimiter completing first there: a closer through its end, an
   * opening tag through the first tag end near its name (or one character
   * past the name, which decides it), a tag mode's attributes through
   * their tag end. -1: nothing there the span can bound; the lexer takes
   * all of the text.
   */
  span(mode: ModeName, text: string): number {
    const matcher = this.lexer.tails.get(mode)
    const tagMode = tagModeRole.has(mode)
    const hit = tagMode ? null : matcher?.firstCompletion(text) ?? null
    if (hit !== null && !hit.opener) return this.andNext(text, hit.end)
    // a name that goes on (`<invokes`) is no opener: the lexer's
    if (!tagMode && (hit === null || !matcher!.confirms(hit.d, text, hit.end))) return -1
    const from = hit === null ? 0 : hit.end
    // only near the name: a search to the text's end per mention was quadratic in a long text of mentions
    const end = this.tagEnds.findBefore(text, from, from + nearTagEnd)
    return end >= 0 ? this.andNext(text, end + 1) : from > 0 && from < text.length ? from + 1 : -1
  }

  /** The last closer `foreignCloser` keyed, and its key: the same few closers recur. */
  private closerImage = ''
  private closerKey = ''

  /**
   * In a raw value whose opener's key is `rawOpener`, a closer at `from` in
   * `text` that spells another opener, with text after it and no tag start
   * inside it: its length (it is the value's text, as the lexer reads it; at
   * the text's end the lexer would hold it). 0: none.
   */
  foreignCloser(text: string, from: number, rawOpener: string): number {
    const hit = this.lexer.tails.get(modes.rawValue)?.firstCompletion(from === 0 ? text : text.slice(from)) ?? null
    if (hit === null || hit.opener || from + hit.end >= text.length) return 0
    const image = text.slice(from, from + hit.end)
    // another tag may start inside it (`<</｜DSML｜parameter>`: the first `<` is the value's, the value's own closer
    // follows): the lexer's
    if (this.tagStarts.findBefore(image, 1, image.length) >= 0) return 0
    if (image !== this.closerImage) {
      this.closerImage = image
      this.closerKey = tagKey(image)
    }
    return this.closerKey === rawOpener ? 0 : hit.end
  }

  /**
   * A span ending at `end`, and the tags that follow it after blanks only
   * (a block's `</parameter>\n</invoke>\n</tool_calls>`): one run lexes
   * them all, each run's setup costing more than its few characters. A tag
   * start whose end is not near stops it.
   */
  private andNext(text: string, end: number): number {
    for (;;) {
      let i = end
      while (i < text.length && blank.has(codeAt(text, i))) i++
      if (i === text.length || !this.tagStarts.has(codeAt(text, i))) return end
      const next = this.tagEnds.findBefore(text, i, i + nearTagEnd)
      if (next < 0) return end
      end = next + 1
    }
  }

  /**
   * The opening tag whose name `text` starts with, in body mode `mode`,
   * when it continues the block: the tag mode its token pushes, and where
   * the name ends (its attributes may wait unlexed: `deferral.ts`).
   */
  opener(mode: ModeName, text: string): { push: ModeName; end: number } | null {
    const lexer = this.lexer
    const matcher = lexer.tails.get(mode)
    const types = lexer.delimiterTokens.get(mode)
    const hit = matcher?.firstCompletion(text) ?? null
    const type = hit === null || !hit.opener ? null : types?.[hit.d]
    if (hit === null || type === null || type === undefined) return null
    const info = lexer.infoByIdx[type.tokenTypeIdx!]!
    if (info.push === null || !this.rules.continues(mode, info.category) || !matcher!.confirms(hit.d, text, hit.end)) return null
    return { push: info.push, end: hit.end }
  }
}
