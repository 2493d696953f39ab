/**
 * The checkpoint format: the driver state as plain JSON. Captured tokens are
 * saved as `[typeName, image]` so resuming never re-lexes a capture.
 */
import { midLine } from '../lexer/lines.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { ToolsieveError } from '../errors.js'
import type { SieveCheckpoint } from '../types.js'
import { flushRun, loadTokens, saveTokens, type DriverState } from './state.js'
import { checkStateShape } from './checkpoint-shape.js'
import { checkStateRules } from './checkpoint-rules.js'

export function saveState(s: DriverState): unknown {
  if (s.capture !== null) flushRun(s.capture)
  return {
    ...s,
    md: { ...s.md, levels: s.md.levels.slice() },
    carry: s.carry && { ...s.carry },
    capture: s.capture && { ...s.capture, tokens: saveTokens(s.capture.tokens), ...(s.capture.json === undefined ? {} : { json: { ...s.capture.json } }) },
    hold: s.hold && { ...s.hold, parts: [s.hold.parts.join('')] },
    skip: s.skip && { ...s.skip },
    deferred: s.deferred && { ...s.deferred },
    candidate: s.candidate && { ...s.candidate, run: s.candidate.run && { closes: [...s.candidate.run.closes], lineStart: s.candidate.run.lineStart } },
    paragraphEnd: s.paragraphEnd && { at: s.paragraphEnd.at, halts: s.paragraphEnd.halts },
    calls: s.calls && structuredClone(s.calls),
    ...(s.modelIds === undefined ? {} : { modelIds: s.modelIds.slice() }),
    // the reasoning's own driver (`reasoningCalls: 'call'`), saved the same way
    reasoning: { ...s.reasoning, inner: s.reasoning.inner == null ? null : saveState(s.reasoning.inner) },
  }
}

/** What a checkpoint must have been taken with to resume in this sieve. */
export interface ResumeContext {
  /** The grammar's fingerprint. */
  grammar: string
  /** The quoted calls' fingerprint (`QuotedCalls.fingerprint`), '' for none. */
  quoted: string
  lexer: CompiledLexer
  captureLimit: number
  streamArguments: boolean
  reasoningCalls: boolean
}

export function restoreState(cp: SieveCheckpoint, at: ResumeContext): DriverState {
  if (cp === null || typeof cp !== 'object' || Array.isArray(cp) || cp.version !== 1 || typeof cp.state !== 'object' || cp.state === null) {
    throw new ToolsieveError('invalid-checkpoint', 'not a toolsieve checkpoint (version 1)', 'resume')
  }
  if (cp.grammar !== at.grammar) {
    throw new ToolsieveError('invalid-checkpoint', 'the checkpoint was taken with a different grammar', 'resume.grammar')
  }
  const quoted = cp.quoted ?? ''
  if (quoted !== at.quoted) {
    // a block half-read under one set of quoted calls would be judged under another: refused, never guessed
    const what = quoted === '' ? 'without quoted calls, and is resumed with some' : at.quoted === '' ? 'with quoted calls, and is resumed without them' : 'with other quoted calls than it is resumed with'
    throw new ToolsieveError('invalid-checkpoint', `the checkpoint was taken ${what}: resume with the same \`quoted\` texts`, 'resume.quoted')
  }
  const state = restoreDriver(cp.state, at.lexer)
  checkOptions(state, at)
  checkStateRules(state, at)
  if (state.reasoning.inner != null) checkStateRules(state.reasoning.inner, at, 'reasoning.inner.')
  return state
}

/** Options the state depends on: a stream of calls needs `streamArguments`, a reasoning driver `reasoningCalls: 'call'`. */
function checkOptions(s: DriverState, at: ResumeContext): void {
  if (s.calls !== null && !at.streamArguments) throw new ToolsieveError('invalid-checkpoint', 'the checkpoint was taken with streamArguments: resume with it', 'resume.state.calls')
  if (s.reasoning.inner != null && s.reasoning.phase !== 'in') throw new ToolsieveError('invalid-checkpoint', "the checkpoint's reasoning.inner is set outside the reasoning", 'resume.state.reasoning.inner')
  if (s.reasoning.inner != null && !at.reasoningCalls) throw new ToolsieveError('invalid-checkpoint', "the checkpoint was taken with reasoningCalls: 'call': resume with it", 'resume.state.reasoning.inner')
}

/** A saved driver state, checked and with its tokens made again. */
function restoreDriver(state: unknown, lexer: CompiledLexer): DriverState {
  checkStateShape(state)
  const raw = structuredClone(state) as DriverState & { capture: null | (Omit<NonNullable<DriverState['capture']>, 'tokens'> & { tokens: Array<[string, string]> }) }
  try {
    // fields added after version 1 was first written: fence quote depth, the line state a capture began in, noHoldUntil
    const md = { ...raw.md, fenceDepth: raw.md.fenceDepth ?? 0, fenceIndent: raw.md.fenceIndent ?? 0 }
    const capture = raw.capture && {
      ...raw.capture,
      lineState: raw.capture.lineState ?? midLine,
      overflow: raw.capture.overflow ?? false,
      paramSeen: raw.capture.paramSeen ?? false,
      lastClose: raw.capture.lastClose ?? 0,
      frame: typeof raw.capture.frame === 'string' ? raw.capture.frame : '*',
      run: null,
      tokens: loadTokens(lexer, raw.capture.tokens),
    }
    return { ...raw, md, raw: raw.raw ?? null, skip: raw.skip == null ? null : { ...raw.skip, frame: typeof raw.skip.frame === 'string' ? raw.skip.frame : '*' }, reasoning: raw.reasoning == null ? { phase: 'done', held: '', pos: raw.pos } : { ...raw.reasoning, inner: raw.reasoning.inner == null ? null : restoreDriver(raw.reasoning.inner, lexer) }, paragraphEnd: raw.paragraphEnd ?? null, noHoldUntil: typeof raw.noHoldUntil === 'number' ? raw.noHoldUntil : -1, calls: raw.calls ?? null, deferred: raw.deferred ?? null, candidate: raw.candidate ?? null, capture }
  } catch (e) {
    throw new ToolsieveError('invalid-checkpoint', `the checkpoint does not fit this grammar: ${(e as Error).message}`, 'resume.state')
  }
}
