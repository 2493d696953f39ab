/**
 * The held tail, extended without the lexer. A tail the lexer left
 * undecided (`<|DS`) is a prefix of some delimiter; when the next chunk only
 * makes it a longer prefix, lexing `tail + chunk` again would give the same
 * single Incomplete token. This matcher keeps the tail's position in every
 * delimiter (an NFA over the config's literal pieces, turned into a DFA
 * lazily and cached), so each new character costs one table step, not a
 * re-lex of the whole tail: at one character per chunk a 17-character DSML
 * tag was lexed 153 characters' worth, now 17.
 *
 * It is conservative: whenever the lexer might decide something (a delimiter
 * complete and unable to grow, a match ending before the tail does), it
 * answers `decide` and the driver lexes as usual.
 */
import { codeAt, isNameChar } from './codes.js'
import type { CompiledDelimiter, Piece } from './frames.js'

/** One NFA position: delimiter, sequence, piece, repetitions done, literal, character within it. */
interface Pos {
  d: number
  q: number
  p: number
  r: number
  l: number
  c: number
}

/** After one character: the next state (null: no delimiter left), and whether one completed (1: may still be held at the end, 2: the lexer takes it). */
interface Step {
  next: TailState | null
  accept: 0 | 1 | 2
  /** The delimiters (indices) that completed on this character. */
  accepted: readonly number[] | null
}

/** A DFA state: a set of NFA positions, with its transitions cached. */
export interface TailState {
  readonly positions: readonly Pos[]
  /** Transitions on ASCII characters, by code: the common case, without hashing. */
  readonly ascii: Array<Step | undefined>
  readonly steps: Map<number, Step>
  /**
   * Set on the state past a whole opening tag name that nothing can
   * lengthen (`<｜DSML｜invoke` at a chunk end). The lexer holds such a tail
   * as it would any prefix, since the tag needs a character after the name,
   * and that character alone decides (a name character: no tag starts here).
   */
  readonly nameDone?: true
  /** An opening tag completed earlier in this tail (a longer name or spelling may still follow): a dead end is the lexer's to decide. */
  readonly waiting?: true
}

export class TailMatcher {
  private readonly states = new Map<string, TailState>()
  private readonly init: TailState
  /** The {@link TailState.nameDone} state: no position is left in it, only the boundary to read. */
  private readonly nameDone: TailState = { positions: [], ascii: new Array<Step | undefined>(128).fill(undefined), steps: new Map(), nameDone: true }
  /** Past a delimiter that completed on the text's last character with nothing to grow into: a prefix that cannot grow. */
  private readonly complete: TailState = { positions: [], ascii: [], steps: new Map() }

  constructor(private readonly delims: readonly CompiledDelimiter[]) {
    const out: Pos[] = []
    delims.forEach((del, d) => del.seqs.forEach((_, q) => this.enter(out, d, q, 0, 0)))
    this.init = this.state(out)
  }

  /**
   * True when no delimiter can start at `offset` of `text`, reading on only
   * as far as it takes to know: the character there is plain text. Reading
   * past the end of `text` is not knowing.
   */
  startsNothingAt(text: string, offset: number): boolean {
    let cur = this.init
    for (let i = offset, end = text.length; i < end; i++) {
      const st = this.on(cur, codeAt(text, i))
      if (st.accept !== 0) return false
      if (st.next === null) return true
      cur = st.next
    }
    return false
  }

  /**
   * True when `text` from `offset` to its end is a prefix of some delimiter
   * (a complete one included). The Incomplete token asks this on every tag
   * start near a chunk's end; the equivalent regex over nested optional
   * pieces backtracked for microseconds per call.
   */
  isPrefix(text: string, offset: number): boolean {
    return this.prefixState(text, offset) !== null
  }

  /**
   * True when `text` from `offset` to its end is a prefix of some delimiter
   * that more characters can lengthen: some position is left after it, and
   * each position is a literal's next character.
   */
  grows(text: string, offset: number): boolean {
    const state = this.prefixState(text, offset)
    return state !== null && state.positions.length > 0
  }

  /**
   * The state after `text` from `offset` to its end, for {@link isPrefix}
   * and {@link grows}: {@link complete} when a delimiter completes on the
   * last character and nothing can follow it, null when no delimiter
   * reaches the end.
   */
  private prefixState(text: string, offset: number): TailState | null {
    let cur = this.init
    for (let i = offset, end = text.length; i < end; i++) {
      const st = this.on(cur, codeAt(text, i))
      if (st.next === null) return i === end - 1 && st.accept !== 0 ? this.complete : null
      cur = st.next
    }
    return cur
  }

  /**
   * The delimiter that completes first reading `text` from its start, alone:
   * a closer for good (`</invoke>`: it cannot grow and needs no boundary),
   * or an opening tag name waiting for its boundary (`opener`). Its index
   * and the offset just past it; null for any other first completion
   * (several at once, one that may grow) or none: the lexer decides those.
   */
  firstCompletion(text: string): { d: number; end: number; opener: boolean } | null {
    let cur = this.init
    for (let i = 0, n = text.length; i < n; i++) {
      const st = this.on(cur, codeAt(text, i))
      if (st.accept !== 0) {
        const d = st.accepted !== null && st.accepted.length === 1 ? st.accepted[0]! : -1
        if (d < 0) return null
        if (st.accept === 2) return { d, end: i + 1, opener: false }
        return this.delims[d]!.needsBoundary ? { d, end: i + 1, opener: true } : null
      }
      if (st.next === null) return null
      cur = st.next
    }
    return null
  }

  /** Whether delimiter `d`'s own regex matches `text` from its start to exactly `end`. */
  confirms(d: number, text: string, end: number): boolean {
    const re = this.delims[d]!.sticky
    re.lastIndex = 0
    // a sticky test leaves lastIndex where the match ends, with no match array made
    return re.test(text) && re.lastIndex === end
  }

  /**
   * True when a delimiter matches at the start of `text` with the stream
   * over: one completes inside it, and an opening tag has a boundary after
   * it (the end of the stream is none). Then lexing `text` as final yields
   * that token; otherwise `text` is only the unfinished start of a tag.
   */
  matchesAtEnd(text: string): boolean {
    let cur = this.init
    for (let i = 0, end = text.length; i < end; i++) {
      const st = this.on(cur, codeAt(text, i))
      if (st.accepted !== null) {
        for (const d of st.accepted) {
          if (!this.delims[d]!.needsBoundary) return true
          if (i + 1 < text.length && !isNameChar(codeAt(text, i + 1))) return true
        }
      }
      if (st.next === null) return false
      cur = st.next
    }
    return false
  }

  /** The state after reading `s` from scratch, or null if the lexer must decide. */
  start(s: string): TailState | null {
    const r = this.step(this.init, s)
    return typeof r === 'string' ? null : r
  }

  /**
   * The state after reading `more`. `died`: no delimiter matches where the
   * tail starts, so its first character is plain text; `decide`: a delimiter
   * completed and the lexer must take it.
   */
  step(state: TailState, more: string): TailState | 'died' | 'decide' {
    if (state.nameDone === true) return isNameChar(codeAt(more, 0)) ? 'died' : 'decide'
    let cur = state
    for (let i = 0, n = more.length; i < n; i++) {
      const st = this.on(cur, codeAt(more, i))
      // complete before the tail ends, or complete for good at its end: the lexer takes that match
      if (st.accept === 2 || (st.accept === 1 && i < more.length - 1)) return 'decide'
      // complete at the end with nothing to grow into: only an opening tag name waits like that, for its boundary
      if (st.next === null) return st.accept === 1 ? this.nameDone : cur.waiting === true ? 'decide' : 'died'
      cur = st.next
    }
    return cur
  }

  /** The transition from `from` on `ch`: cached, or computed once. */
  private on(from: TailState, ch: number): Step {
    return (ch < 128 ? from.ascii[ch] : from.steps.get(ch)) ?? this.learn(from, ch)
  }

  private learn(from: TailState, ch: number): Step {
    const st = this.transition(from, ch)
    if (ch < 128) from.ascii[ch] = st
    else from.steps.set(ch, st)
    return st
  }

  private transition(from: TailState, ch: number): Step {
    const next: Pos[] = []
    let accepted: number[] | null = null
    for (const pos of from.positions) {
      const del = this.delims[pos.d]!
      const lit = del.seqs[pos.q]![pos.p]!.lits[pos.l]!
      if (!same(codeAt(lit, pos.c), ch, del.caseInsensitive)) continue
      if (pos.c + 1 < lit.length) next.push({ d: pos.d, q: pos.q, p: pos.p, r: pos.r, l: pos.l, c: pos.c + 1 })
      else if (this.enter(next, pos.d, pos.q, pos.p, pos.r + 1)) (accepted ??= []).push(pos.d)
    }
    let accept: 0 | 1 | 2 = 0
    let waiting = from.waiting === true
    if (accepted !== null) {
      accept = 1
      // an opening tag waits for its boundary; any other delimiter is held only while it could still grow
      for (const d of accepted) {
        if (!this.delims[d]!.needsBoundary && !next.some((p) => p.d === d)) accept = 2
        if (this.delims[d]!.needsBoundary && next.length > 0) waiting = true
      }
    }
    return { next: next.length === 0 ? null : this.state(next, waiting), accept, accepted }
  }

  private state(ps: Pos[], waiting = false): TailState {
    const keys = ps.map((p) => `${p.d},${p.q},${p.p},${p.r},${p.l},${p.c}`).sort()
    const key = (waiting ? 'w|' : '') + keys.join(';')
    let s = this.states.get(key)
    if (s === undefined) {
      const seen = new Set<string>()
      const positions = ps.filter((p) => {
        const k = `${p.d},${p.q},${p.p},${p.r},${p.l},${p.c}`
        return seen.has(k) ? false : (seen.add(k), true)
      })
      s = { positions, ascii: new Array<Step | undefined>(128).fill(undefined), steps: new Map(), ...(waiting ? { waiting: true as const } : {}) }
      this.states.set(key, s)
    }
    return s
  }

  /** Add the positions reachable at piece `p` after `r` repetitions; true if the sequence can end here. */
  private enter(out: Pos[], d: number, q: number, p: number, r: number): boolean {
    const piece: Piece | undefined = this.delims[d]!.seqs[q]![p]
    if (piece === undefined) return true
    if (r < piece.max) for (let l = 0; l < piece.lits.length; l++) out.push({ d, q, p, r, l, c: 0 })
    return r >= piece.min ? this.enter(out, d, q, p + 1, 0) : false
  }
}

function same(a: number, b: number, ci: boolean): boolean {
  if (a === b) return true
  if (!ci) return false
  return canonicalize(a) === canonicalize(b)
}

/**
 * How a case-insensitive regex without the `u` flag compares characters
 * (ECMAScript Canonicalize): by upper case, except that a non-ASCII
 * character never matches an ASCII one. The delimiters' own regexes work
 * this way, so the DFA must too: by lower case, the Kelvin sign `K` (U+212A)
 * matched the `k` of `invoke` here but not in the lexer.
 */
function canonicalize(c: number): number {
  const upper = String.fromCharCode(c).toUpperCase()
  if (upper.length !== 1) return c
  const u = codeAt(upper, 0)
  return c >= 128 && u < 128 ? c : u
}
