/**
 * The Markdown guard's decisions, as pure functions of the markdown state:
 * what a backtick/tilde run or a line feed means in each mode. Matchers in
 * `tokens-markdown.ts` call these; the driver calls `decideRun` for a run
 * carried across a chunk boundary, so both always agree.
 *
 * ```
 * > | Use `x` then <tool_calls>
 *         ^ run of 1 opens level [1]; the next run of 1 closes it
 * > | Use ` then <tool_calls> … ` ok
 *         ^ level [1] open when the tag comes: the tag is held until a run of 1
 *           (an example) or the end of the paragraph (live)
 * > | ``` js `x`
 *     ^ fence opener candidate; the backtick in its info string voids it (CommonMark 4.5):
 *       it was an inline run of 3 after all
 * ```
 */
import { codes } from './codes.js'
import { fenceQuoteDepth, freshMarkdown, indentOf, itemColumnOf, quoteDepthOf, withQuotedItem, type MarkdownState, type RunCarry } from './context.js'
import { modes, type ModeName } from './modes.js'

/** How the guard treats runs in a mode. */
export type RunKind = 'prose' | 'span' | 'spanHold' | 'spanHoldFenceInfo' | 'fence' | 'fenceInfo' | 'fenceInfoHold' | 'capture'

export interface GuardSettings {
  fences: boolean
  codeSpans: boolean
}

/** A decision: the mode to switch to (`null`: stay) and the new markdown state (`null`: unchanged). */
export interface Decision {
  target: ModeName | null
  md: MarkdownState | null
}

const stay: Decision = { target: null, md: null }

export function state(levels: number[], holdDepth = 0, fenceCh = 0, fenceLen = 0, fenceDepth = 0, fenceIndent = 0): MarkdownState {
  return { levels, holdDepth, fenceCh, fenceLen, fenceDepth, fenceIndent }
}

/**
 * A fence opener candidate. For a backtick fence the levels open before it
 * are kept: if its info string turns out to hold a backtick it was no fence
 * but an inline run in that paragraph.
 */
function openFence(ch: number, len: number, at: number, levels: number[] = [], holdDepth = 0): MarkdownState {
  // a quote opened on a list item's marker line keeps its item's column with its depth (`keepsFence`): its closer
  // is read as a quote's
  const quoted = quoteDepthOf(at)
  const depth = quoted > 0 ? withQuotedItem(quoted, itemColumnOf(at)) : 0
  const item = quoted > 0 ? 0 : itemColumnOf(at)
  return ch === codes.graveAccent ? state(levels, holdDepth, ch, len, depth, item) : state([], 0, ch, len, depth, item)
}

/** An inline backtick run of `len` against the open levels: it closes the first level of its length, or opens one. */
export function inlineRun(levels: number[], len: number): number[] {
  const k = levels.indexOf(len)
  return k >= 0 ? levels.slice(0, k) : [...levels, len]
}

/** Prose (no levels) or a pending span with these levels. */
export function spanOrProse(levels: number[]): Decision {
  return levels.length === 0 ? { target: modes.prose, md: freshMarkdown() } : { target: modes.span, md: state(levels) }
}

/**
 * An inline run while a tag is held. Closing a level that was open at the
 * tag proves the tag sat in a code span (`released`); closing a deeper level
 * proves nothing about it.
 */
function heldRun(md: MarkdownState, len: number): { released: boolean; levels: number[] } {
  const k = md.levels.indexOf(len)
  if (k >= 0 && k < md.holdDepth) return { released: true, levels: md.levels.slice(0, k) }
  return { released: false, levels: k >= 0 ? md.levels.slice(0, k) : [...md.levels, len] }
}

/**
 * A run of `len` × `ch` ended. `at` is where it stands at line start
 * (`lineStartIndent`: block quote depth and indent), or -1.
 * In a capture, a run means the capture was prose after all, so it is decided
 * as in prose (with an empty level list: captures start only in prose).
 */
export function decideRun(kind: RunKind, md: MarkdownState, ch: number, len: number, at: number, s: GuardSettings): Decision {
  const fenceOpener = s.fences && at >= 0 && indentOf(at) <= 3 && len >= 3
  const tick = ch === codes.graveAccent
  switch (kind) {
    case 'prose':
    case 'capture': {
      if (fenceOpener) return { target: modes.fenceInfo, md: openFence(ch, len, at) }
      if (tick && s.codeSpans) return { target: modes.span, md: state([len]) }
      return kind === 'capture' ? { target: modes.prose, md: null } : stay
    }
    case 'span': {
      // a fence opener interrupts the paragraph: its pending backticks were literal (unless the opener is void)
      if (fenceOpener) return { target: modes.fenceInfo, md: openFence(ch, len, at, md.levels) }
      if (!tick) return stay
      const d = spanOrProse(inlineRun(md.levels, len))
      return d.target === modes.prose ? d : { target: null, md: d.md }
    }
    case 'spanHold': {
      if (fenceOpener) return tick ? { target: modes.spanHoldFenceInfo, md: openFence(ch, len, at, md.levels, md.holdDepth) } : { target: modes.halt, md: null }
      if (!tick) return stay
      const r = heldRun(md, len)
      return r.released ? spanOrProse(r.levels) : { target: null, md: state(r.levels, md.holdDepth) }
    }
    case 'spanHoldFenceInfo': {
      if (!tick) return stay
      // void: the opener was an inline run, then this run follows it
      const first = heldRun(md, md.fenceLen)
      if (first.released) return spanOrProse(s.codeSpans ? inlineRun(first.levels, len) : first.levels)
      const second = heldRun(state(first.levels, md.holdDepth), len)
      return second.released ? spanOrProse(second.levels) : { target: modes.spanHold, md: state(second.levels, md.holdDepth) }
    }
    case 'fence': {
      // a closer stands right after the quote markers its opener had; in a list item's fence `at` is its
      // indent (`rawIndent`), 0 to 3 columns past the item's content column
      if (ch !== md.fenceCh || at < 0 || len < md.fenceLen) return stay
      // (a run after a list marker is content: a closer has nothing but its indent before it)
      const closes = md.fenceIndent > 0 ? at >= md.fenceIndent && at - md.fenceIndent <= 3 : indentOf(at) <= 3 && quoteDepthOf(at) === fenceQuoteDepth(md.fenceDepth) && itemColumnOf(at) === 0
      return closes ? { target: modes.fenceClose, md: null } : stay
    }
    case 'fenceInfo': {
      if (md.fenceCh !== codes.graveAccent || !tick) return stay
      if (!s.codeSpans) return { target: modes.prose, md: freshMarkdown() }
      return spanOrProse(inlineRun(inlineRun(md.levels, md.fenceLen), len))
    }
    case 'fenceInfoHold':
      // void: the held tag is re-lexed as inline text of the paragraph (see `afterVoidedFence`)
      return tick ? { target: modes.halt, md: null } : stay
  }
}

/** Mode and state to re-lex a tag held in a voided fence opener line from. */
export function afterVoidedFence(md: MarkdownState, s: GuardSettings): Decision {
  return spanOrProse(s.codeSpans ? inlineRun(md.levels, md.fenceLen) : [])
}

/** What a run carried across a chunk end means once it has ended, decided as its run token would be in `mode`. */
export function decideCarried(c: RunCarry, mode: ModeName, md: MarkdownState, s: GuardSettings): Decision {
  return decideRun(runKindOf(mode) ?? 'prose', md, c.ch, c.len, c.indent, s)
}

/** Which runs a mode reacts to. */
export function runKindOf(mode: ModeName): RunKind | null {
  switch (mode) {
    case modes.prose:
    case modes.span:
    case modes.spanHold:
    case modes.spanHoldFenceInfo:
    case modes.fence:
    case modes.fenceInfo:
    case modes.fenceInfoHold:
      return mode
    case modes.wrapperBody:
    case modes.invokeBody:
    case modes.tagWrapper:
    case modes.tagInvoke:
    case modes.tagParameter:
      return 'capture'
    default:
      return null
  }
}

/** The modes a run token of this kind can switch to (`null`: stay). */
export function runTargets(kind: RunKind): Array<ModeName | null> {
  switch (kind) {
    case 'prose':
      return [null, modes.fenceInfo, modes.span]
    case 'capture':
      return [modes.prose, modes.fenceInfo, modes.span]
    case 'span':
      return [null, modes.fenceInfo, modes.prose]
    case 'spanHold':
      return [null, modes.halt, modes.spanHoldFenceInfo, modes.prose, modes.span]
    case 'spanHoldFenceInfo':
      return [null, modes.prose, modes.span, modes.spanHold]
    case 'fence':
      return [null, modes.fenceClose]
    case 'fenceInfo':
      return [null, modes.prose, modes.span]
    case 'fenceInfoHold':
      return [null, modes.halt]
  }
}

/**
 * A line feed in `mode`; `ends` says whether it ends the paragraph (a blank
 * line's, one that ends a paragraph as a break does, or the one before a
 * line that interrupts it: `lines.ts`, `nextLineInterrupts`).
 */
export function decideLineFeed(mode: ModeName, ends: boolean, md: MarkdownState): Decision {
  switch (mode) {
    case modes.span:
      return ends ? { target: modes.prose, md: freshMarkdown() } : stay
    case modes.spanHold:
      return ends ? { target: modes.halt, md: null } : stay
    case modes.spanHoldFenceInfo:
      // the fence is real and interrupts the paragraph: the held tag is live
      return { target: modes.halt, md: null }
    case modes.fenceInfo:
    case modes.fenceInfoHold:
      // the opener line ended without a backtick in its info string: a fence after all
      return { target: modes.fence, md: state([], 0, md.fenceCh, md.fenceLen, md.fenceDepth, md.fenceIndent) }
    case modes.fenceClose:
      return { target: modes.prose, md: freshMarkdown() }
    case modes.indented:
      // the next line decides for itself (see `lines.ts`)
      return { target: modes.prose, md: null }
    default:
      return stay
  }
}

export function lineFeedTargets(mode: ModeName): Array<ModeName | null> {
  switch (mode) {
    case modes.fence:
      // a fence in a block quote ends where the quote does (decided by the line feed token)
      return [null, modes.prose]
    case modes.span:
      return [null, modes.prose]
    case modes.spanHold:
      return [null, modes.halt]
    case modes.spanHoldFenceInfo:
      return [modes.halt]
    case modes.fenceInfo:
    case modes.fenceInfoHold:
      // prose: the opener stood in a block quote that the next line leaves (an empty fence)
      return [modes.fence, modes.prose]
    case modes.fenceClose:
    case modes.indented:
      return [modes.prose]
    default:
      return [null]
  }
}
