/**
 * Deferred tag text. Inside a capture nothing goes out until the block
 * completes or breaks, so a chunk that can do neither need not be lexed
 * yet. Within a tag's attributes (`name="path" string="true"`) name
 * characters, spaces, `=` and quotes only move between the tag and its
 * quoted values, and inside quotes anything but the closing quote is value
 * text; a tag end (`>`) then leads into the body, where a parameter's value
 * text up to the next tag start, or the whitespace of an invoke or wrapper
 * body, changes nothing either. No such chunk can end the block, break it,
 * or touch the Markdown guard. Those chunks are appended to the pending text
 * and lexed together with the chunk that can (`</`, a stray `!`), so a tag
 * and its value cost one lexer run instead of one per chunk. The events are
 * the same and leave no later: deferred text would have sat in the capture
 * anyway.
 */
import { codeAt, codes, isBlank, isNameChar } from '../lexer/codes.js'
import type { ModeName } from '../lexer/modes.js'
import { openingModes, rowOf } from '../lexer/structure.js'
import { blank } from './char-set.js'
import type { FastPathTables } from './fast-path-tables.js'
import type { Deferred } from './state.js'

/** Where the reader stands: in the tag, inside a double or single quote, or past the tag end in a value or a body. */
export type Place = 0 | 1 | 2 | 3 | 4
const inTag = 0
const inDq = 1
const inSq = 2
export const inValue = 3
export const inBody = 4
/** The places a reading can stand at, and those a tag's end leads to: what a checkpoint's `deferred` may hold. */
export const places: readonly Place[] = [inTag, inDq, inSq, inValue, inBody]
export const bodyPlaces: readonly Place[] = [inValue, inBody]
/** Not deferrable from here. */
const stop = -1

/**
 * Where each tag or attribute mode starts the reader, and where its tag end
 * leads: from the structure table's opening rows (a body whose text is a
 * value, or blanks between tags).
 */
const startOf: Partial<Record<ModeName, { at: Place; body: Place }>> = {}
for (const [, tagMode] of openingModes) {
  const { end, quoted: [dq, sq] } = rowOf(tagMode)!.opening!
  const body = rowOf(end)!.text === 'ValueText' ? inValue : inBody
  startOf[tagMode] = { at: inTag, body }
  startOf[dq] = { at: inDq, body }
  startOf[sq] = { at: inSq, body }
}

/** Characters a tag's attribute list reads as spaces, names or `=` (the tag modes' Ws, AttrName and Eq tokens). */
const tagSafe = new Uint8Array(128)
for (let c = 0; c < 128; c++) if (isBlank(c) || isNameChar(c) || c === codes.equalsTo) tagSafe[c] = 1

/** Most text kept unlexed: past this the lexer takes over as before (a long value goes on by the fast path). */
export const deferLimit = 1024

/** The deferral's rules; where its reading stands is the state's (`DriverState.deferred`). */
export class Deferral {
  /**
   * `tagEnds` end a tag by themselves (`>`, `＞`); `tagStarts` may start one, which a value cannot hold unlexed.
   * `streaming` (`streamArguments`): a value's text is streamed as it comes, so a parameter tag's end is lexed at once.
   */
  constructor(private readonly tables: Pick<FastPathTables, 'tagEnds' | 'tagStarts'>, private readonly streaming = false) {}

  /**
   * Where the reading stands once `chunk` follows the pending text (`deferred`: the reading of it so far, or
   * null: it is a tail the lexer left, read from the start of `mode`), or null: lex the pending text and `chunk` now.
   */
  wait(mode: ModeName, pending: string, deferred: Deferred | null, chunk: string): Deferred | null {
    if (pending.length + chunk.length > deferLimit) return null
    // a value's text streams as it comes (`streamArguments`): a reading that stands in one goes to the lexer now, as
    // a tag's end into a value does (a checkpoint taken without streaming may hold one)
    if (deferred !== null && this.streaming && deferred.place === inValue) return null
    if (deferred !== null && deferred.mode === mode) return this.keep(mode, this.read(chunk, 0, deferred.place as Place, deferred.body as Place), deferred.body as Place)
    const start = startOf[mode]
    if (start === undefined) return null
    const at = this.read(pending, 0, start.at, start.body)
    return at === stop ? null : this.keep(mode, this.read(chunk, 0, at, start.body), start.body)
  }

  /**
   * `text`, pending in body mode `mode`, starts with an opening tag whose
   * name ends at `nameEnd` and whose token would push `tagMode`: where the
   * reading stands if the rest can wait as that tag's attributes would, else
   * null.
   */
  opener(mode: ModeName, tagMode: ModeName, text: string, nameEnd: number): Deferred | null {
    const start = startOf[tagMode]
    if (start === undefined || text.length > deferLimit) return null
    return this.keep(mode, this.read(text, nameEnd, start.at, start.body), start.body)
  }

  private keep(mode: ModeName, at: Place | typeof stop, body: Place): Deferred | null {
    return at === stop ? null : { mode, place: at, body }
  }
  /** Where the reader stands after `text` from `offset`, or `stop` if some character could end the block or break it. */
  private read(text: string, offset: number, from: Place, body: Place): Place | typeof stop {
    let at: Place = from
    for (let i = offset, end = text.length; i < end; i++) {
      const c = codeAt(text, i)
      switch (at) {
        case inTag:
          if (c === codes.quotationMark) at = inDq
          else if (c === codes.apostrophe) at = inSq
          else if (c < 128 && tagSafe[c] === 1) break
          else if (this.tables.tagEnds.has(c)) {
            if (body === inValue && this.streaming) return stop
            at = body
          } else return stop
          break
        case inDq:
          if (c === codes.quotationMark) at = inTag
          break
        case inSq:
          if (c === codes.apostrophe) at = inTag
          break
        case inValue:
          if (this.tables.tagStarts.has(c)) return stop
          break
        default:
          if (!blank.has(c)) return stop
      }
    }
    return at
  }
}
