/**
 * The block grammar's structure as one table (docs/DESIGN.md, "The
 * structure table"): for each mode, where its plain text goes, its text
 * token and the characters it stops at, which tags it reads and the mode
 * each one leads to, which token categories continue a capture there, and
 * its fast path. The lexer builds each mode's tag and text tokens, their
 * order and the modes they lead to from it, and an opening tag's end and
 * quoted values (`tokens.ts`; Markdown and HTML tokens are written there);
 * the capture rules (`CaptureRules` below), the fast path's tables
 * (`sieve/fast-path-tables.ts`), the deferral, the tag reader and the
 * checkpoint's checks read it.
 */
import type { Role } from '../grammar/types.js'
import { codes } from './codes.js'
import type { CategoryName } from './kinds.js'
import { modes, type ModeName } from './modes.js'

/** A tag of one role: its opener or its closer (`open.invoke`, `close.parameter`). */
export type TagKey = `${'open' | 'close'}.${Role}`

/** A tag a mode reads, and what reading it does. */
export interface TagRow {
  tag: TagKey
  /** The mode after the tag. */
  next: ModeName
  /** The tag continues the capture this mode is part of (`InvokeOpen` in a wrapper's body); else, in a capture, it ends it. */
  continues?: true
  /** Read only while the grammar's `missingOpeningWrapper` repair is on: a bare invoke is a block of its own. */
  repair?: true
  /**
   * Only the literal spelling is read (`Grammar.blocks`' delimiters, which
   * are the wrapper's too), not the frames'.
   */
  literalOnly?: true
}

/** Where a mode's plain text goes: out as text, into the capture (as the mode's text token), or into the hold. */
export type Sink = 'text' | 'capture' | 'hold'

/**
 * Characters by what they are to the grammar: `tags` those a tag delimiter
 * may start with (the grammar's frames decide: `CompiledLexer.tagStartChars`),
 * `lt` a `<` (raw HTML may start there), `runs` a backtick or tilde (a
 * Markdown run), `lineEnds` LF and CR; the others one character each.
 */
export type CharName = 'tags' | 'lt' | 'runs' | 'lineEnds' | 'dash' | 'dq' | 'sq' | 'bracket'

/**
 * How the fast path (`sieve/fast-path.ts`) reads a chunk in a mode without
 * the lexer: a chunk with none of `special` is one text token of the mode.
 */
export interface FastRow {
  /** The characters that may matter in the mode; `notBlank`: any but blanks (between a block's tags). */
  special: readonly CharName[] | 'notBlank'
  /**
   * The special characters that cannot start one of the mode's delimiters:
   * in a chunk with none of them, a special character that starts no
   * delimiter where it stands is plain (`a < b`, `a[i]` in CDATA, `x--y` in a
   * comment), and one the chunk end leaves undecided is held. null: every
   * special character may start a delimiter; absent: every special one is
   * the lexer's.
   */
  plain?: readonly CharName[] | null
  /**
   * How a chunk with special characters may still be read instead: a
   * fence's runs (`fenceRuns`), blanks then the start of a tag
   * (`blankThenTag`; the mode holds line-start spaces).
   */
  reads?: 'fenceRuns' | 'blankThenTag'
}

/** One mode's row. */
export interface ModeRow {
  sink: Sink
  /** The category of the mode's text token (`ValueText`, `AttrText`, `Text`…); null: the mode has none (a tag's attributes are its own tokens). */
  text: CategoryName | null
  /** The tags the mode reads, in the order the lexer tries them: the ones that continue a block first, they occur there most. */
  tags: readonly TagRow[]
  /** Categories other than its tags' that continue a capture in this mode (a capture mode's attributes, blanks, CDATA…). */
  continues?: readonly CategoryName[]
  /** An opening tag's attributes (`tagInvoke`…): the role, the mode its tag end leads to, and its double- and single-quoted value modes. */
  opening?: { role: Role; end: ModeName; quoted: readonly [ModeName, ModeName] }
  /** The characters the lexer's text token stops at; absent: the mode's text is read by a pattern of its own (CDATA, comments, HTML) or it has none. */
  stops?: readonly CharName[]
  /** The mode's fast path; absent: every chunk goes to the lexer. */
  fast?: FastRow
}

/** A new opener inside a capture ends it and starts a capture of its own, as it would in prose. */
const reopen: readonly TagRow[] = [
  { tag: 'open.wrapper', next: modes.tagWrapper },
  { tag: 'open.invoke', next: modes.tagInvoke, repair: true },
]

/** Tags that end a capture and are read as prose reads them (text). */
const asText = (...tags: TagKey[]): TagRow[] => tags.map((tag) => ({ tag, next: modes.prose }))

/** Closers in prose are text, but recognised (and their prefixes held), so mentions count as tool-call syntax. */
const mentions = (next: ModeName): TagRow[] => (['close.wrapper', 'close.invoke', 'close.parameter', 'open.parameter'] as const).map((tag) => ({ tag, next }))

/** An opening tag's attributes: these continue it. */
const tagParts: readonly CategoryName[] = ['Ws', 'Attr', 'AttrName', 'Eq', 'QuoteOpen', 'TagEnd']
const attrParts: readonly CategoryName[] = ['AttrText', 'QuoteClose']
const commentParts: readonly CategoryName[] = ['CommentText', 'CommentClose']

const text = (sink: Sink, tags: readonly TagRow[] = [], stops?: readonly CharName[], fast?: FastRow): ModeRow => ({ sink, text: 'Text', tags, ...(stops === undefined ? {} : { stops }), ...(fast === undefined ? {} : { fast }) })
const captured = (textCategory: CategoryName | null, tags: readonly TagRow[], continues: readonly CategoryName[], stops?: readonly CharName[], fast?: FastRow): ModeRow =>
  ({ sink: 'capture', text: textCategory, tags, continues, ...(stops === undefined ? {} : { stops }), ...(fast === undefined ? {} : { fast }) })

/** Prose and code spans: text stops where a tag, raw HTML, a run or a line end may start. */
const proseStops: readonly CharName[] = ['tags', 'lt', 'runs', 'lineEnds']
/** A held line: only a run or a line end decides it. */
const heldLine: readonly CharName[] = ['runs', 'lineEnds']
/** Text in which only tags mean anything: a tag start that starts no delimiter is plain. */
const tagsOnly: readonly CharName[] = ['tags']
const tagsOnlyFast: FastRow = { special: tagsOnly, plain: null }
/** Attribute values: only the closing quote ends them. */
const dq = (): ModeRow => captured('AttrText', [], attrParts, ['dq'], { special: ['dq'] })
const sq = (): ModeRow => captured('AttrText', [], attrParts, ['sq'], { special: ['sq'] })
/** Comments in a block: text up to `-->`. */
const comment = (): ModeRow => captured('CommentText', [], commentParts, undefined, { special: ['dash'], plain: null })

/** Each mode's row. Markdown and HTML modes read no block tags but the openers listed; their other tokens are `tokens-markdown.ts`' and `tokens-html.ts`'. */
export const structure: Readonly<Record<Exclude<ModeName, 'halt'>, ModeRow>> = {
  // a line feed (and `<`) in prose moves the line state, which the fast path follows itself
  [modes.prose]: text('text', [...reopen, ...mentions(modes.prose)], proseStops, { special: ['tags', 'runs'], plain: ['runs'] }),
  // after an unmatched backtick an opener is held until the paragraph decides
  [modes.span]: text('text', [{ tag: 'open.wrapper', next: modes.spanHold }, { tag: 'open.invoke', next: modes.spanHold, repair: true }, ...mentions(modes.span)], proseStops,
    { special: ['tags', 'runs', 'lineEnds'], plain: ['runs', 'lineEnds'] }),
  // a hold's text stops at `-` and `<` too: `-->` or `</code>` may end what the held tag stood in
  [modes.spanHold]: text('hold', [], ['runs', 'lineEnds', 'dash', 'lt'], { special: heldLine }),
  [modes.spanHoldFenceInfo]: text('hold', [], heldLine, { special: heldLine }),
  // an opener in a backtick fence's info string waits for the line: a backtick voids the fence
  [modes.fenceInfo]: text('text', [{ tag: 'open.wrapper', next: modes.fenceInfoHold }, { tag: 'open.invoke', next: modes.fenceInfoHold, repair: true }],
    ['tags', 'lineEnds', 'runs'], { special: ['tags', 'lineEnds', 'runs'] }),
  [modes.fenceInfoHold]: text('hold', [], heldLine, { special: heldLine }),
  [modes.htmlComment]: text('text'),
  [modes.htmlRaw]: text('text'),
  [modes.htmlInstruction]: text('text'),
  [modes.htmlDeclaration]: text('text'),
  [modes.htmlCdata]: text('text'),
  [modes.htmlEnd]: text('text'),
  [modes.indented]: text('text', [], ['lineEnds'], { special: ['lineEnds'] }),
  // inside a fence only a run can matter (a closer): line feeds alone change nothing
  [modes.fence]: text('text', [], heldLine, { special: ['runs'], reads: 'fenceRuns' }),
  [modes.fenceClose]: text('text'),
  [modes.tagWrapper]: { ...captured(null, reopen, tagParts), opening: { role: 'wrapper', end: modes.wrapperBody, quoted: [modes.attrDqWrapper, modes.attrSqWrapper] } },
  [modes.tagInvoke]: { ...captured(null, reopen, tagParts), opening: { role: 'invoke', end: modes.invokeBody, quoted: [modes.attrDqInvoke, modes.attrSqInvoke] } },
  [modes.tagParameter]: { ...captured(null, reopen, tagParts), opening: { role: 'parameter', end: modes.value, quoted: [modes.attrDqParameter, modes.attrSqParameter] } },
  [modes.attrDqWrapper]: dq(),
  [modes.attrSqWrapper]: sq(),
  [modes.attrDqInvoke]: dq(),
  [modes.attrSqInvoke]: sq(),
  [modes.attrDqParameter]: dq(),
  [modes.attrSqParameter]: sq(),
  // indentation between tags
  [modes.wrapperBody]: captured('Ws', [
    { tag: 'open.invoke', next: modes.tagInvoke, continues: true },
    { tag: 'close.wrapper', next: modes.prose, continues: true },
    { tag: 'open.wrapper', next: modes.tagWrapper },
    ...asText('open.parameter', 'close.invoke', 'close.parameter'),
  ], ['Ws', 'CommentOpen'], undefined, { special: 'notBlank', reads: 'blankThenTag' }),
  [modes.invokeBody]: captured('Ws', [
    { tag: 'open.parameter', next: modes.tagParameter, continues: true },
    { tag: 'close.invoke', next: modes.wrapperBody, continues: true },
    ...reopen,
    ...asText('close.wrapper', 'close.parameter'),
  ], ['Ws', 'CommentOpen', 'JsonOpen'], undefined, { special: 'notBlank', reads: 'blankThenTag' }),
  [modes.jsonBody]: captured('JsonText', [
    { tag: 'close.invoke', next: modes.wrapperBody, continues: true },
    ...reopen,
    ...asText('close.wrapper', 'open.parameter', 'close.parameter'),
  ], ['JsonText'], tagsOnly, { special: tagsOnly }),
  [modes.value]: captured('ValueText', [
    { tag: 'close.parameter', next: modes.invokeBody, continues: true },
    ...reopen,
    ...asText('open.parameter', 'close.invoke', 'close.wrapper'),
  ], ['ValueText', 'CDataOpen', 'CommentOpen'], tagsOnly, tagsOnlyFast),
  // a block read whole: nothing in it is markup until a literal closer
  [modes.blockBody]: captured('ValueText', [{ tag: 'close.wrapper', next: modes.prose, continues: true, literalOnly: true }], ['ValueText'], tagsOnly, tagsOnlyFast),
  // a block that ends with its JSON: the scanner's matchers find the end (`json-tokens.ts`), no tag means anything here
  [modes.jsonBlock]: captured('ValueText', [], ['ValueText']),
  // a message's start (a run only: `start-tokens.ts`): blanks are text, no tag means anything before it decides
  [modes.messageStart]: text('text'),
  // only the opener's own closer ends a raw value (`LexContext.rawOpener`)
  [modes.rawValue]: captured('ValueText', [{ tag: 'close.parameter', next: modes.invokeBody, continues: true }], ['ValueText'], tagsOnly, tagsOnlyFast),
  [modes.cdata]: captured('CDataText', [], ['CDataText', 'CDataClose'], undefined, { special: ['bracket'], plain: null }),
  [modes.commentWrapper]: comment(),
  [modes.commentInvoke]: comment(),
  [modes.commentValue]: comment(),
  // what is left of a failed block: text, its wrapper and invoke tags counted (the walk finds the balancing closer and
  // switches the mode itself)
  [modes.skip]: text('text', (['open.wrapper', 'close.wrapper', 'open.invoke', 'close.invoke'] as const).map((tag) => ({ tag, next: modes.skip })), tagsOnly, tagsOnlyFast),
}

/** The character codes of `names`, tag starts being `tagStarts`; each once. */
export function charsOf(names: readonly CharName[], tagStarts: readonly number[]): number[] {
  const out = new Set<number>()
  for (const n of names) for (const c of n === 'tags' ? tagStarts : named[n]) out.add(c)
  return [...out]
}

const named: Readonly<Record<Exclude<CharName, 'tags'>, readonly number[]>> = {
  lt: [codes.lessThan],
  runs: [codes.graveAccent, codes.tilde],
  // CR, LF and CRLF all end a line (CommonMark)
  lineEnds: [codes.lineFeed, codes.carriageReturn],
  dash: [codes.dash],
  dq: [codes.quotationMark],
  sq: [codes.apostrophe],
  bracket: [codes.rightSquareBracket],
}

/** The row of `mode`; `halt` has none (one token takes the rest). */
export function rowOf(mode: ModeName): ModeRow | undefined {
  return mode === modes.halt ? undefined : structure[mode]
}

/**
 * Where a literal spelling of a wrapper tag (`Grammar.blocks`) leads: where
 * the frames' tag would, except that it has no attributes, so an opener
 * leads straight into its body, read whole.
 */
export function literalNext(next: ModeName): ModeName {
  return next === modes.tagWrapper ? modes.blockBody : next
}

/** Where an opener of a block that ends with its JSON (`Grammar.blocks.json`) leads: like {@link literalNext}, into its own mode. */
export function jsonNext(next: ModeName): ModeName {
  return next === modes.tagWrapper ? modes.jsonBlock : next
}

/** The opening-tag modes, by role. */
export const openingModes: ReadonlyArray<[Role, ModeName]> = (Object.keys(structure) as Array<keyof typeof structure>)
  .flatMap((m): Array<[Role, ModeName]> => { const o = structure[m].opening; return o === undefined ? [] : [[o.role, m]] })

/** An opening tag's modes, its own and its quoted values', to the tag's role. */
export const tagModeRole: ReadonlyMap<ModeName, Role> = new Map(openingModes.flatMap(([role, m]): Array<[ModeName, Role]> => [[m, role], ...structure[m as keyof typeof structure].opening!.quoted.map((q): [ModeName, Role] => [q, role])]))

/** Modes whose tokens belong to a capture. */
export const captureModes: ReadonlySet<ModeName> = new Set((Object.keys(structure) as Array<keyof typeof structure>).filter((m) => structure[m].sink === 'capture'))

/** The category of a tag's token: `open.invoke` → `InvokeOpen`. */
export function tagCategory(tag: TagKey): CategoryName {
  const [kind, role] = tag.split('.') as ['open' | 'close', Role]
  const name = role === 'parameter' ? 'Param' : role === 'wrapper' ? 'Wrapper' : 'Invoke'
  return `${name}${kind === 'open' ? 'Open' : 'Close'}` as CategoryName
}

/** Per capture mode, every category that continues the capture there: its continuing tags' and its other parts'. */
export const continuing: ReadonlyMap<ModeName, ReadonlySet<CategoryName>> = new Map(
  [...captureModes].map((m) => {
    const row = rowOf(m)!
    return [m, new Set<CategoryName>([...row.tags.filter((t) => t.continues === true).map((t) => tagCategory(t.tag)), ...(row.continues ?? [])])]
  }),
)

/** The tags `mode` reads under a grammar with (or without) the missing-wrapper repair, as the lexer builds them. */
export function tagTargets(mode: ModeName, repair: boolean): Partial<Record<TagKey, ModeName>> {
  const out: Partial<Record<TagKey, ModeName>> = {}
  for (const t of rowOf(mode)?.tags ?? []) {
    if (t.tag in out) throw new Error(`the structure table reads ${t.tag} twice in ${mode}`)
    if (repair || t.repair !== true) out[t.tag] = t.next
  }
  return out
}

/** The tags `mode` reads in their literal spelling only (`TagRow.literalOnly`). */
export function literalOnly(mode: ModeName): ReadonlySet<TagKey> {
  return new Set((rowOf(mode)?.tags ?? []).filter((t) => t.literalOnly === true).map((t) => t.tag))
}

/**
 * Whether a token of a category continues a capture in a mode (`continuing`), asked per token of a capture,
 * mostly several times in one mode: each reader keeps the last mode's set, one keyed lookup per mode change (a
 * lookup per token showed in profiles). The memo is of a fixed table, so no answer depends on who asked before.
 */
export class CaptureRules {
  private mode: ModeName | null = null
  private rule: ReadonlySet<CategoryName> | undefined = undefined

  continues(mode: ModeName, category: CategoryName): boolean {
    if (mode !== this.mode) {
      this.mode = mode
      this.rule = continuing.get(mode)
    }
    return this.rule?.has(category) ?? false
  }
}
