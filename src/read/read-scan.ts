/**
 * The scanning a block reader needs: blanks, literals, tags in a pack's
 * spelling, and where a JSON or Python value ends. Every step moves forward
 * over the text at most once (searches are bounded and consumed), so reading
 * a block is linear in its length.
 *
 * A read that cannot go on throws {@link ReadError}; `readBlock` turns it
 * into `{ ok: false, reason }` and nothing else escapes it.
 */
import type { TagSpelling } from '../types.js'
import { isBlank } from '../lexer/codes.js'
import { decodeEntities, trimXml } from '../values/text.js'

/** Why a block could not be read: the message names what was expected where. */
export class ReadError extends Error {}

export function fail(reason: string): never {
  throw new ReadError(reason)
}

/** Char codes the scanners dispatch on (docs/STYLE.md §7). */
const C = {
  tab: 0x09,
  lf: 0x0a,
  cr: 0x0d,
  space: 0x20,
  quote: 0x22,
  apostrophe: 0x27,
  leftParen: 0x28,
  rightParen: 0x29,
  comma: 0x2c,
  leftBracket: 0x5b,
  backslash: 0x5c,
  rightBracket: 0x5d,
  leftBrace: 0x7b,
  rightBrace: 0x7d,
} as const

export function isBlankText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isBlank(s.charCodeAt(i))) return false
  return true
}

/** A short, printable look at the text at `at`, for failure reasons. */
export function shown(text: string, at: number): string {
  if (at >= text.length) return 'the end of the block'
  const s = text.slice(at, at + 24)
  return `${JSON.stringify(s)}${at + 24 < text.length ? '…' : ''} at offset ${at}`
}

/** A position in `text`, never past `end`. */
export class Scan {
  constructor(
    readonly text: string,
    public at: number,
    public end: number,
  ) {}

  blanks(): void {
    while (this.at < this.end && isBlank(this.text.charCodeAt(this.at))) this.at++
  }

  done(): boolean {
    return this.at >= this.end
  }

  startsWith(lit: string): boolean {
    return lit !== '' && this.at + lit.length <= this.end && this.text.startsWith(lit, this.at)
  }

  /** The longest of `lits` at the cursor, consumed; null when none is there. */
  eatAny(lits: readonly string[]): string | null {
    let best: string | null = null
    for (const l of lits) if ((best === null || l.length > best.length) && this.startsWith(l)) best = l
    if (best !== null) this.at += best.length
    return best
  }

  expect(lits: readonly string[], what: string): string {
    const got = this.eatAny(lits)
    if (got === null) fail(`expected ${what} (${lits.map((l) => JSON.stringify(l)).join(' or ')}), found ${shown(this.text, this.at)}`)
    return got
  }

  /** Each literal's last search: where it started and what it found, so asking again further on does not search the same text twice. */
  private readonly found = new Map<string, { from: number; at: number }>()

  /** Where `lit` next starts at or after the cursor, or -1 when it does not before `end`. */
  find(lit: string): number {
    const memo = this.found.get(lit)
    let i: number
    if (memo !== undefined && memo.from <= this.at && (memo.at === -1 || memo.at >= this.at)) i = memo.at
    else {
      i = this.text.indexOf(lit, this.at)
      this.found.set(lit, { from: this.at, at: i })
    }
    return i === -1 || i + lit.length > this.end ? -1 : i
  }

  /** A piece between blanks: `core` when the written string has more than blanks (`, `), else only blanks. */
  separator(written: string): boolean {
    const core = trimXml(written)
    this.blanks()
    if (core === '') return true
    if (!this.startsWith(core)) return false
    this.at += core.length
    this.blanks()
    return true
  }
}

/** An opening tag read: its attributes (decoded) and its value slot (`<function=f>`). */
export interface OpenTag {
  attrs: Map<string, string>
  value: string | undefined
}

const attrName = /[^\s=<>"'/]+/y
const slotValue = /[^\s<>="'/]+/y

/** `sp.open + name`, then a value slot, attributes and `sp.end`: the tag at the cursor, consumed. */
export function openTag(scan: Scan, sp: TagSpelling, name: string): OpenTag {
  const start = scan.at
  scan.expect([sp.open + name], `the tag ${sp.open + name + sp.end}`)
  const attrs = new Map<string, string>()
  let value: string | undefined
  const text = scan.text
  if (text.charCodeAt(scan.at) === 0x3d) {
    slotValue.lastIndex = scan.at + 1
    const m = slotValue.exec(text)
    if (m === null || slotValue.lastIndex > scan.end) fail(`the tag at offset ${start} has an empty value slot`)
    value = m[0]
    scan.at += 1 + value.length
  } else if (!scan.startsWith(sp.end) && !isBlank(text.charCodeAt(scan.at))) {
    // `<tool_calls>` is not `<tool_call>`
    fail(`expected the tag ${sp.open + name + sp.end}, found ${shown(text, start)}`)
  }
  for (;;) {
    scan.blanks()
    if (scan.startsWith(sp.end)) {
      scan.at += sp.end.length
      return { attrs, value }
    }
    attrName.lastIndex = scan.at
    const m = attrName.exec(text)
    if (m === null || attrName.lastIndex > scan.end) fail(`the tag at offset ${start} is not closed by ${JSON.stringify(sp.end)}: found ${shown(text, scan.at)}`)
    const key = m[0]
    scan.at += key.length
    scan.blanks()
    scan.expect(['='], `"=" after the attribute ${key}`)
    scan.blanks()
    const q = text[scan.at]
    if (q !== '"' && q !== "'") fail(`the attribute ${key} at offset ${scan.at} is not quoted`)
    scan.at++
    const close = scan.find(q)
    scan.at--
    if (close === -1) fail(`the attribute ${key} at offset ${scan.at} has no closing quote`)
    if (attrs.has(key)) fail(`the attribute ${key} is given twice at offset ${start}`)
    // trimmed, then decoded: `&#32;` keeps an edge space, as the writer spells one
    attrs.set(key, decodeEntities(trimXml(text.slice(scan.at + 1, close))))
    scan.at = close + 1
  }
}

/** `sp.close + name`, blanks, `sp.end`: the closing tag at the cursor, consumed. */
export function closeTag(scan: Scan, sp: TagSpelling, name: string): void {
  scan.expect([sp.close + name], `the closing tag ${sp.close + name + sp.end}`)
  scan.blanks()
  scan.expect([sp.end], `${JSON.stringify(sp.end)} ending the closing tag ${sp.close + name}`)
}

/** Skips a string opened by `q` at `i`; the index after its closing quote, or -1. */
function stringEnd(s: string, i: number, end: number, q: number): number {
  for (let j = i + 1; j < end; j++) {
    const c = s.charCodeAt(j)
    if (c === q) return j + 1
    if (c === C.backslash) j++
  }
  return -1
}

/**
 * Where the JSON value starting at `i` ends (brackets balanced, strings
 * skipped), or -1: the text up to it is then for `parseJson` to check.
 */
export function jsonEnd(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i)
  if (c === C.quote) return stringEnd(s, i, end, C.quote)
  if (c !== C.leftBrace && c !== C.leftBracket) {
    let j = i
    while (j < end && /[-+.0-9a-zA-Z]/.test(s[j]!)) j++
    return j === i ? -1 : j
  }
  let depth = 0
  for (let j = i; j < end; j++) {
    const d = s.charCodeAt(j)
    if (d === C.quote) {
      j = stringEnd(s, j, end, C.quote)
      if (j === -1) return -1
      j--
    } else if (d === C.leftBrace || d === C.leftBracket) depth++
    else if (d === C.rightBrace || d === C.rightBracket) {
      if (--depth === 0) return j + 1
    }
  }
  return -1
}

/**
 * Where a Python argument value starting at `i` ends: at the first `,` or
 * `)` outside brackets and strings; -1 when the text runs out first.
 */
export function pythonEnd(s: string, i: number, end: number): number {
  let depth = 0
  for (let j = i; j < end; j++) {
    const c = s.charCodeAt(j)
    if (c === C.quote || c === C.apostrophe) {
      j = stringEnd(s, j, end, c)
      if (j === -1) return -1
      j--
    } else if (c === C.leftParen || c === C.leftBracket || c === C.leftBrace) depth++
    else if (c === C.rightBracket || c === C.rightBrace) depth--
    else if (c === C.rightParen) {
      if (depth === 0) return j
      depth--
    } else if (c === C.comma && depth === 0) return j
  }
  return -1
}
