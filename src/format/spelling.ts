/**
 * How `formatToolCalls` writes tags: a frame of the grammar turned into
 * literal strings. The default grammar's frames have preferred renderings
 * (DeepSeek's own `<｜DSML｜…>`, not the shortest string the frame allows);
 * any other frame is rendered from its first alternatives. Either way the
 * result is checked against the frame, so what is written is what the sieve
 * reads.
 */
import { ToolsieveError } from '../errors.js'
import type { Frame, FrameSequence, Grammar, Role } from '../grammar/types.js'
import type { TagSpelling } from '../types.js'

const preferred: Record<string, TagSpelling> = {
  dsml: { open: '<｜DSML｜', close: '</｜DSML｜', end: '>' },
  fullwidth: { open: '＜ＤＳＭＬ＜', close: '＜／ＤＳＭＬ＜／', end: '＞' },
  xml: { open: '<', close: '</', end: '>' },
}

/** Does `seq` spell `text` exactly, with `local` in its name slot? Parts are few and bounded, so backtracking is cheap. */
function spells(seq: FrameSequence, text: string, local: string, fold: boolean): boolean {
  const t = fold ? text.toLowerCase() : text
  const eq = (at: number, s: string) => t.startsWith(fold ? s.toLowerCase() : s, at)
  const go = (part: number, at: number): boolean => {
    const p = seq[part]
    if (p === undefined) return at === t.length
    if ('name' in p) return eq(at, local) && go(part + 1, at + local.length)
    const min = p.min ?? 1
    const max = p.max ?? min
    const reps = (n: number, pos: number): boolean => {
      if (n >= min && go(part + 1, pos)) return true
      return n < max && p.lit.some((l) => l.length > 0 && eq(pos, l) && reps(n + 1, pos + l.length))
    }
    return reps(0, at)
  }
  return go(0, 0)
}

const wordEnd = /[\p{L}\p{N}_]$/u

/** The first alternatives, fewest repetitions; a separator is kept where the name would otherwise run into a word. */
function derive(seq: FrameSequence): string {
  const out = seq.map((p) => ('name' in p ? '' : (p.lit[0] ?? '').repeat(p.min ?? 1)))
  const slot = seq.findIndex((p) => 'name' in p)
  const before = out.slice(0, slot === -1 ? out.length : slot).join('')
  if (slot > 0 && wordEnd.test(before)) {
    for (let i = slot - 1; i >= 0; i--) {
      const p = seq[i]!
      if ('name' in p || (p.min ?? 1) > 0 || (p.max ?? 1) < 1 || (p.lit[0] ?? ' ').trim() === '') continue
      out[i] = p.lit[0]!
      break
    }
  }
  return out.join('')
}

/** The tag strings for `frame`, checked against it. */
function frameSpelling(grammar: Grammar, frame: Frame): TagSpelling {
  const fold = grammar.caseInsensitive !== false
  const local = 'x'
  const fits = (sp: TagSpelling) =>
    frame.open.some((q) => spells(q, sp.open + local, local, fold)) &&
    frame.close.some((q) => spells(q, sp.close + local, local, fold)) &&
    frame.end.some((q) => spells(q, sp.end, local, fold))
  const pref = preferred[frame.name]
  if (pref !== undefined && fits(pref)) return pref
  const derived = { open: derive(frame.open[0] ?? []), close: derive(frame.close[0] ?? []), end: derive(frame.end[0] ?? []) }
  if (fits(derived)) return derived
  throw new ToolsieveError('invalid-option', `cannot derive a spelling from frame "${frame.name}"; pass spelling as { open, close, end }`, 'spelling')
}

export interface Resolved {
  spelling: TagSpelling
  /** The frame written, when a frame was chosen: role names limited to other frames are not used. */
  frame: string | null
}

/** The spelling `formatToolCalls` writes: a named frame, explicit strings, or the default (`dsml` when the grammar has it). */
export function resolveSpelling(grammar: Grammar, spelling: string | TagSpelling | undefined): Resolved {
  if (spelling !== undefined && typeof spelling !== 'string') return { spelling, frame: null }
  const name = spelling ?? (grammar.frames.some((f) => f.name === 'dsml') ? 'dsml' : grammar.frames[0]?.name)
  const frame = grammar.frames.find((f) => f.name === name)
  if (frame === undefined) throw new ToolsieveError('invalid-option', `the grammar has no frame named "${String(name)}"`, 'spelling')
  return { spelling: frameSpelling(grammar, frame), frame: frame.name }
}

/** The first local name of `role` usable in `frame`. */
export function localName(grammar: Grammar, role: Role, frame: string | null): string {
  for (const n of grammar.roles[role]) {
    if (typeof n === 'string') return n
    if (frame === null || n.frames === undefined || n.frames.includes(frame)) return n.name
  }
  throw new ToolsieveError('invalid-option', `the grammar has no ${role} name for frame "${String(frame)}"`, 'grammar')
}

/** Characters that can start a tag in any frame: JSON written as a value escapes them. */
export function tagStartChars(grammar: Grammar): Set<string> {
  const chars = new Set<string>()
  for (const f of grammar.frames) {
    for (const seq of [...f.open, ...f.close]) {
      // an optional first part lets the next one start the tag too
      for (const p of seq) {
        if ('name' in p) break
        for (const l of p.lit) if (l.length > 0) chars.add(l[0]!)
        if ((p.min ?? 1) > 0) break
      }
    }
  }
  return chars
}
