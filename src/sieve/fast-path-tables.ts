/**
 * Per mode, what the fast path needs to know, from the mode's row in the
 * structure table (docs/DESIGN.md, "The structure table"): a
 * chunk with no character that can start or end anything in the current mode
 * skips the lexer. In prose-like
 * modes it goes straight out as text; inside a capture it becomes one text
 * token of that mode; inside a hold it is held. The lexer's per-call
 * overhead is paid only where something could happen.
 */
import type { TokenType } from 'chevrotain'
import { codes } from '../lexer/codes.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { ModeName } from '../lexer/modes.js'
import { charsOf, structure, type CharName, type FastRow } from '../lexer/structure.js'
import { TagSpans } from './tag-spans.js'
import { CharSet, notBlank } from './char-set.js'

export interface ModeFastPath {
  /** Finds a character that needs the lexer in this mode (the table's `FastRow.special`). */
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
  /** The table's `FastRow.plain`, as characters. */
  plain?: CharSet | null
  /** The special characters that may start a delimiter of the mode (the others are `plain`), when `plain` is given. */
  starts?: CharSet
  /** The table's `FastRow.reads`. */
  reads?: FastRow['reads']
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
  /** How far a lexer run over a tag reaches. */
  spans: TagSpans
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
  return { modes: buildFastPaths(lexer), tagStarts, tagEnds, spans: new TagSpans(lexer, tagStarts, tagEnds), inlineStops }
}

/** Each mode's fast path, from its row in the structure table (`lexer/structure.ts`) and the lexer. */
function buildFastPaths(lexer: CompiledLexer): Partial<Record<ModeName, ModeFastPath>> {
  const out: Partial<Record<ModeName, ModeFastPath>> = {}
  const chars = (names: readonly CharName[]): number[] => charsOf(names, lexer.tagStartChars)
  for (const mode of Object.keys(structure) as Array<keyof typeof structure>) {
    const row = structure[mode]
    const f = row.fast
    if (f === undefined) continue
    const special = f.special === 'notBlank' ? notBlank : charClass(chars(f.special))
    let type: TokenType | undefined
    if (row.sink === 'capture') {
      type = lexer.typeByName.get(`${mode}.${row.text}`)
      if (type === undefined) throw new Error(`no token type ${mode}.${row.text}`)
    }
    let plain: CharSet | null | undefined
    let starts: CharSet | undefined
    if (f.plain !== undefined && f.special !== 'notBlank') {
      const listed = f.plain === null ? [] : chars(f.plain)
      // the fast path steps from special character to special character (`plainStarts`): a plain one must be special
      if (listed.some((c) => !chars(f.special as readonly CharName[]).includes(c))) throw new Error(`${mode}: a plain character that is not special`)
      plain = f.plain === null ? null : charClass(listed)
      starts = charClass(chars(f.special).filter((c) => !listed.includes(c)))
    }
    // every mode's object has every field, in one order: the fast path reads them at the same few sites for every
    // mode, and objects of one shape keep those reads monomorphic (optional fields made them megamorphic)
    out[mode] = {
      special,
      specialOrLine: special.with([...lineEnds, codes.lessThan]),
      sink: row.sink,
      type,
      lineStart: f.reads === 'blankThenTag',
      quotes: lexer.prefixModes.has(mode),
      plain,
      starts,
      reads: f.reads,
    }
  }
  return out
}
