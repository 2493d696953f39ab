/**
 * The Markdown guard's decisions, as pure functions of the markdown state:
 * what a backtick/tilde run or a line feed means in each mode. Matchers in
 * `tokens.ts` call these; the driver calls `decideRun` for a run carried
 * across a chunk boundary, so both always agree.
 *
 * ```
 * > | Use `x` then <tool_calls>
 *         ^ run of 1 opens level [1]; the next run of 1 closes it
 * > | Use ` then <tool_calls> … ` ok
 *         ^ level [1] open when the tag comes: the tag is held until a run of 1
 *           (an example) or the end of the paragraph (live)
 * ```
 */
import { codes } from './codes.js'
import type { MarkdownState } from './context.js'
import { freshMarkdown } from './context.js'
import { modes, type ModeName } from './modes.js'

/** How the guard treats runs in a mode. */
export type RunKind = 'prose' | 'span' | 'spanHold' | 'fence' | 'fenceInfo' | 'capture'

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

function withLevels(md: MarkdownState, levels: number[], holdDepth = md.holdDepth): MarkdownState {
  return { levels, holdDepth, fenceCh: md.fenceCh, fenceLen: md.fenceLen }
}

/**
 * A fence opener candidate. For a backtick fence the levels open before it
 * are kept: if its info string turns out to hold a backtick, it was no fence
 * but an inline run in that paragraph (CommonMark 4.5).
 */
function openFence(ch: number, len: number, levels: number[] = []): MarkdownState {
  return { levels: ch === codes.graveAccent ? levels : [], holdDepth: 0, fenceCh: ch, fenceLen: len }
}

/** An inline backtick run of `len` against the open levels: it closes the first level of its length, or opens one. */
function inlineRun(levels: number[], len: number): number[] {
  const k = levels.indexOf(len)
  return k >= 0 ? levels.slice(0, k) : [...levels, len]
}

/**
 * A run of `len` × `ch` ended. `indent` is its indent at line start, or -1.
 * In a capture, a run means the capture was prose after all, so it is decided
 * as in prose (with an empty level list: captures start only in prose).
 */
export function decideRun(kind: RunKind, md: MarkdownState, ch: number, len: number, indent: number, s: GuardSettings): Decision {
  const fenceOpener = s.fences && indent >= 0 && indent <= 3 && len >= 3
  switch (kind) {
    case 'prose':
    case 'capture': {
      if (fenceOpener) return { target: modes.fenceInfo, md: openFence(ch, len) }
      if (ch === codes.graveAccent && s.codeSpans) return { target: modes.span, md: withLevels(freshMarkdown(), [len], 0) }
      return kind === 'capture' ? { target: modes.prose, md: null } : stay
    }
    case 'span': {
      // a fence opener interrupts the paragraph: its pending backticks were literal (unless the opener is void)
      if (fenceOpener) return { target: modes.fenceInfo, md: openFence(ch, len, md.levels) }
      if (ch !== codes.graveAccent) return stay
      const k = md.levels.indexOf(len)
      if (k === 0) return { target: modes.prose, md: freshMarkdown() }
      if (k > 0) return { target: null, md: withLevels(md, md.levels.slice(0, k)) }
      return { target: null, md: withLevels(md, [...md.levels, len]) }
    }
    case 'spanHold': {
      // the paragraph ends with the held tag's levels unclosed: the tag is live
      if (fenceOpener) return { target: modes.halt, md: null }
      if (ch !== codes.graveAccent) return stay
      const k = md.levels.indexOf(len)
      if (k >= 0 && k < md.holdDepth) {
        // a level open at the tag closed: the tag sat inside a code span
        return k === 0
          ? { target: modes.prose, md: freshMarkdown() }
          : { target: modes.span, md: withLevels(md, md.levels.slice(0, k), 0) }
      }
      if (k >= 0) return { target: null, md: withLevels(md, md.levels.slice(0, k)) }
      return { target: null, md: withLevels(md, [...md.levels, len]) }
    }
    case 'fence': {
      if (ch === md.fenceCh && indent >= 0 && indent <= 3 && len >= md.fenceLen) return { target: modes.fenceClose, md: null }
      return stay
    }
    case 'fenceInfo': {
      if (md.fenceCh !== codes.graveAccent || ch !== codes.graveAccent) return stay
      // a backtick in a backtick fence's info string: the opener was an inline run after all
      if (!s.codeSpans) return { target: modes.prose, md: freshMarkdown() }
      const levels = inlineRun(inlineRun(md.levels, md.fenceLen), len)
      return levels.length === 0 ? { target: modes.prose, md: freshMarkdown() } : { target: modes.span, md: { levels, holdDepth: 0, fenceCh: 0, fenceLen: 0 } }
    }
  }
}

/** Which runs a mode reacts to, and the modes its run tokens can switch to. */
export function runKindOf(mode: ModeName): RunKind | null {
  switch (mode) {
    case modes.prose:
      return 'prose'
    case modes.span:
      return 'span'
    case modes.spanHold:
      return 'spanHold'
    case modes.fence:
      return 'fence'
    case modes.fenceInfo:
      return 'fenceInfo'
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

export function runTargets(kind: RunKind): Array<ModeName | null> {
  switch (kind) {
    case 'prose':
      return [null, modes.fenceInfo, modes.span]
    case 'capture':
      return [modes.prose, modes.fenceInfo, modes.span]
    case 'span':
      return [null, modes.fenceInfo, modes.prose]
    case 'spanHold':
      return [null, modes.halt, modes.prose, modes.span]
    case 'fence':
      return [null, modes.fenceClose]
    case 'fenceInfo':
      return [null, modes.prose, modes.span]
  }
}

/** A line feed in `mode`; `blank` says whether it ends a blank line. */
export function decideLineFeed(mode: ModeName, blank: boolean, md: MarkdownState): Decision {
  switch (mode) {
    case modes.span:
      return blank ? { target: modes.prose, md: freshMarkdown() } : stay
    case modes.spanHold:
      return blank ? { target: modes.halt, md: null } : stay
    case modes.fenceInfo:
      // the opener line ended without a backtick in its info string: a fence after all
      return { target: modes.fence, md: { levels: [], holdDepth: 0, fenceCh: md.fenceCh, fenceLen: md.fenceLen } }
    case modes.fenceClose:
      return { target: modes.prose, md: freshMarkdown() }
    default:
      return stay
  }
}

export function lineFeedTargets(mode: ModeName): Array<ModeName | null> {
  switch (mode) {
    case modes.span:
      return [null, modes.prose]
    case modes.spanHold:
      return [null, modes.halt]
    case modes.fenceInfo:
      return [modes.fence]
    case modes.fenceClose:
      return [modes.prose]
    default:
      return [null]
  }
}
