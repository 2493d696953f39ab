/**
 * The reference side of the CommonMark oracle: micromark's `codeFenced` and
 * `codeText` token ranges, read from its event stream through its public
 * `parse` / `preprocess` / `postprocess` API (the way its own `micromark()`
 * compiles), plus whether the document uses container blocks.
 */
import { parse, postprocess, preprocess } from 'micromark'
import type { Span } from '../../src/types.js'

export interface ReferenceRanges {
  fenced: Span[]
  text: Span[]
  /** Indented code (`codeIndented`): code too, for the guard's decision on a block. */
  indented: Span[]
  /**
   * Raw HTML that hides markup (the guard's HTML rules): HTML blocks of
   * kind 1 (`<pre>`, `<script>`, `<style>`, `<textarea>`) to 5 (comments,
   * processing instructions, declarations, CDATA sections),
   * inline comments, and inline `<code>` to the next `</code>` of its
   * paragraph (or the paragraph's end: then nothing, `<code>` was no
   * element's start that hides anything).
   */
  html: Span[]
  /** The document has a block quote or a list item: its fences may be inside one. */
  containers: boolean
}

type Events = ReturnType<typeof postprocess>

export function micromarkEvents(markdown: string): Events {
  return postprocess(parse().document().write(preprocess()(markdown, undefined, true)))
}

/** The start of an HTML block of kind 1 to 5 (`<![CDATA[` is case-sensitive; the rest are not). */
const htmlBlock = /^[ \t]*(?:<!--|<\?|<![A-Za-z]|<!\[CDATA\[|<(?:[Pp][Rr][Ee]|[Ss][Cc][Rr][Ii][Pp][Tt]|[Ss][Tt][Yy][Ll][Ee]|[Tt][Ee][Xx][Tt][Aa][Rr][Ee][Aa])(?:[ \t>\r\n]|$))/
const containerTypes = new Set(['blockQuote', 'listOrdered', 'listUnordered'])

export function referenceRanges(markdown: string): ReferenceRanges {
  const out: ReferenceRanges = { fenced: [], text: [], indented: [], html: [], containers: false }
  // the first `<code>` of the paragraph still open, and how many are open (nested ones close in turn)
  let codeOpen = -1
  let codeDepth = 0
  for (const [kind, token] of micromarkEvents(markdown)) {
    if (token.type === 'paragraph') codeOpen = -1
    if (token.type === 'paragraph') codeDepth = 0
    if (kind !== 'enter') continue
    const raw = markdown.slice(token.start.offset, token.end.offset)
    if (token.type === 'htmlFlow' && htmlBlock.test(raw)) out.html.push({ start: token.start.offset, end: token.end.offset })
    if (token.type === 'htmlText') {
      if (raw.startsWith('<!--')) out.html.push({ start: token.start.offset, end: token.end.offset })
      else if (/^<code[ \t>]/i.test(raw) && !raw.endsWith('/>') && !raw.includes('\n')) {
        if (codeDepth++ === 0) codeOpen = token.start.offset
      } else if (/^<\/code[ \t]*>/i.test(raw) && codeDepth > 0) {
        out.html.push({ start: codeOpen, end: token.end.offset })
        codeOpen = token.end.offset
        if (--codeDepth === 0) codeOpen = -1
      }
    }
    if (containerTypes.has(token.type)) out.containers = true
    const span = { start: token.start.offset, end: token.end.offset }
    if (token.type === 'codeFenced') out.fenced.push(span)
    else if (token.type === 'codeText') out.text.push(span)
    else if (token.type === 'codeIndented') out.indented.push(span)
  }
  return out
}

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/**
 * One shape for both sides: a fenced range starts at its line start when
 * only spaces or tabs precede it there (micromark leaves the indent out),
 * and trailing whitespace and line endings are trimmed (micromark keeps the
 * blank lines of an unclosed fence; toolsieve runs to the end of input), and
 * so are trailing lines of only block quote markers (blank lines of a fence
 * in a quote: micromark's token ends before their markers).
 */
export function normaliseFenced(text: string, spans: readonly Span[]): Span[] {
  return spans.map(({ start, end }) => {
    let s = start
    while (s > 0 && (text.charCodeAt(s - 1) === 0x20 || text.charCodeAt(s - 1) === 0x09)) s--
    // a line starts after LF or CR (CRLF too: its LF)
    if (s > 0 && text.charCodeAt(s - 1) !== 0x0a && text.charCodeAt(s - 1) !== 0x0d) s = start
    let e = end
    for (;;) {
      while (e > s && isBlank(text.charCodeAt(e - 1))) e--
      let b = e
      while (b > s && (text.charCodeAt(b - 1) === 0x3e || text.charCodeAt(b - 1) === 0x20 || text.charCodeAt(b - 1) === 0x09)) b--
      if (b === e || b === s || (text.charCodeAt(b - 1) !== 0x0a && text.charCodeAt(b - 1) !== 0x0d)) break
      e = b
    }
    return { start: s, end: e }
  })
}
