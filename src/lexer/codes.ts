/** Char codes the matchers dispatch on (docs/STYLE.md §7: named constants, no enums). */
export const codes = {
  tab: 0x09,
  lineFeed: 0x0a,
  carriageReturn: 0x0d,
  space: 0x20,
  exclamationMark: 0x21,
  quotationMark: 0x22,
  apostrophe: 0x27,
  lessThan: 0x3c,
  equalsTo: 0x3d,
  greaterThan: 0x3e,
  questionMark: 0x3f,
  rightSquareBracket: 0x5d,
  graveAccent: 0x60,
  leftCurlyBrace: 0x7b,
  verticalBar: 0x7c,
  tilde: 0x7e,
  dash: 0x2d,
  fullwidthLessThan: 0xff1c,
  fullwidthGreaterThan: 0xff1e,
  fullwidthVerticalBar: 0xff5c,
} as const

/** A blank: space, tab, LF or CR (what Markdown, attributes, JSON and the readers all skip alike). */
export const isBlank = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

export const isAsciiDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
/** A bullet list marker: `-`, `+` or `*`. */
export const isBulletMarker = (c: number): boolean => c === codes.dash || c === 0x2b || c === 0x2a
/** What ends an ordered list marker's digits: `.` or `)`. */
export const isOrderedDelimiter = (c: number): boolean => c === 0x2e || c === 0x29

/** Characters that may continue an XML-ish local name: a tag name only matches when the next char is not one of these. */
export const nameCharClass = 'A-Za-z0-9_.:\\-'
/** The characters of {@link nameCharClass}, one by one. */
export const nameChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-'

/** A character of {@link nameCharClass} (`[A-Za-z0-9_.:-]`). */
export function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2e || c === 0x2d
}

/**
 * Every UTF-16 code unit except `excluded`, ascending: the `start_chars_hint`
 * of "anything else" tokens. A list is 65k entries: the lexer being built
 * asks for each exclusion set once (`TokenFactory.allCharsExcept`).
 */
export function allCharsExcept(excluded: Iterable<number>): number[] {
  const skip = new Uint8Array(0x10000)
  let n = 0x10000
  for (const c of excluded) {
    if (c >= 0 && c < 0x10000 && skip[c] === 0) {
      skip[c] = 1
      n--
    }
  }
  const out = new Array<number>(n)
  for (let c = 0, j = 0; c < 0x10000; c++) if (skip[c] === 0) out[j++] = c
  return out
}

/** Code units as the inside of a regex character class, one `\\uXXXX` each (any unit is safe there, `]` and `^` too). */
export function classUnits(units: readonly number[]): string {
  return units.map((c) => '\\u' + c.toString(16).padStart(4, '0')).join('')
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\\/-]/g, '\\$&')
}

const charCodeAt = String.prototype.charCodeAt

/**
 * `s.charCodeAt(i)`, called through the prototype's function. A streamed
 * text reaches the same reading loops as strings of many layouts (one- and
 * two-byte, joined, sliced, internalized); a property read of `charCodeAt`
 * on more than four of them goes megamorphic in V8, and each character then
 * costs a generic lookup and call. The prototype's function is one constant,
 * so the engine inlines the character read whatever the layout.
 */
export const codeAt = (s: string, i: number): number => charCodeAt.call(s, i)
