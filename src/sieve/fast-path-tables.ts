/**
 * Per mode, what the fast path need to know (docs/DESIGN.md, "Fast path"): a
 * chunk with no character that can start or end anything in the current mode
 * skips the lexer. In prose-like
 * modes it goes straight out as text; inside a capture it becomes one text
 * token of that mode; inside a hold it is held. The lexer's per-call
 * overhead is paid only where something could happen.
 */
import type { TokenType } from 'chevrotain'
import { codes } from '../lexer/codes.js'
import type { LineState } from '../lexer/context.js'
import { heldPrefixStart } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { rowOf } from '../lexer/structure.js'
import { TagReader } from './tag-reader.js'
import { CharSet, notBlank } from './char-set.js'

export interface ModeFastPath {
  /** Finds a character that needs the lexer in this mode. */
  special: CharSet
  /**
   * The special characters, and those that move a line state that is mid-line
   * with nothing pending (a line feed, `<`): a chunk with none of these
   * leaves such a state as it is, and holds no line-start prefix.
   */
  specialOrLine: CharSet
  /** Where such a chunk goes. */
  sink: 'text' | 'capture' | 'hold'
  /** For captures: the text token type of the mode. */
  type?: TokenType
  /** The mode holds line-start spaces (a fence may follow): a chunk ending in them needs the lexer. */
  lineStart?: boolean
  /** The lexer holds line-start prefixes in this mode, quote and list markers too (`CompiledModes.prefixModes`, `heldLinePrefix`). */
  quotes?: boolean
  /**
   * The special characters other than tag starts; when a chunk has none of
   * these, its tag-start characters may still be plain (`a < b`, `<div>`).
   * null: tag starts are the only special characters.
   */
  notTag?: CharSet | null
}

const charClass = (cs: number[]): CharSet => new CharSet(cs)
/** CR, LF and CRLF all end a line (CommonMark), so both characters matter wherever a line end does. */
const lineEnds = [codes.lineFeed, codes.carriageReturn]

/** The fast paths of each mode, and the character sets of tags that the fast path and the deferral test against. */
export interface FastPathTables {
  modes: Partial<Record<ModeName, ModeFastPath>>
  /** Characters that may start a tag. */
  tagStarts: CharSet
  /** Single characters that are a whole tag end (see `CompiledLexer.tagEndChars`). */
  tagEnds: CharSet
  /** Reads a deferred tag in its common shape without the lexer. */
  tagReader: TagReader
  /**
   * The characters that matter to inline text in prose or a code span
   * (`inlineRuns`): a backtick or tilde, a line ending (CR or LF), a `<` (the line
   * state's), a tag start.
   */
  inlineStops: CharSet
}

/** Each compiled lexer's tables. */
const tablesOf = new WeakMap<CompiledLexer, FastPathTables>()

/** Built once per compiled lexer and kept: every sieve of a grammar shares them (a sieve per turn is common). */
export function fastPathTables(lexer: CompiledLexer): FastPathTables {
  let t = tablesOf.get(lexer)
  if (t === undefined) {
    t = buildTables(lexer)
    tablesOf.set(lexer, t)
  }
  return t
}

function buildTables(lexer: CompiledLexer): FastPathTables {
  const tagStarts = new CharSet(lexer.tagStartChars)
  const tagEnds = new CharSet(lexer.tagEndChars)
  const inlineStops = new CharSet([codes.graveAccent, codes.tilde, ...lineEnds, codes.lessThan, ...lexer.tagStartChars])
  return { modes: buildFastPaths(lexer), tagStarts, tagEnds, tagReader: new TagReader(lexer, tagStarts), inlineStops }
}

/** A mode's fast path as written below; the rest follows from it and the lexer. */
type PathSpec = Omit<ModeFastPath, 'specialOrLine' | 'quotes'>

function buildFastPaths(lexer: CompiledLexer): Partial<Record<ModeName, ModeFastPath>> {
  const runs = [codes.graveAccent, codes.tilde]
  const tags = [...lexer.tagStartChars]
  const type = (name: string) => {
    const t = lexer.typeByName.get(name)
    if (t === undefined) throw new Error(`no token type ${name}`)
    return t
  }
  // where each mode's text goes, and as which token: the structure table's (`lexer/structure.ts`)
  const path = (mode: ModeName, special: number[], notTag?: number[] | null): [ModeName, PathSpec] => {
    const row = rowOf(mode)!
    const spec: PathSpec = { special: charClass(special), sink: row.sink }
    if (row.sink === 'capture') spec.type = type(`${mode}.${row.text}`)
    if (notTag !== undefined) spec.notTag = notTag === null ? null : charClass(notTag)
    return [mode, spec]
  }
  const out: Array<[ModeName, PathSpec]> = [
    path(modes.prose, [...tags, ...runs], runs),
    path(modes.span, [...tags, ...runs, ...lineEnds], [...runs, ...lineEnds]),
    path(modes.spanHold, [...runs, ...lineEnds]),
    path(modes.indented, lineEnds),
    // inside a fence only a run can matter (a closer): line feeds alone change nothing
    path(modes.fence, runs),
    path(modes.fenceInfo, [...tags, ...lineEnds, ...runs]),
    path(modes.spanHoldFenceInfo, [...runs, ...lineEnds]),
    path(modes.fenceInfoHold, [...runs, ...lineEnds]),
    path(modes.value, tags, null),
    path(modes.rawValue, tags, null),
    // a block read whole: only a literal closer ends it, and each starts with a tag start
    path(modes.blockBody, tags, null),
    path(modes.skip, tags, null),
    path(modes.jsonBody, tags),
    path(modes.cdata, [codes.rightSquareBracket]),
    path(modes.commentWrapper, [codes.dash]),
    path(modes.commentInvoke, [codes.dash]),
    path(modes.commentValue, [codes.dash]),
  ]
  // indentation between tags
  for (const mode of [modes.wrapperBody, modes.invokeBody]) out.push([mode, { ...path(mode, [])[1], special: notBlank, lineStart: true }])
  for (const role of ['Wrapper', 'Invoke', 'Parameter'] as const) {
    out.push(path(`attrDq${role}` as ModeName, [codes.quotationMark]))
    out.push(path(`attrSq${role}` as ModeName, [codes.apostrophe]))
  }
  return Object.fromEntries(out.map(([mode, fp]) => [mode, { ...fp, quotes: lexer.prefixModes.has(mode), specialOrLine: fp.special.with([...lineEnds, codes.lessThan]) }]))
}

/**
 * Line-start spaces (or block quote markers, in Markdown modes) at the end
 * of a chunk may come before a fence in the next one ("\n> " + "```"), so
 * the lexer holds them (`heldLinePrefix`): no fast path then.
 */
export function endsInLineStartSpaces(chunk: string, lineState: LineState, quotes: boolean): boolean {
  return heldPrefixStart(chunk, lineState, quotes) >= 0
}
