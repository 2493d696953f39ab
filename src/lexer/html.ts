/**
 * Raw HTML where CommonMark makes markup an example (docs/DESIGN.md, "Markdown
 * guard"): what starts and ends an HTML block of kind 1 (`<pre>`,
 * `<script>`, `<style>`, `<textarea>`), 2 (a comment), 3 (a processing
 * instruction), 4 (a declaration) or 5 (a CDATA section), and the inline
 * `<code>` element's tags. Pure functions of the text: each answers a match
 * (where it ends), no, or `more` (the text ends before that is known, and
 * more may come), and the tokens of `tokens-html.ts` hold a `more` as an
 * undecided tail (docs/STYLE.md §4).
 *
 * ```
 * > | <pre class="x">
 *     ^^^^ kind 1 opener at a line start (at most 3 spaces in): a name, then a space, tab, `>` or the line's end
 * > | <tool_calls>…
 *     ^ content: text to the line holding a closer of any of the four names
 * > | </pre> more
 *     ^^^^^^ closer: the block ends with this line
 * > | <!--
 *     ^^ kind 2 opener (`<!` before `--`): the block's content starts at `--`, so `<!-->` ends where it starts
 * > | <?php
 *     ^ kind 3 opener (`<` before `?`): its content starts at `?`, so `<?>` ends where it starts (closer `?>`)
 * > | <!DOCTYPE html>
 *     ^^ kind 4 opener (`<!` before an ASCII letter): text to the line holding `>`
 * > | <![CDATA[ x ]]>
 *     ^^^^^^^^^ kind 5 opener (case-sensitive): text to the line holding `]]>`
 * > | x <code>…</code>
 *       ^^^^^^ an open tag of `code` (attributes allowed, at most {@link maxCodeTag} characters, on one line)
 *                ^^^^^^^ its closing tag
 * ```
 */
import { codeAt, codes } from './codes.js'
import { DONE, VOID, candidateStart, candidateStep } from './inline-html.js'

/** The names of CommonMark's HTML block kind 1 (case-insensitive): their contents are raw text. */
const rawNames = ['pre', 'script', 'style', 'textarea'] as const
/** Longest `<code …>` or `</code >` read: a longer one counts as no tag, however it ends (so any chunking agrees). */
export const maxCodeTag = 128

/**
 * The kinds of HTML block the guard reads: 1 (`raw`) to 5. Each may
 * interrupt a paragraph and runs to the end of the line holding its closer
 * (or to the stream's end); the next line follows no paragraph.
 */
export type HtmlBlockKind = 'raw' | 'comment' | 'instruction' | 'declaration' | 'cdata'
/** A match's end, no match (null), or `more`: the text ends before it is known. */
export type Answer = number | null | 'more'

const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c)
const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/** `text` from `at` spells `word` (lower case), case-insensitively: its end, null, or `more` when the text ends inside it. */
function spells(text: string, at: number, word: string): Answer {
  for (let i = 0; i < word.length; i++) {
    if (at + i >= text.length) return 'more'
    if (lower(codeAt(text, at + i)) !== codeAt(word, i)) return null
  }
  return at + word.length
}

/**
 * The HTML block opener at `offset` (a `<` that stands at a line start):
 * its kind and where its token ends (`<!` for a comment, the name for kind
 * 1), null, or `more`. `final`: no more text comes.
 */
export function blockOpenerAt(text: string, offset: number, final: boolean): { kind: HtmlBlockKind; end: number } | null | 'more' {
  if (codeAt(text, offset) !== codes.lessThan) return null
  if (offset + 1 === text.length) return final ? null : 'more'
  const next = codeAt(text, offset + 1)
  if (next === codes.questionMark) return { kind: 'instruction', end: offset + 1 }
  if (next === codes.exclamationMark) return bangOpenerAt(text, offset, final)
  let undecided = false
  for (const name of rawNames) {
    const end = spells(text, offset + 1, name)
    if (end === 'more') undecided = true
    if (typeof end !== 'number') continue
    if (end === text.length) return final ? { kind: 'raw', end } : 'more'
    const c = codeAt(text, end)
    if (c === codes.space || c === codes.tab || c === codes.greaterThan || c === codes.lineFeed || c === codes.carriageReturn) return { kind: 'raw', end }
  }
  return undecided && !final ? 'more' : null
}

/** After `<!` at `offset`: a comment (kind 2), a declaration (kind 4) or a CDATA section (kind 5), null, or `more`. */
function bangOpenerAt(text: string, offset: number, final: boolean): { kind: HtmlBlockKind; end: number } | null | 'more' {
  const at = offset + 2
  if (at === text.length) return final ? null : 'more'
  if (isLetter(codeAt(text, at))) return { kind: 'declaration', end: at }
  const comment = spells(text, at, '--')
  const cdata = exactly(text, at, '[CDATA[')
  if (comment === 'more' || cdata === 'more') return final ? null : 'more'
  if (comment !== null) return { kind: 'comment', end: at }
  return cdata === null ? null : { kind: 'cdata', end: cdata }
}

/** `text` from `at` is `word`, case-sensitively: its end, null, or `more` when the text ends inside it. */
function exactly(text: string, at: number, word: string): Answer {
  for (let i = 0; i < word.length; i++) {
    if (at + i >= text.length) return 'more'
    if (codeAt(text, at + i) !== codeAt(word, i)) return null
  }
  return at + word.length
}

/**
 * The closer of a block of kind 2 to 5 at `offset`, the first character of
 * the closer's spelling (`-->`, `?>`, `>`, `]]>`): its end, null, or `more`
 * (`-`, `--`, `?`, `]`, `]]` at the text's end).
 */
export function closerAt(kind: Exclude<HtmlBlockKind, 'raw'>): (text: string, offset: number) => Answer {
  const word = blockClosers[kind]
  return (text, offset) => exactly(text, offset, word)
}
export const blockClosers = { comment: '-->', instruction: '?>', declaration: '>', cdata: ']]>' } as const

/** A kind 1 block's closer (`</pre>`, `</script>`, `</style>`, `</textarea>`, any case) at `offset`: its end, null, or `more`. */
export function rawCloserAt(text: string, offset: number): Answer {
  const open = spells(text, offset, '</')
  if (open !== offset + 2) return open
  let undecided = false
  for (const name of rawNames) {
    const end = spells(text, offset + 2, name + '>')
    if (end === 'more') undecided = true
    else if (end !== null) return end
  }
  return undecided ? 'more' : null
}

/** `-->` at `offset`: its end, null, or `more` (`-` or `--` at the text's end). */
export const commentCloserAt = closerAt('comment')

/**
 * An open tag of the `code` element at `offset` (`<code>`, `<CODE class="x">`;
 * not `<codex>`, `<code/>`, nor one with a line break): its end, null, or
 * `more`. The tag's shape is the inline HTML candidate's (`inline-html.ts`).
 */
export function codeOpenAt(text: string, offset: number): Answer {
  const name = spells(text, offset, '<code')
  if (typeof name !== 'number') return name
  let h = candidateStart
  for (let i = offset + 1, end = text.length; i < end; i++) {
    if (i - offset >= maxCodeTag) return null
    const c = codeAt(text, i)
    if (c === codes.lineFeed || c === codes.carriageReturn) return null
    // right after the name only a space, a tab or `>` keeps it `code` (and no `/`: `<code/>` opens nothing)
    if (i === name && c !== codes.space && c !== codes.tab && c !== codes.greaterThan) return null
    if (c === codes.greaterThan && codeAt(text, i - 1) === 0x2f) return null
    const next = candidateStep(h, c)
    if (next === DONE) return i + 1
    if (next === VOID) return null
    h = next
  }
  return 'more'
}

/** The closing tag `</code>` (spaces or tabs before its `>`, any case) at `offset`: its end, null, or `more`. */
export function codeCloseAt(text: string, offset: number): Answer {
  const name = spells(text, offset, '</code')
  if (typeof name !== 'number') return name
  for (let i = name, end = text.length; i < end; i++) {
    if (i - offset >= maxCodeTag) return null
    const c = codeAt(text, i)
    if (c === codes.greaterThan) return i + 1
    if (c !== codes.space && c !== codes.tab) return null
  }
  return 'more'
}

/** A `<` at `offset` may begin a `<code>` or `</code>` tag: it does, or the text ends before that is known. */
export function mayBeCodeTag(text: string, offset: number): boolean {
  return codeOpenAt(text, offset) !== null || codeCloseAt(text, offset) !== null
}

/** Whether `c` may follow `<` in a block opener (`!`, `?`, or the first letter of a kind 1 name): the cheap test before the real one. */
export function mayOpenBlock(c: number): boolean {
  const l = lower(c)
  return c === codes.exclamationMark || c === codes.questionMark || (isLetter(c) && (l === 0x70 || l === 0x73 || l === 0x74))
}

/**
 * Levels of `MarkdownState.levels` that are no backtick runs (those are run
 * lengths, never near 2^53; and a checkpoint's levels are counts, so no
 * negative marks): an open `<code>` element of the paragraph, and an inline
 * comment open at a held tag (only ever in a hold's levels, from the tag
 * on: a comment is opaque, so nothing after it counts until `-->`).
 */
export const codeLevel = Number.MAX_SAFE_INTEGER - 1
export const commentLevel = Number.MAX_SAFE_INTEGER
/**
 * `<code>` tags opened in a row (nothing else opened between them) share one
 * level: `codeLevel` for one, one less for each more. A paragraph of
 * `The <code> element` lines keeps one level, not one per line (a list of
 * them made every token copy and search a list as long as the paragraph).
 */
const maxCodeRun = 2 ** 40
export const isCodeLevel = (level: number): boolean => level <= codeLevel && level > codeLevel - maxCodeRun

/** The levels after a `<code>` tag: the last level takes it when it is a code level at or past `keep` (a held tag's depth), else a new one. */
export function openCode(levels: readonly number[], keep: number): number[] {
  const last = levels.length - 1
  if (last >= keep && isCodeLevel(levels[last]!) && levels[last]! > codeLevel - maxCodeRun + 1) {
    const out = levels.slice()
    out[last] = levels[last]! - 1
    return out
  }
  return [...levels, codeLevel]
}

/** The index of the last code level, or -1. */
export function lastCodeLevel(levels: readonly number[]): number {
  for (let i = levels.length - 1; i >= 0; i--) if (isCodeLevel(levels[i]!)) return i
  return -1
}

/** The levels after `</code>` closes one `<code>` of the code level at `k`. */
export function closeCode(levels: readonly number[], k: number): number[] {
  if (levels[k] === codeLevel) return levels.filter((_, i) => i !== k)
  const out = levels.slice()
  out[k] = levels[k]! + 1
  return out
}
