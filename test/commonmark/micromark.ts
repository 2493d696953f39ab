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
  /** The document has a block quote or a list item: its fences may be inside one. */
  containers: boolean
}

type Events = ReturnType<typeof postprocess>

export function micromarkEvents(markdown: string): Events {
  return postprocess(parse().document().write(preprocess()(markdown, undefined, true)))
}

const containerTypes = new Set(['blockQuote', 'listOrdered', 'listUnordered'])

export function referenceRanges(markdown: string): ReferenceRanges {
  const out: ReferenceRanges = { fenced: [], text: [], indented: [], containers: false }
  for (const [kind, token] of micromarkEvents(markdown)) {
    if (kind !== 'enter') continue
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
    if (s > 0 && text.charCodeAt(s - 1) !== 0x0a) s = start
    let e = end
    for (;;) {
      while (e > s && isBlank(text.charCodeAt(e - 1))) e--
      let b = e
      while (b > s && (text.charCodeAt(b - 1) === 0x3e || text.charCodeAt(b - 1) === 0x20 || text.charCodeAt(b - 1) === 0x09)) b--
      if (b === e || b === s || text.charCodeAt(b - 1) !== 0x0a) break
      e = b
    }
    return { start: s, end: e }
  })
}
