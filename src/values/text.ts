/**
 * Text-level rules shared by parameters and nested elements: XML whitespace
 * trimming, entity decoding (rule 3) and joining text with CDATA (rule 2).
 */
import { isBlank } from '../lexer/codes.js'
import type { ValuePart } from '../parser/block-parser.js'

const wsOnly = /^[ \t\r\n]*$/


// loops, not `/\s+$/`: a regex anchored at the end rescans a long run of spaces from every start
function wsEnd(s: string, from: number): number {
  let i = from
  while (i < s.length && isBlank(s.charCodeAt(i))) i++
  return i
}

function wsStart(s: string): number {
  let j = s.length
  while (j > 0 && isBlank(s.charCodeAt(j - 1))) j--
  return j
}

/**
 * Trims XML whitespace only: `String.prototype.trim` would also eat U+3000
 * or U+00A0 at the end of a Chinese or French value, which the model meant.
 */
export function trimXml(s: string): string {
  const i = wsEnd(s, 0)
  return i === s.length ? '' : s.slice(i, wsStart(s))
}

export function isWsOnly(s: string): boolean {
  return wsOnly.test(s)
}

const entity = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g
const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/**
 * The five XML entities and numeric references, decoded once: `&amp;lt;`
 * gives `&lt;`. A reference to a code point XML forbids (NUL, a surrogate,
 * past U+10FFFF) or an unknown name stays as written.
 */
export function decodeEntities(s: string): string {
  if (s.indexOf('&') === -1) return s
  return s.replace(entity, (whole, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name !== undefined) return named[name]!
    const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16)
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return whole
    return String.fromCodePoint(cp)
  })
}

/** The content of a value that is exactly one CDATA section (whitespace around it ignored), or null. */
export function soleCdata(parts: readonly ValuePart[]): string | null {
  let found: string | null = null
  for (const p of parts) {
    if (p.kind === 'cdata') {
      if (found !== null) return null
      found = p.text
    } else if (!isWsOnly(p.text)) return null
  }
  return found
}

/**
 * Rules 2 and 3 for a value with no `string` attribute, as a string: one
 * CDATA section is its content verbatim; otherwise text is entity-decoded,
 * CDATA content kept verbatim, and only the outer edges of text are trimmed,
 * so CDATA at an edge keeps its own whitespace.
 */
export function partsText(parts: readonly ValuePart[]): string {
  const sole = soleCdata(parts)
  if (sole !== null) return sole
  if (parts.length === 1 && parts[0]!.kind === 'text') return decodeEntities(trimXml(parts[0]!.text))
  const out: string[] = []
  const last = parts.length - 1
  parts.forEach((p, i) => {
    if (p.kind === 'cdata') return void out.push(p.text)
    let t = p.text
    if (i === last) t = t.slice(0, wsStart(t))
    if (i === 0) t = t.slice(wsEnd(t, 0))
    out.push(decodeEntities(t))
  })
  return out.join('')
}

export function hasCdata(parts: readonly ValuePart[]): boolean {
  return parts.some((p) => p.kind === 'cdata')
}
