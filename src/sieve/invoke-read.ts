/**
 * One invoke of a capture read on its own as the block's calls are read
 * (the block grammar, then the decoder): `streamArguments` reads each
 * invoke's tag, each plain parameter and each closed invoke so, with empty
 * closers after the tokens so that the grammar takes them as a block.
 */
import type { IToken } from 'chevrotain'
import type { CompiledLexer } from '../lexer/lexer.js'
import { parseBlock, type ParsedInvoke } from '../parser/block-parser.js'
import { stringFlagOf, type Attributes } from '../parser/tag-attributes.js'
import { decodeInvoke, type DecodedInvoke, type ValueOptions } from '../values/decode.js'
import type { Node } from '../values/node.js'

/** Whether a parameter's tag marks its value as the exact text between the tags (`string="true"`). */
export function exact(attrs: Attributes, stringAttr: string): boolean {
  return stringFlagOf(attrs, stringAttr) === 'true'
}

/** An invoke read so far, and its one parameter (null unless it has exactly one). */
export interface InvokeRead {
  invoke: ParsedInvoke
  decoded: DecodedInvoke
  param(stringAttr: string): { key: string; node: Node; exact: boolean } | null
}

/**
 * The invoke in `tokens` (from its opener; a copy this read may extend)
 * with `closers` after it, read as the block's calls are; null when it is
 * not one invoke.
 */
export function readInvoke(lexer: CompiledLexer, values: ValueOptions, tokens: IToken[], closers: readonly IToken[]): InvokeRead | null {
  // a copy of the capture's tokens made for this read: the closers go on its end, not into a second copy
  for (const c of closers) tokens.push(c)
  const parsed = parseBlock(lexer, tokens)
  if (parsed === null || parsed.invokes.length !== 1) return null
  const inv = parsed.invokes[0]!
  const decoded = decodeInvoke(inv, values)
  return {
    invoke: inv,
    decoded,
    param: (stringAttr) => {
      if (!decoded.ok || decoded.params === null || decoded.params.length !== 1 || inv.params.length !== 1) return null
      const [key, node] = decoded.params[0]!
      return { key, node, exact: exact(inv.params[0]!.attrs, stringAttr) }
    },
  }
}
