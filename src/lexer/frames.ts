/**
 * Compiles the frame parts of a grammar config into what each tag
 * delimiter needs: a sticky matcher, and its pieces, from which the tail
 * matcher (`tail.ts`) answers whether a tail could still become one.
 */
import type { FramePart, FrameSequence, Grammar, Role } from '../grammar/types.js'
import { codeAt, escapeRegExp, nameCharClass, nameChars } from './codes.js'
import { TailMatcher } from './tail.js'

/** A flat sequence: literal alternatives with bounded repetition. Names are a part like any other. */
export interface Piece {
  lits: string[]
  min: number
  max: number
}

/** One delimiter family compiled: `sticky` matches at lastIndex. */
export interface CompiledDelimiter {
  sticky: RegExp
  /** Longest string the delimiter can match (bounded by the config's repetition bounds). */
  maxLength: number
  /** First characters a match can start with. */
  firstChars: number[]
  /** The sequences themselves, for the incremental tail matcher (`tail.ts`). */
  seqs: Piece[][]
  caseInsensitive: boolean
  /** An opening tag start: complete only once a non-name character follows. */
  needsBoundary: boolean
  /** The last image matched (`delimiterAt`), reused when the next match spells the same. */
  last: string
}

function piecesOf(seq: FrameSequence, names: string[]): Piece[] {
  return seq.map((part: FramePart): Piece =>
    'name' in part
      ? { lits: names, min: 1, max: 1 }
      : { lits: part.lit, min: part.min ?? 1, max: part.max ?? 1 },
  )
}

function alt(lits: string[]): string {
  // longest first, so a regex alternation prefers the longer literal
  return '(?:' + [...lits].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|') + ')'
}

function rep(p: Piece, min: number, max: number): string {
  if (max <= 0) return ''
  return `${alt(p.lits)}{${min},${max}}`
}

function fullSource(pieces: Piece[]): string {
  return pieces.map((p) => rep(p, p.min, p.max)).join('')
}

function maxLen(pieces: Piece[]): number {
  return pieces.reduce((n, p) => n + p.max * Math.max(...p.lits.map((l) => l.length)), 0)
}

function compile(seqs: Piece[][], flags: string, tail = ''): CompiledDelimiter {
  const full = seqs.map(fullSource).map((s) => '(?:' + s + ')').join('|')
  const first = new Set<number>()
  for (const seq of seqs) {
    // first chars: walk while pieces may be absent
    for (const p of seq) {
      for (const l of p.lits) {
        first.add(codeAt(l, 0))
        if (flags.includes('i')) {
          first.add(l[0]!.toLowerCase().charCodeAt(0))
          first.add(l[0]!.toUpperCase().charCodeAt(0))
        }
      }
      if (p.min > 0) break
    }
  }
  return {
    sticky: new RegExp('(?:' + full + ')' + tail, flags + 'y'),
    maxLength: Math.max(...seqs.map(maxLen)) + (tail ? 1 : 0),
    firstChars: [...first],
    seqs,
    caseInsensitive: flags.includes('i'),
    needsBoundary: tail !== '',
    last: '',
  }
}

/** Local names of `role` usable in `frame`. */
export function roleNames(grammar: Grammar, role: Role, frame: string): string[] {
  const out: string[] = []
  for (const n of grammar.roles[role]) {
    if (typeof n === 'string') out.push(n)
    else if (n.frames === undefined || n.frames.includes(frame)) out.push(n.name)
  }
  return out
}

const spaces: Piece = { lits: [' ', '\t'], min: 0, max: 4 }

/**
 * The start of an opening tag (frame prefix + local name), which must be
 * followed by a character that cannot continue the name. Attributes and the
 * end of the tag are tokens of their own.
 */
export function compileOpen(grammar: Grammar, role: Role, frameIdx: number): CompiledDelimiter | null {
  const frame = grammar.frames[frameIdx]!
  const names = roleNames(grammar, role, frame.name)
  if (names.length === 0) return null
  const flags = grammar.caseInsensitive === false ? '' : 'i'
  return compile(frame.open.map((s) => piecesOf(s, names)), flags, `(?=[^${nameCharClass}])`)
}

/** A whole closing tag: frame prefix, local name, optional spaces, and one of the frame's tag ends. */
export function compileClose(grammar: Grammar, role: Role, frameIdx: number): CompiledDelimiter | null {
  const frame = grammar.frames[frameIdx]!
  const names = roleNames(grammar, role, frame.name)
  if (names.length === 0) return null
  const flags = grammar.caseInsensitive === false ? '' : 'i'
  const seqs: Piece[][] = []
  for (const c of frame.close) for (const e of frame.end) seqs.push([...piecesOf(c, names), spaces, ...piecesOf(e, [])])
  return compile(seqs, flags)
}

/** The end of an opening tag, in any frame's spelling (a block may mix spellings). */
export function compileTagEnd(grammar: Grammar): CompiledDelimiter {
  return compile(distinct(grammar.frames.flatMap((f) => f.end)), '')
}

/** Each distinct sequence of `all`, as pieces. */
function distinct(all: FrameSequence[]): Piece[][] {
  return [...new Map(all.map((s) => [JSON.stringify(s), s])).values()].map((s) => piecesOf(s, []))
}

/** Blanks between an attribute gap and the attribute's name: the `Attr` token's blanks, bounded as all drift is. */
const gapBlanks: Piece = { lits: [' ', '\t', '\r', '\n'], min: 1, max: 4 }
const nameChar: Piece = { lits: [...nameChars], min: 1, max: 1 }

/** The frames' `beforeAttributes` drift, compiled: read as a space where blanks and an attribute's name follow it. */
export interface CompiledGap {
  /** The gap, at lastIndex, where up to 4 blanks and a name character follow it (neither taken). */
  sticky: RegExp
  /**
   * The gap, blanks and a name character as one delimiter: a tail that is a
   * prefix of it (`|` + ` ` at a chunk end) is undecided, since a bar alone
   * would end the tag.
   */
  held: CompiledDelimiter
  /** First characters of a gap. */
  firstChars: number[]
}

/** The attribute gaps of every frame (a block may mix spellings), or null when no frame has one. */
export function compileAttrGap(grammar: Grammar): CompiledGap | null {
  const seqs = distinct(grammar.frames.flatMap((f) => f.beforeAttributes ?? []))
  if (seqs.length === 0) return null
  const full = seqs.map(fullSource).map((s) => '(?:' + s + ')').join('|')
  const held = compile(seqs.map((s) => [...s, gapBlanks, nameChar]), '')
  const sticky = new RegExp(`(?:${full})(?=[ \\t\\r\\n]{1,4}[${nameCharClass}])`, 'y')
  return { sticky, held, firstChars: held.firstChars }
}

/** Any one of `lits` (`<![CDATA[`, `-->`), written exactly (or ignoring case). */
export function compileLiterals(lits: readonly string[], caseInsensitive = false): CompiledDelimiter {
  return compile([[{ lits: [...lits], min: 1, max: 1 }]], caseInsensitive ? 'i' : '')
}

/**
 * Each delimiter's own tail matcher, made on first use, rather than a regex
 * of every prefix: that regex runs a few times a turn, V8 may drop a rarely
 * run regex's compiled code, and compiling one of thousands of characters
 * again takes milliseconds.
 */
const growth = new WeakMap<CompiledDelimiter, TailMatcher>()

function matcherOf(d: CompiledDelimiter): TailMatcher {
  let m = growth.get(d)
  if (m === undefined) growth.set(d, (m = new TailMatcher([d])))
  return m
}

/**
 * True when a match of `d` at `offset` may not be taken yet: the text from
 * there to its end is a prefix of a match more input could lengthen. That
 * covers a match reaching the text end, and a shorter alternative before the
 * end of a longer one the text end cuts (`|` of a tag end `| >`, text ending
 * in `| `).
 */
export function growsAt(d: CompiledDelimiter, text: string, offset: number): boolean {
  return text.length - offset < d.maxLength && matcherOf(d).grows(text, offset)
}
