/**
 * The fast path (DESIGN: "Fast path"): a chunk with no character that can
 * start a construct in the current mode goes straight out as text, and the
 * lexer's per-call overhead is paid only where something could happen.
 */
import { codes } from '../lexer/codes.js'
import { lineStates, type LineState } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import { modes, type ModeName } from '../lexer/modes.js'

function charClass(cs: number[]): RegExp {
  return new RegExp('[' + cs.map((c) => '\\u' + c.toString(16).padStart(4, '0')).join('') + ']')
}

/** Per mode, a pattern for the characters that may start something there; modes without one always lex. */
export function fastPathPattern(lexer: CompiledLexer): Partial<Record<ModeName, RegExp>> {
  const md = [codes.graveAccent, codes.tilde]
  return {
    [modes.prose]: charClass([...lexer.tagStartChars, ...md]),
    [modes.span]: charClass([...lexer.tagStartChars, ...md, codes.lineFeed]),
    [modes.fence]: charClass([...md, codes.lineFeed]),
    [modes.fenceInfo]: charClass([codes.lineFeed]),
  }
}

/**
 * Line-start spaces at the end of a chunk may be the indent of a fence in the
 * next one ("\n  " + "```"), so the lexer holds them: no fast path then.
 */
export function endsInLineStartSpaces(chunk: string, lineState: LineState): boolean {
  let i = chunk.length
  while (i > 0 && chunk.charCodeAt(i - 1) === codes.space) i--
  const n = chunk.length - i
  if (n === 0 || n > 3) return false
  return i === 0 ? lineState === lineStates.start : chunk.charCodeAt(i - 1) === codes.lineFeed
}
