/**
 * Rule 5: a parameter value made of nested XML elements
 * (`<name>Ada</name><age>36</age>`). A small scanner over the value's raw
 * text: CDATA sections and comments are opaque, exactly as the lexer saw them.
 *
 * ```
 * > | <name>Ada</name><age>36</age>
 *     ^ element     ^ close       ^ element
 * ```
 *
 * Only elements without attributes count: `<item id="1">` is not structure we
 * can keep losslessly, so such a value stays a string. Deep nesting past
 * {@link maxDepth} also stays a string rather than risk the call stack.
 */
import type { ValuePart } from '../parser/block-parser.js'
import { isWsOnly } from './text.js'

export interface XmlElement {
  name: string
  content: XmlContent
}

export interface XmlContent {
  /** Direct text and CDATA, in order (comments dropped). */
  parts: ValuePart[]
  children: XmlElement[]
  /** Text (not whitespace) or CDATA beside child elements: `Run <code>x</code> now`. */
  mixed: boolean
  /** The content as written, for a mixed element whose value is its text. */
  raw: string
}

const maxDepth = 64
// ASCII XML names plus any non-ASCII letter, the way models name fields in other scripts
const nameRe = /[A-Za-z_:\u00c0-\uffff][-A-Za-z0-9_.:\u00b7\u00c0-\uffff]*/y
const wsRe = /[ \t\r\n]*/y

class Scanner {
  i = 0
  constructor(readonly s: string) {}

  name(): string | null {
    nameRe.lastIndex = this.i
    const m = nameRe.exec(this.s)
    if (m === null) return null
    this.i += m[0].length
    return m[0]
  }

  ws(): void {
    wsRe.lastIndex = this.i
    wsRe.exec(this.s)
    this.i = wsRe.lastIndex
  }

  /** Content up to `</close>` (or the end when `close` is null); null when it is not well-formed. */
  content(close: string | null, depth: number): XmlContent | null {
    if (depth > maxDepth) return null
    const s = this.s
    const parts: ValuePart[] = []
    const children: XmlElement[] = []
    const start = this.i
    while (this.i < s.length) {
      if (s.startsWith('<![CDATA[', this.i)) {
        const end = s.indexOf(']]>', this.i + 9)
        if (end === -1) return null
        parts.push({ kind: 'cdata', text: s.slice(this.i + 9, end) })
        this.i = end + 3
      } else if (s.startsWith('<!--', this.i)) {
        const end = s.indexOf('-->', this.i + 4)
        if (end === -1) return null
        this.i = end + 3
      } else if (s.startsWith('</', this.i)) {
        if (close === null) return null
        const end = this.i
        this.i += 2
        if (this.name() !== close) return null
        this.ws()
        if (s.charCodeAt(this.i) !== 0x3e) return null
        this.i++
        return finish(parts, children, s.slice(start, end))
      } else if (s.charCodeAt(this.i) === 0x3c) {
        this.i++
        const el = this.element(depth)
        if (el === null) return null
        children.push(el)
      } else {
        const next = s.indexOf('<', this.i)
        const end = next === -1 ? s.length : next
        pushText(parts, s.slice(this.i, end))
        this.i = end
      }
    }
    return close === null ? finish(parts, children, s.slice(start)) : null
  }

  /** After the `<` of an opening tag. */
  private element(depth: number): XmlElement | null {
    const name = this.name()
    if (name === null) return null
    this.ws()
    if (this.s.startsWith('/>', this.i)) {
      this.i += 2
      return { name, content: { parts: [], children: [], mixed: false, raw: '' } }
    }
    if (this.s.charCodeAt(this.i) !== 0x3e) return null
    this.i++
    const content = this.content(name, depth + 1)
    return content === null ? null : { name, content }
  }
}

/** Text split by a comment is one run, as in the block parser. */
function pushText(parts: ValuePart[], text: string): void {
  const last = parts[parts.length - 1]
  if (last !== undefined && last.kind === 'text') last.text += text
  else parts.push({ kind: 'text', text })
}

function finish(parts: ValuePart[], children: XmlElement[], raw: string): XmlContent {
  const mixed = children.length > 0 && parts.some((p) => p.kind === 'cdata' || !isWsOnly(p.text))
  return { parts, children, mixed, raw }
}

/**
 * The elements of `raw` when it is nothing but elements (with whitespace and
 * comments between them); null otherwise.
 */
export function parseElements(raw: string): XmlElement[] | null {
  const top = new Scanner(raw).content(null, 0)
  if (top === null || top.children.length === 0 || top.mixed) return null
  if (top.parts.some((p) => p.kind === 'cdata' || !isWsOnly(p.text))) return null
  return top.children
}

/** Splits raw text into text and CDATA parts (comments dropped), as the block parser does. */
export function rawParts(s: string): ValuePart[] {
  const parts: ValuePart[] = []
  let i = 0
  while (i < s.length) {
    const cd = s.indexOf('<![CDATA[', i)
    const cm = s.indexOf('<!--', i)
    const next = cd === -1 ? cm : cm === -1 ? cd : Math.min(cd, cm)
    const isCdata = next === cd
    const end = next === -1 ? -1 : s.indexOf(isCdata ? ']]>' : '-->', next + (isCdata ? 9 : 4))
    if (end === -1) {
      pushText(parts, s.slice(i))
      break
    }
    if (next > i) pushText(parts, s.slice(i, next))
    if (isCdata) parts.push({ kind: 'cdata', text: s.slice(next + 9, end) })
    i = end + 3
  }
  return parts
}
