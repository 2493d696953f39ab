/**
 * Raw HTML tags and autolinks take precedence over code spans (CommonMark
 * 6.1: "code span backticks have higher precedence than any other inline
 * constructs except HTML tags and autolinks"): in `<a href="`">` the
 * backtick inside the attribute is no run at all. This recognises, one
 * character at a time, an open tag, a URI autolink or a comment from its `<`,
 * in a few bits of the line state (see `lines.ts`), so that a backtick run
 * that stands inside one can wait for it to end: `>` completes it (the run
 * was literal), anything else voids it (the run was a run).
 *
 * ```
 * > | <a href="`">`
 *     ^ candidate (open tag)
 *              ^ run inside it: held until the tag ends
 *                ^ `>` completes the tag: that backtick was literal
 * ```
 *
 * Not recognised (the backticks in them stay runs): closing tags (no
 * backtick can stand in one), processing instructions, declarations, CDATA
 * sections and email autolinks.
 */
import { isAsciiDigit, isBlank } from './codes.js'

// Bits 18-29 of the line state.
const SHIFT = 18
const PHASE = 15 << SHIFT
const LEN_SHIFT = 22
const LEN = 63 << LEN_SHIFT
/** Open tag still possible (NAME); no comment body yet (COMMENT). */
const FLAG_A = 1 << 28
/** URI scheme still possible (NAME). */
const FLAG_B = 1 << 29
export const candidateBits = PHASE | LEN | FLAG_A | FLAG_B

const phase = (n: number) => n << SHIFT
const LT = phase(1)
const NAME = phase(2)
const TAG_WS = phase(3)
const ATTR_NAME = phase(4)
const ATTR_WS = phase(5)
const EQ = phase(6)
const UNQUOTED = phase(7)
const DQ = phase(8)
const SQ = phase(9)
const SLASH = phase(10)
const URI = phase(11)
const BANG = phase(12)
const BANG_DASH = phase(13)
const COMMENT = phase(14)
const VALUE_END = phase(15)

/** The candidate completed with this character: what it held was part of it. */
export const DONE = -2
/** The candidate cannot be one any more. */
export const VOID = -1

/** A `<` starts a candidate. */
export const candidateStart = LT

export const candidateLive = (ls: number): boolean => (ls & PHASE) !== 0

/** An inline comment is open (past `<!--`, before its `-->`): a tag here waits for it (`tokens-html.ts`). */
export const commentLive = (ls: number): boolean => (ls & PHASE) === COMMENT

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
const isAttrStart = (c: number) => isLetter(c) || c === 0x5f || c === 0x3a
const isAttrChar = (c: number) => isAttrStart(c) || isAsciiDigit(c) || c === 0x2e || c === 0x2d
const GT = 0x3e
const SLASH_CH = 0x2f

/**
 * The candidate bits after character `c` (a line feed is whitespace: the
 * line state voids a candidate at a blank line), or {@link DONE} / {@link VOID}.
 */
export function candidateStep(h: number, c: number): number {
  const p = h & PHASE
  switch (p) {
    case LT:
      if (isLetter(c)) return NAME | (1 << LEN_SHIFT) | FLAG_A | FLAG_B
      return c === 0x21 ? BANG : VOID
    case NAME: {
      const n = (h & LEN) >> LEN_SHIFT
      const tag = (h & FLAG_A) !== 0
      const scheme = (h & FLAG_B) !== 0 && n <= 32
      if (isLetter(c) || isAsciiDigit(c) || c === 0x2d) return (h & ~LEN) | (Math.min(33, n + 1) << LEN_SHIFT)
      if (c === 0x2b || c === 0x2e) return scheme ? NAME | (Math.min(33, n + 1) << LEN_SHIFT) | FLAG_B : VOID
      if (c === 0x3a) return scheme && n >= 2 ? URI : VOID
      if (!tag) return VOID
      if (isBlank(c)) return TAG_WS
      if (c === GT) return DONE
      return c === SLASH_CH ? SLASH : VOID
    }
    case TAG_WS:
    case ATTR_WS:
      if (isBlank(c)) return h
      if (isAttrStart(c)) return ATTR_NAME
      if (p === ATTR_WS && c === 0x3d) return EQ
      if (c === GT) return DONE
      return c === SLASH_CH ? SLASH : VOID
    case ATTR_NAME:
      if (isAttrChar(c)) return h
      if (isBlank(c)) return ATTR_WS
      if (c === 0x3d) return EQ
      if (c === GT) return DONE
      return c === SLASH_CH ? SLASH : VOID
    case EQ:
      if (isBlank(c)) return h
      if (c === 0x22) return DQ
      if (c === 0x27) return SQ
      return c === GT || c === 0x3d || c === 0x3c || c === 0x60 ? VOID : UNQUOTED
    case UNQUOTED:
      if (isBlank(c)) return TAG_WS
      if (c === GT) return DONE
      return c === 0x22 || c === 0x27 || c === 0x3d || c === 0x3c || c === 0x60 ? VOID : h
    case DQ:
      return c === 0x22 ? VALUE_END : h
    case SQ:
      return c === 0x27 ? VALUE_END : h
    case VALUE_END:
      if (isBlank(c)) return TAG_WS
      if (c === GT) return DONE
      return c === SLASH_CH ? SLASH : VOID
    case SLASH:
      return c === GT ? DONE : VOID
    case URI:
      if (c === GT) return DONE
      return c <= 0x20 || c === 0x3c ? VOID : h
    case BANG:
      return c === 0x2d ? BANG_DASH : VOID
    case BANG_DASH:
      return c === 0x2d ? COMMENT | FLAG_A : VOID
    case COMMENT: {
      // `<!-->` and `<!--->` are whole comments; otherwise it ends at `-->`
      const fresh = (h & FLAG_A) !== 0
      const dashes = (h & LEN) >> LEN_SHIFT
      if (c === GT) return fresh || dashes >= 2 ? DONE : COMMENT
      if (c === 0x2d) return COMMENT | (fresh ? 2 : Math.min(2, dashes + 1)) << LEN_SHIFT
      return COMMENT
    }
    default:
      return c === 0x3c ? LT : h
  }
}
