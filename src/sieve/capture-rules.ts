/**
 * Which tokens continue a capture in each capture mode. Anything else means
 * the capture was not a block after all: it is released as text and the token
 * is taken as it would be in prose (its push mode already says so).
 */
import type { CategoryName } from '../lexer/kinds.js'
import { modes, type ModeName } from '../lexer/modes.js'

const tag: ReadonlySet<CategoryName> = new Set(['Ws', 'Attr', 'AttrName', 'Eq', 'QuoteOpen', 'TagEnd'])
const attr: ReadonlySet<CategoryName> = new Set(['AttrText', 'QuoteClose'])
const comment: ReadonlySet<CategoryName> = new Set(['CommentText', 'CommentClose'])

const rules: Partial<Record<ModeName, ReadonlySet<CategoryName>>> = {
  [modes.tagWrapper]: tag,
  [modes.tagInvoke]: tag,
  [modes.tagParameter]: tag,
  [modes.attrDqWrapper]: attr,
  [modes.attrSqWrapper]: attr,
  [modes.attrDqInvoke]: attr,
  [modes.attrSqInvoke]: attr,
  [modes.attrDqParameter]: attr,
  [modes.attrSqParameter]: attr,
  [modes.wrapperBody]: new Set(['Ws', 'CommentOpen', 'InvokeOpen', 'WrapperClose']),
  [modes.invokeBody]: new Set(['Ws', 'CommentOpen', 'ParamOpen', 'InvokeClose', 'JsonOpen']),
  [modes.jsonBody]: new Set(['JsonText', 'InvokeClose']),
  [modes.value]: new Set(['ValueText', 'CDataOpen', 'CommentOpen', 'ParamClose']),
  [modes.rawValue]: new Set(['ValueText', 'ParamClose']),
  [modes.cdata]: new Set(['CDataText', 'CDataClose']),
  [modes.commentWrapper]: comment,
  [modes.commentInvoke]: comment,
  [modes.commentValue]: comment,
}

/**
 * {@link rules}, asked per token of a capture, mostly several times in one
 * mode: each reader keeps the last mode's set, one keyed lookup per mode
 * change (a lookup per token showed in profiles). The memo is of a fixed
 * table, so no answer depends on who asked before.
 */
export class CaptureRules {
  private mode: ModeName | null = null
  private rule: ReadonlySet<CategoryName> | undefined = undefined

  /** Whether a token of `category` continues a capture in `mode`. */
  continues(mode: ModeName, category: CategoryName): boolean {
    if (mode !== this.mode) {
      this.mode = mode
      this.rule = rules[mode]
    }
    return this.rule?.has(category) ?? false
  }
}
