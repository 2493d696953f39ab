/**
 * Reading the `quoted` texts: every call-shaped thing in them, wherever it
 * stands. A quoted text is the user's: an invoke there in a code span, a
 * fence, a wrapper broken by prose, a bare or self-closing invoke, even one
 * inside another invoke's value, is exactly what a model would echo. So each
 * invoke opener (any spelling family of the grammar) is read on its own, from
 * its opener to its closer, by the rules a live capture follows, and decoded
 * as a live call is (values, the tool's schema).
 *
 * ```
 * > | What does `<invoke name="rm"><parameter name="p">/x</parameter></invoke>` do? And <invoke name="ls"/>?
 *                ^ read from here to its closer: rm {p: "/x"}          self-closing, read too ^
 * ```
 *
 * Each read stops at the invoke's closer; at a token a live capture would
 * break at, or the text's end, where the invoke counts as closed after its
 * last complete parameter (the user left it unclosed: a model echoing it
 * would close it); or at the capture limit (a live invoke that long is text
 * anyway). Reads are bounded in total
 * ({@link readBudget}); an opener past the budget is recorded by its name
 * alone, so that every call of that name counts as quoted (fail closed).
 */
import type { IToken } from 'chevrotain'
import type { CompiledLexer } from '../lexer/lexer.js'
import { freshContext } from '../lexer/context.js'
import { modes, type ModeName } from '../lexer/modes.js'
import { categoryOf, tokenOf, unplaced } from '../lexer/token-instance.js'
import type { ToolTable } from '../schema/tools.js'
import type { ValueOptions } from '../values/decode.js'
import { readInvoke } from './invoke-read.js'
import { callInput } from './calls.js'
import { CaptureRules } from '../lexer/structure.js'
import { QuotedCalls } from './quoted.js'
import { codeAt } from '../lexer/codes.js'

/** What reading needs of the sieve: the same decoding and limit a live call gets. */
export interface ReadOptions {
  values: ValueOptions
  tools: ToolTable | null
  captureLimit: number
}

/**
 * Characters lexed for all the reads of one text, at most: this many times
 * its length, plus one capture limit. Ordinary texts read each invoke once
 * (about their length); a text of many unclosed openers would otherwise cost
 * openers × capture limit.
 */
export const readBudget = 8

/** The window a read starts with; it grows fourfold while the invoke is still open at its end. */
const firstWindow = 256

/** The calls in `texts`, read with `lexer` (the sieve's spellings, no Markdown guard). */
export function readQuoted(texts: readonly string[], lexer: CompiledLexer, opts: ReadOptions): QuotedCalls {
  const found = new QuotedCalls()
  const reader = new Reader(lexer, opts, found)
  for (const text of texts) reader.read(text)
  return found
}

/**
 * How a read ended: at the invoke's closer; or cut (a token a live capture
 * would break at, or the text's end) with `whole` its tokens up to the last
 * point between parameters, or null; or still open at a window's end.
 */
type Read = { closed: IToken[] } | { cut: IToken[] | null } | { open: true }

class Reader {
  private readonly starts: ReadonlySet<number>
  /** The invoke role's local names: an opener holds one within a delimiter's length of its start. */
  private readonly names: RegExp
  private readonly rules = new CaptureRules()
  private readonly close: IToken
  private readonly wrapperClose: IToken

  constructor(private readonly lexer: CompiledLexer, private readonly opts: ReadOptions, private readonly found: QuotedCalls) {
    this.starts = new Set(lexer.tagStartChars)
    const g = lexer.grammar
    const names = (g.roles.invoke ?? []).map((r) => (typeof r === 'string' ? r : r.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    this.names = new RegExp(names.length === 0 ? '(?!)' : names.join('|'), g.caseInsensitive === false ? 'g' : 'gi')
    this.close = tokenOf(lexer.typeByName.get('InvokeClose')!, '', unplaced)
    this.wrapperClose = tokenOf(lexer.typeByName.get('WrapperClose')!, '', unplaced)
  }

  read(text: string): void {
    const budget = { left: readBudget * text.length + this.opts.captureLimit }
    // only a tag start a little before an invoke name can open an invoke: the rest of the text is never lexed
    const names = this.names
    names.lastIndex = 0
    let p = 0
    for (let m = names.exec(text); m !== null; m = names.exec(text)) {
      if (m[0].length === 0) names.lastIndex++
      for (p = Math.max(p, m.index - this.lexer.maxDelimiter); p < m.index; p++) {
        if (this.starts.has(codeAt(text, p)) && this.opensInvoke(text, p)) this.invoke(text, p, budget)
      }
    }
  }

  /** The invoke opened at `p`: its call, or past the budget its name. */
  private invoke(text: string, p: number, budget: { left: number }): void {
    if (budget.left <= 0) return this.nameOnly(text, p)
    const { read, cost } = this.invokeAt(text, p)
    budget.left -= cost
    if ('closed' in read) this.record(read.closed)
    // an invoke the user left unclosed (prose, or the text's end, after it): the call its complete parameters make,
    // which a model echoing it with a closer would write
    else if ('cut' in read) {
      if (read.cut !== null) this.record(read.cut)
    }
    // still open where the budget cut its reading short: its arguments cannot be compared, its name marks it
    else if ('open' in read && budget.left <= 0) this.nameOnly(text, p)
  }

  /** Whether an invoke opener of any spelling starts at `p`. */
  private opensInvoke(text: string, p: number): boolean {
    const end = Math.min(text.length, p + this.lexer.maxDelimiter + 2)
    const tokens = this.lexer.tokenize(text.slice(p, end), modes.prose, freshContext(end === text.length))
    return tokens.length > 0 && tokens[0]!.startOffset === 0 && categoryOf(this.lexer, tokens[0]!) === 'InvokeOpen'
  }

  /** The invoke at `p`, read in windows that grow while it is open at their end; `cost`: characters lexed. */
  private invokeAt(text: string, p: number): { read: Read; cost: number } {
    const last = Math.min(text.length, p + this.opts.captureLimit)
    let cost = 0
    for (let size = firstWindow; ; size *= 4) {
      const end = Math.min(last, p + size)
      const final = end === text.length
      cost += end - p
      // tokens near a window's cut may read differently with more text: only those ending a delimiter before it count
      const trusted = final ? end - p : end - p - this.lexer.maxDelimiter
      const read = this.walk(this.lexer.tokenize(text.slice(p, end), modes.prose, freshContext(final)), trusted, final)
      if (!('open' in read) || end === last) return { read, cost }
    }
  }

  /**
   * The tokens of one invoke from its opener, by the rules a live capture
   * follows. `final`: the tokens run to the text's end.
   */
  private walk(tokens: IToken[], trusted: number, final: boolean): Read {
    const out: IToken[] = []
    let mode: ModeName = modes.prose
    // tokens up to the last point between parameters (after the opener's tag, or a parameter's closer)
    let whole = 0
    const cut = (): Read => ({ cut: whole === 0 ? null : [...out.slice(0, whole), this.close] })
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!
      if (tok.startOffset + tok.image.length > trusted) return { open: true }
      const info = this.lexer.infoByIdx[tok.tokenTypeIdx]!
      if (i > 0 && !this.rules.continues(mode, info.category)) return cut()
      out.push(tok)
      if (info.selfClose === true) return { closed: [...out, this.close] }
      if (i > 0 && info.category === 'InvokeClose') return { closed: out }
      if (info.push !== null) mode = info.push
      if (mode === modes.invokeBody) whole = out.length
    }
    return final ? cut() : { open: true }
  }

  /** A closed invoke, decoded as a live call is: its name and input. */
  private record(tokens: IToken[]): void {
    const d = readInvoke(this.lexer, this.opts.values, tokens, [this.wrapperClose])?.decoded
    if (d === undefined || !d.ok) return
    const { input } = callInput(d, this.opts.tools?.get(d.name)?.schema ?? null)
    this.found.add(d.name, input)
  }

  /** Past the budget: the opener's name marks every call of that name as quoted. */
  private nameOnly(text: string, p: number): void {
    const last = Math.min(text.length, p + this.opts.captureLimit)
    for (let size = 256; ; size *= 4) {
      const end = Math.min(last, p + size)
      const tokens = this.lexer.tokenize(text.slice(p, end), modes.prose, freshContext(end === text.length))
      const tag: IToken[] = []
      for (const tok of tokens) {
        tag.push(tok)
        if (categoryOf(this.lexer, tok) === 'TagEnd') break
      }
      if (categoryOf(this.lexer, tag[tag.length - 1]!) !== 'TagEnd') {
        if (end === last) return
        continue
      }
      const d = readInvoke(this.lexer, this.opts.values, tag, [this.close, this.wrapperClose])?.decoded
      if (d !== undefined && d.ok) this.found.addName(d.name)
      return
    }
  }
}
