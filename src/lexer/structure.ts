/**
 * The block grammar's structure as one table (docs/DESIGN.md, "The
 * structure table"): for each mode, where its plain text goes, its text
 * token, which tags it reads and the mode each one leads to, and which
 * token categories continue a capture there. The lexer builds each mode's
 * tag tokens, their order and the modes they lead to from it, and an opening
 * tag's end and quoted values (`tokens.ts`; its text, Markdown and HTML
 * tokens are written there); the capture rules (`sieve/capture-rules.ts`),
 * the fast path's sinks and text tokens (`sieve/fast-path-tables.ts`) and
 * the checkpoint's checks read it.
 */
import type { Role } from '../grammar/types.js'
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

const text = (sink: Sink, tags: readonly TagRow[] = []): ModeRow => ({ sink, text: 'Text', tags })
const captured = (textCategory: CategoryName | null, tags: readonly TagRow[], continues: readonly CategoryName[]): ModeRow => ({ sink: 'capture', text: textCategory, tags, continues })

/** Each mode's row. Markdown and HTML modes read no block tags but the openers listed; their other tokens are `tokens-markdown.ts`' and `tokens-html.ts`'. */
export const structure: Readonly<Record<Exclude<ModeName, 'halt'>, ModeRow>> = {
  [modes.prose]: text('text', [...reopen, ...mentions(modes.prose)]),
  // after an unmatched backtick an opener is held until the paragraph decides
  [modes.span]: text('text', [{ tag: 'open.wrapper', next: modes.spanHold }, { tag: 'open.invoke', next: modes.spanHold, repair: true }, ...mentions(modes.span)]),
  [modes.spanHold]: text('hold'),
  [modes.spanHoldFenceInfo]: text('hold'),
  // an opener in a backtick fence's info string waits for the line: a backtick voids the fence
  [modes.fenceInfo]: text('text', [{ tag: 'open.wrapper', next: modes.fenceInfoHold }, { tag: 'open.invoke', next: modes.fenceInfoHold, repair: true }]),
  [modes.fenceInfoHold]: text('hold'),
  [modes.htmlComment]: text('text'),
  [modes.htmlRaw]: text('text'),
  [modes.htmlEnd]: text('text'),
  [modes.indented]: text('text'),
  [modes.fence]: text('text'),
  [modes.fenceClose]: text('text'),
  [modes.tagWrapper]: { ...captured(null, reopen, tagParts), opening: { role: 'wrapper', end: modes.wrapperBody, quoted: [modes.attrDqWrapper, modes.attrSqWrapper] } },
  [modes.tagInvoke]: { ...captured(null, reopen, tagParts), opening: { role: 'invoke', end: modes.invokeBody, quoted: [modes.attrDqInvoke, modes.attrSqInvoke] } },
  [modes.tagParameter]: { ...captured(null, reopen, tagParts), opening: { role: 'parameter', end: modes.value, quoted: [modes.attrDqParameter, modes.attrSqParameter] } },
  [modes.attrDqWrapper]: captured('AttrText', [], attrParts),
  [modes.attrSqWrapper]: captured('AttrText', [], attrParts),
  [modes.attrDqInvoke]: captured('AttrText', [], attrParts),
  [modes.attrSqInvoke]: captured('AttrText', [], attrParts),
  [modes.attrDqParameter]: captured('AttrText', [], attrParts),
  [modes.attrSqParameter]: captured('AttrText', [], attrParts),
  [modes.wrapperBody]: captured('Ws', [
    { tag: 'open.invoke', next: modes.tagInvoke, continues: true },
    { tag: 'close.wrapper', next: modes.prose, continues: true },
    { tag: 'open.wrapper', next: modes.tagWrapper },
    ...asText('open.parameter', 'close.invoke', 'close.parameter'),
  ], ['Ws', 'CommentOpen']),
  [modes.invokeBody]: captured('Ws', [
    { tag: 'open.parameter', next: modes.tagParameter, continues: true },
    { tag: 'close.invoke', next: modes.wrapperBody, continues: true },
    ...reopen,
    ...asText('close.wrapper', 'close.parameter'),
  ], ['Ws', 'CommentOpen', 'JsonOpen']),
  [modes.jsonBody]: captured('JsonText', [
    { tag: 'close.invoke', next: modes.wrapperBody, continues: true },
    ...reopen,
    ...asText('close.wrapper', 'open.parameter', 'close.parameter'),
  ], ['JsonText']),
  [modes.value]: captured('ValueText', [
    { tag: 'close.parameter', next: modes.invokeBody, continues: true },
    ...reopen,
    ...asText('open.parameter', 'close.invoke', 'close.wrapper'),
  ], ['ValueText', 'CDataOpen', 'CommentOpen']),
  // a block read whole: nothing in it is markup until a literal closer
  [modes.blockBody]: captured('ValueText', [{ tag: 'close.wrapper', next: modes.prose, continues: true, literalOnly: true }], ['ValueText']),
  // a block that ends with its JSON: the driver's scanner finds the end, no tag means anything here
  [modes.jsonBlock]: captured('ValueText', [], ['ValueText']),
  // only the opener's own closer ends a raw value (`LexContext.rawOpener`)
  [modes.rawValue]: captured('ValueText', [{ tag: 'close.parameter', next: modes.invokeBody, continues: true }], ['ValueText']),
  [modes.cdata]: captured('CDataText', [], ['CDataText', 'CDataClose']),
  [modes.commentWrapper]: captured('CommentText', [], commentParts),
  [modes.commentInvoke]: captured('CommentText', [], commentParts),
  [modes.commentValue]: captured('CommentText', [], commentParts),
  // what is left of a failed block: text, its wrapper and invoke tags counted (the walk finds the balancing closer and
  // switches the mode itself)
  [modes.skip]: text('text', (['open.wrapper', 'close.wrapper', 'open.invoke', 'close.invoke'] as const).map((tag) => ({ tag, next: modes.skip }))),
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
