/**
 * Sets of UTF-16 code units the fast path test characters against: the
 * characters that may start a construct in a mode, tag starts and ends,
 * blanks.
 */
import { classUnits, codeAt, codes } from '../lexer/codes.js'

/**
 * A set of UTF-16 code units, tested per character: a table for ASCII and a
 * short list for the rest (`＜`, `｜`). A regex `test()` per chunk cost more
 * than the chunk's whole trip through the fast path at token-sized chunks.
 */
export class CharSet {
  private readonly ascii = new Uint8Array(128)
  private readonly wide: number[]
  /** Every character but these is in the set. */
  private readonly inverted: boolean

  /** The range of `wide`: most text outside ASCII (CJK, accents) falls below the fullwidth forms with one test. */
  private readonly wideMin: number
  private readonly wideMax: number

  /** The set as a global character class, for `find`: the engine's scan instead of a test per character. */
  private readonly re: RegExp

  constructor(private readonly listed: readonly number[], inverted = false) {
    for (const c of listed) if (c < 128) this.ascii[c] = 1
    this.wide = [...new Set(listed.filter((c) => c >= 128))]
    this.wideMin = Math.min(...this.wide)
    this.wideMax = Math.max(...this.wide)
    this.inverted = inverted
    const units = classUnits([...new Set(listed)])
    // an empty set finds nothing, and its inverse everything
    this.re = units === '' ? (inverted ? /[^]/g : /[]/g) : new RegExp(`[${inverted ? '^' : ''}${units}]`, 'g')
  }

  /** This set and `more`. */
  with(more: readonly number[]): CharSet {
    return this.inverted ? new CharSet(this.listed.filter((c) => !more.includes(c)), true) : new CharSet([...this.listed, ...more])
  }

  has(c: number): boolean {
    let hit: boolean
    if (c < 128) hit = this.ascii[c] === 1
    else if (c < this.wideMin || c > this.wideMax) hit = false
    else {
      hit = false
      for (let i = 0; i < this.wide.length; i++) if (this.wide[i] === c) hit = true
    }
    return hit !== this.inverted
  }

  /** Index of the first character of `text` in the set from `from` on, before `to`, or -1. */
  findBefore(text: string, from: number, to: number): number {
    const end = Math.min(to, text.length)
    for (let i = from; i < end; i++) if (this.has(codeAt(text, i))) return i
    return -1
  }

  /** Index of the first character of `text` in the set (from `from` on), or -1. */
  find(text: string, from = 0): number {
    // a few characters (token-sized chunks) cost less to test one by one than a regex call
    // the length read once: over strings of many layouts that read is a generic lookup (see `codeAt`)
    const end = text.length
    if (end - from <= 32) {
      // the loop written here, not a call to `findBefore`: this runs once or twice per chunk, and the call showed
      for (let i = from; i < end; i++) if (this.has(codeAt(text, i))) return i
      return -1
    }
    const re = this.re
    re.lastIndex = from
    return re.test(text) ? re.lastIndex - 1 : -1
  }
}

const blanks = [codes.space, codes.tab, codes.carriageReturn, codes.lineFeed]
/** Spaces, tabs and line breaks: the whitespace between a block's tags. */
export const blank = new CharSet(blanks)
/** Anything but spaces, tabs and line breaks. */
export const notBlank = new CharSet(blanks, true)
