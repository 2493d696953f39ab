/**
 * Makes the lexer's token types: one per spelling, role and target mode,
 * under the role categories of `kinds.ts`, each registered with its
 * {@link TokenInfo} for the driver. Custom matchers read the shared
 * {@link LexContext}.
 */
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain'
import { allCharsExcept, codeAt, codes } from './codes.js'
import type { CategoryName } from './kinds.js'
import { growsAt, type CompiledDelimiter } from './frames.js'
import { heldLinePrefix, maxQuotePrefix, tagKey, type LexContext, type MarkdownState } from './context.js'
import { modes, type ModeName } from './modes.js'
import { TailMatcher } from './tail.js'
import type { JsonPart } from './json-tokens.js'
import { initialScan, jsonBefore } from './json-scan.js'
import { tokenType } from './token-registry.js'

export interface TokenInfo {
  category: CategoryName
  /** Mode after this token, or null to stay. */
  push: ModeName | null
  /** A backtick/tilde run cut by the end of the text: its meaning waits for the rest of the run. */
  runPart?: boolean
  /** An Incomplete token holding a backtick run that stands in an open HTML tag or autolink. */
  candidateHold?: boolean
  /** The end of a self-closing invoke tag (`/>`): the invoke closes with it. */
  selfClose?: boolean
  /** A tag's spelling family (the grammar frame's name). */
  frame?: string
  /** A token of a block that ends with its JSON: what it is to the walk (`json-tokens.ts`). */
  json?: JsonPart
}

/**
 * The one array every plain match is returned in. Chevrotain reads a custom
 * matcher's image (and `payload`, never set on this one) before it asks for
 * the next match, so a result per token is not needed: in a dense block the
 * `exec()` arrays were a sixth of everything the sieve allocated.
 */
const shared = [''] as unknown as CustomPatternMatcherReturn

/** `image` as a custom matcher's result, in {@link shared}. */
export function matched(image: string): CustomPatternMatcherReturn {
  shared[0] = image
  return shared
}

/** What the sticky `re` matches at `offset` of `text`, or null: a test, not an `exec()` array. */
export function stickyAt(re: RegExp, text: string, offset: number): string | null {
  re.lastIndex = offset
  return re.test(text) ? text.substring(offset, re.lastIndex) : null
}

/**
 * What the delimiter `d` matches at `offset`, or null, as {@link stickyAt};
 * a match spelled as the last one was is that same string. A block spells
 * its tags alike: one string serves them all, where a slice per token would
 * keep its chunk alive for as long as a capture holds the token.
 */
export function delimiterAt(d: CompiledDelimiter, text: string, offset: number): string | null {
  const re = d.sticky
  re.lastIndex = offset
  if (!re.test(text)) return null
  const last = d.last
  if (re.lastIndex - offset === last.length && text.startsWith(last, offset)) return last
  // a copy, not a slice: a slice keeps its whole chunk alive, here for as long as the grammar is
  return (d.last = text.substring(offset, re.lastIndex).split('').join(''))
}

type Exec = (text: string, offset: number) => CustomPatternMatcherReturn | RegExpExecArray | null

/** Builds token types; every one is registered with its {@link TokenInfo}. */
export class TokenFactory {
  readonly info = new Map<TokenType, TokenInfo>()
  /** Per mode, the DFA over the delimiters its Incomplete token holds tails of (one per mode: its cache is shared). */
  readonly tails = new Map<ModeName, TailMatcher>()
  private readonly byName = new Map<string, TokenType>()
  /** Modes whose Incomplete token holds a line-start prefix (see {@link incomplete}). */
  readonly prefixModes = new Set<ModeName>()
  /**
   * {@link allCharsExcept} by exclusion set while the lexer is built: the
   * same few sets recur across the modes, and each list is 65k entries.
   * Emptied by {@link releaseHints}.
   */
  private readonly everyChar = new Map<string, number[]>()

  constructor(readonly ctx: { current: LexContext }) {}

  /** A token type; its name gets its push (`name>mode`) unless `named` (a name checkpoints keep). */
  make(name: string, category: CategoryName, push: ModeName | null, exec: Exec, hint: number[], lineBreaks: boolean, named = false): TokenType {
    const full = push === null || named ? name : `${name}>${push}`
    const existing = this.byName.get(full)
    if (existing) return existing
    const t = tokenType({
      name: full,
      pattern: { exec },
      start_chars_hint: hint,
      line_breaks: lineBreaks,
      ...(push === null ? {} : { push_mode: push }),
    })
    this.byName.set(full, t)
    this.info.set(t, { category, push })
    return t
  }

  /** Every code unit but `excluded` (see {@link allCharsExcept}), one list per set for this lexer's tokens. */
  allCharsExcept(excluded: readonly number[]): number[] {
    const key = [...new Set(excluded)].sort((a, b) => a - b).join(',')
    let hit = this.everyChar.get(key)
    if (hit === undefined) this.everyChar.set(key, (hit = allCharsExcept(excluded)))
    return hit
  }

  /**
   * Lets the start-character hints go once the Chevrotain lexer is built:
   * only the first-character analysis of its constructor reads them, and
   * the exec closures keep this factory alive, so without this every
   * compiled lexer would keep the "anything else" tokens' lists, some 5 MB.
   */
  releaseHints(): void {
    this.everyChar.clear()
    for (const t of this.info.keys()) delete t.START_CHARS_HINT
  }

  /** A token matching `re` (sticky) at the offset. */
  regex(name: string, category: CategoryName, push: ModeName | null, re: RegExp, hint: number[], lineBreaks: boolean): TokenType {
    return this.make(name, category, push, (text, offset) => {
      const image = stickyAt(re, text, offset)
      return image === null ? null : matched(image)
    }, hint, lineBreaks)
  }

  /** A fixed delimiter; refuses a match that more input could still lengthen. */
  delimiter(name: string, category: CategoryName, push: ModeName | null, d: CompiledDelimiter): TokenType {
    const ctx = this.ctx
    // a tag held after an unmatched backtick remembers how many levels were open at it
    const holds = push === modes.spanHold
    // in a fence opener's info string only a backtick fence can still be voided, so only there is a tag held
    const onlyBacktickFence = push === modes.fenceInfoHold
    // a parameter opener in a block: the key its value's closer must spell, should the tag say `string`
    const opensParameter = push === modes.tagParameter
    // a JSON block's opener: its scanner starts (`LexContext.json`)
    const opensJson = push === modes.jsonBlock
    return this.make(name, category, push, (text, offset) => {
      const c = ctx.current
      if (onlyBacktickFence && c.fenceCh !== codes.graveAccent) return null
      const image = delimiterAt(d, text, offset)
      if (image === null) return null
      if (!c.final && growsAt(d, text, offset)) return null
      // past a paragraph's second halt, no tag before its end waits (`Holds.halted`): it stays text
      if (offset < c.noHoldBefore && (holds || onlyBacktickFence)) return null
      if (opensParameter) {
        c.rawOpener = tagKey(image)
        c.rawNext = null
      }
      if (opensJson) c.json = { scan: initialScan(), before: jsonBefore(c.captureLimit, image.length) }
      if (!holds) return matched(image)
      c.holdDepth = c.levels.length
      const r = [image] as CustomPatternMatcherReturn
      r.payload = { levels: c.levels.slice(), holdDepth: c.holdDepth, fenceCh: c.fenceCh, fenceLen: c.fenceLen, fenceDepth: c.fenceDepth, fenceIndent: c.fenceIndent } satisfies MarkdownState
      return r
    }, d.firstChars, false)
  }

  /**
   * A closer that ends a `rawValue` only when it spells the value's own
   * opener (`LexContext.rawOpener`); any other is text there. A `<` that a
   * closer of that spelling follows belongs to the value (`a<</｜DSML｜parameter>`
   * is `a<`): the grammar's leading-`<` drift never eats a value's last character.
   */
  rawClose(name: string, push: ModeName, d: CompiledDelimiter, all: readonly CompiledDelimiter[]): TokenType {
    const ctx = this.ctx
    const own = (text: string, offset: number): string | null => {
      for (const x of all) {
        const image = delimiterAt(x, text, offset)
        if (image !== null && tagKey(image) === ctx.current.rawOpener) return image
      }
      return null
    }
    return this.make(name, 'ParamClose', push, (text, offset) => {
      const c = ctx.current
      const image = delimiterAt(d, text, offset)
      if (image === null || tagKey(image) !== c.rawOpener) return null
      if (!c.final && growsAt(d, text, offset)) return null
      if (offset + 1 < text.length && own(text, offset + 1) !== null) return null
      return matched(image)
    }, d.firstChars, false)
  }

  /** A fixed delimiter that matches only while `when` holds of the context. */
  delimiterWhen(name: string, category: CategoryName, push: ModeName, d: CompiledDelimiter, when: (c: LexContext) => boolean): TokenType {
    const ctx = this.ctx
    return this.make(name, category, push, (text, offset) => {
      const c = ctx.current
      if (!when(c)) return null
      const image = delimiterAt(d, text, offset)
      if (image === null || (!c.final && growsAt(d, text, offset))) return null
      return matched(image)
    }, d.firstChars, false)
  }

  /** The tail matcher of `mode`, made on first use from the delimiters the mode's Incomplete token holds. */
  tailMatcher(mode: ModeName, delims: CompiledDelimiter[]): TailMatcher {
    let m = this.tails.get(mode)
    if (m === undefined) this.tails.set(mode, (m = new TailMatcher(delims)))
    return m
  }

  /**
   * Claims a tail that could still become one of `delims`; with
   * `linePrefix`, also a line-start prefix (spaces, block quote markers, a
   * list marker: a fence may follow it). Those modes are the Markdown ones
   * and the capture modes between tags, where such a line releases the
   * capture and goes on as prose: the prefix must stay with what follows it.
   */
  incomplete(mode: ModeName, delims: CompiledDelimiter[], linePrefix: boolean): TokenType {
    const ctx = this.ctx
    const matcher = this.tailMatcher(mode, delims)
    const max = Math.max(linePrefix ? maxQuotePrefix : 3, ...delims.map((d) => d.maxLength))
    const hint = new Set<number>(delims.flatMap((d) => d.firstChars))
    if (linePrefix) {
      this.prefixModes.add(mode)
      for (const c of ' >-+*0123456789') hint.add(codeAt(c, 0))
    }
    return this.make(`${mode}.Incomplete`, 'Incomplete', null, (text, offset) => {
      const c = ctx.current
      if (c.final || text.length - offset > max) return null
      if (linePrefix && heldLinePrefix(text, offset, c.lineState, true)) return [text.slice(offset)]
      return matcher.isPrefix(text, offset) ? [text.slice(offset)] : null
    }, [...hint], false)
  }
}
