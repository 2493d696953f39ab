/**
 * Which tokens continue a capture in each capture mode. Anything else means
 * the capture was not a block after all: it is released as text and the token
 * is taken as it would be in prose (its push mode already says so).
 */
import type { CategoryName } from '../lexer/kinds.js'
import type { ModeName } from '../lexer/modes.js'
import { continuing } from '../lexer/structure.js'

/**
 * The structure table's `continuing` sets (`lexer/structure.ts`), asked per token of a capture, mostly several times in one
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
      this.rule = continuing.get(mode)
    }
    return this.rule?.has(category) ?? false
  }
}
