/**
 * Where a block that ends with its JSON ends (`Grammar.blocks.json`): a
 * small scanner that reads the text after the opener a piece at a time, its
 * whole state a few numbers and the open brackets ({@link JsonScan}, kept in
 * the capture and its checkpoints). It knows only what the end depends on:
 * blanks, a head and its separator before the value; brackets and
 * double-quoted strings (with escapes) in it, single-quoted ones too in
 * Python values. Whether the value is JSON, and
 * a call, is the reader's to say once the block is whole.
 */
import type { JsonBlocks } from '../grammar/types.js'
import { codeAt, isBlank } from './codes.js'

/** Where the scanner stands. */
export const phases = {
  /** Right after the opener: blanks, a head (when the grammar has heads) or the value. */
  open: 0,
  /** After blanks: only the value may come. */
  blank: 1,
  /** In a head. */
  head: 2,
  /** In a head separator (`JsonScan.sep` characters of it read). */
  sep: 3,
  /** After a head separator: blanks, then the value. */
  afterSep: 4,
  /** Right after the value's first bracket: its first item says whether this can be calls at all (`{"`, `[{`, or empty). */
  first: 5,
  /** In the value. */
  value: 6,
  /** After the value: one of the optional closers may follow (`DriverState.pending` holds what of it came). */
  after: 7,
} as const

/** The scanner's state: plain JSON, saved in checkpoints. */
export interface JsonScan {
  phase: number
  /** The open brackets, innermost last (`{` or `[`). */
  stack: string
  /** 0 outside a string, 1 in a double-quoted one, 2 right after a backslash in one; 3 and 4 the same in a single-quoted one (Python values, `JsonBlocks.python`). */
  str: number
  /** Characters read before the value (blanks, head, separator): at most {@link maxBefore}. */
  before: number
  /** In a head separator: the text of it read so far. */
  sep: string
}

/** A lexer run inside a JSON block (`LexContext.json`): the scanner's state, and the `before` bound of {@link scanJson}. */
export interface JsonRun {
  scan: JsonScan
  before: number
}

/** Brackets open at once past which a block is broken (the reader parses values recursively). */
export const maxJsonDepth = 128
/** Characters between the opener and the value past which the opener was only mentioned. */
export const maxBefore = 128

/**
 * How many characters may come between an opener of `opener` characters and
 * its value: what comes before the value stays within the capture limit
 * (only a value goes over it). None, when the limit leaves no room: the
 * opener is then only mentioned, in every chunking.
 */
export function jsonBefore(captureLimit: number, opener: number): number {
  return Math.max(0, Math.min(maxBefore, captureLimit - opener - 1))
}

export function initialScan(): JsonScan {
  return { phase: phases.open, stack: '', str: 0, before: 0, sep: '' }
}

/**
 * What a piece of text did: all of it read (`more`); the value ended just
 * before `at` (`end`, and with optional closers `after`: the value ended,
 * the closers are for the driver to match); the opener was only mentioned
 * (`text`: nothing JSON-like followed, the reading stops at `at`); the
 * value broke at the character before `at` (`broken`, `why`).
 */
export type ScanResult =
  | { kind: 'more' }
  | { kind: 'end'; at: number }
  | { kind: 'text'; at: number }
  | { kind: 'broken'; at: number; why: string }

/** A head is a name: no blank, bracket, brace or quote. */
const isHead = (c: number): boolean => !isBlank(c) && c !== 0x5b && c !== 0x5d && c !== 0x7b && c !== 0x7d && c !== 0x22 && c !== 0x27
/** A Python callee's first character (`[f(a=1)]`): a letter or `_`. */
const isCallee = (c: number): boolean => c === 0x5f || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)
/** What may follow `[` in an array of calls: a call object, or the array's end (`[1, 2]`, `[not json]` in prose are no block). */
const arrayItem = (c: number): boolean => c === 0x7b || c === 0x5d

/**
 * Reads `text` from `from` on, changing `st`. The grammar's `json` section
 * says whether heads may come and their separators; `before` bounds what
 * may come before the value is known to be one (at most {@link maxBefore}).
 */
export function scanJson(st: JsonScan, text: string, from: number, spec: JsonBlocks, before = maxBefore): ScanResult {
  let i = from
  const n = text.length
  while (i < n) {
    const c = codeAt(text, i)
    const p = st.phase
    if (p >= phases.value) {
      // the common case: a run of value text with nothing that matters in it
      if (st.str === 1 || st.str === 3) {
        const quote = st.str === 1 ? 0x22 : 0x27
        while (i < n) {
          const d = codeAt(text, i)
          if (d === quote || d === 0x5c) break
          i++
        }
        if (i === n) break
        st.str = codeAt(text, i) === quote ? 0 : st.str + 1
        i++
        continue
      }
      if (st.str === 2 || st.str === 4) {
        st.str--
        i++
        continue
      }
      i++
      if (c === 0x22) st.str = 1
      else if (c === 0x27 && spec.python === true) st.str = 3
      else if (c === 0x7b || c === 0x5b) {
        if (st.stack.length >= maxJsonDepth) return { kind: 'broken', at: i, why: `its JSON is nested more than ${maxJsonDepth} levels deep` }
        st.stack += c === 0x7b ? '{' : '['
      } else if (c === 0x7d || c === 0x5d) {
        const top = codeAt(st.stack, st.stack.length - 1)
        if (top !== (c === 0x7d ? 0x7b : 0x5b)) return { kind: 'broken', at: i, why: `its JSON closes a ${top === 0x7b ? 'brace' : 'bracket'} with ${String.fromCharCode(c)}` }
        st.stack = st.stack.slice(0, -1)
        if (st.stack === '') {
          st.phase = phases.after
          return { kind: 'end', at: i }
        }
      }
      continue
    }
    if (st.before >= before) return { kind: 'text', at: i }
    if (p === phases.first) {
      if (isBlank(c)) {
        st.before++
        i++
        continue
      }
      const ok = st.stack === '{' ? c === 0x22 || c === 0x7d || (spec.python === true && c === 0x27) : arrayItem(c) || (spec.python === true && isCallee(c))
      if (!ok) return { kind: 'text', at: i }
      // the value is JSON-like: this character is its first item's (or its end)
      st.phase = phases.value
      continue
    }
    if (p === phases.sep) {
      const sep = st.sep + text[i]
      if (!(spec.head ?? []).some((h) => h.startsWith(sep))) return { kind: 'text', at: i }
      st.before++
      i++
      st.sep = sep
      if ((spec.head ?? []).includes(sep)) {
        st.phase = phases.afterSep
        st.sep = ''
      }
      continue
    }
    // after a head, a separator's first character starts the separator (Mistral's `[ARGS]`, not an array)
    if (p === phases.head && (spec.head ?? []).some((h) => codeAt(h, 0) === c)) {
      st.phase = phases.sep
      continue
    }
    if (c === 0x7b || (c === 0x5b && p !== phases.head)) {
      st.before++
      i++
      st.stack = c === 0x7b ? '{' : '['
      st.phase = phases.first
      continue
    }
    if (isBlank(c) && p !== phases.head) {
      st.before++
      i++
      if (p === phases.open) st.phase = phases.blank
      continue
    }
    if (p === phases.head && isHead(c)) {
      st.before++
      i++
      continue
    }
    if (p === phases.open && spec.head !== undefined && isHead(c)) {
      st.before++
      i++
      st.phase = phases.head
      continue
    }
    return { kind: 'text', at: i }
  }
  return { kind: 'more' }
}
