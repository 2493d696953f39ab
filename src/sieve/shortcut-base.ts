/**
 * What every shortcut shares (docs/DESIGN.md, "Fast path"): the
 * driver whose state they read, the current mode's shortcut table and tail
 * matcher (looked up once per mode change), and what a chunk's reading
 * found for `chunk` to hold or carry. `shortcuts.ts` builds on it.
 */
import type { RunCarry } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { ModeName } from '../lexer/modes.js'
import { blankAnswer, type Answer } from './answer.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import { shortcutTables, type ModeShortcut, type ShortcutTables } from './shortcut-tables.js'
import type { DriverOptions, DriverState } from './state.js'

/**
 * What the shortcuts read of the driver: its state, never written here
 * (the driver applies their answers), and where the pending tail stands.
 */
export interface ShortcutHost {
  readonly s: Readonly<DriverState>
  readonly lexer: CompiledLexer
  readonly opts: DriverOptions
  readonly guard: GuardSettings
  /** Where `pending` stands in the delimiters it may become (see `lexer/tail.ts`); null: the lexer decides. */
  readonly tail: TailState | null
}

export abstract class ShortcutBase {
  protected readonly fast: Partial<Record<ModeName, ModeShortcut>>
  /** The mode the lookups below were made for: the mode mostly stays from one chunk to the next, and a keyed lookup per chunk showed in profiles. */
  private laneMode: ModeName | null = null
  private laneFp: ModeShortcut | undefined = undefined
  private laneMatcher: TailMatcher | undefined = undefined
  protected readonly tables: ShortcutTables
  /** The answer every reading fills and returns: the driver applies it before it asks again. */
  protected readonly a: Answer = blankAnswer()

  constructor(protected readonly d: ShortcutHost) {
    this.tables = shortcutTables(d.lexer)
    this.fast = this.tables.modes
  }

  /** The current mode's fast path. */
  protected fastPath(): ModeShortcut | undefined {
    if (this.d.s.mode !== this.laneMode) this.switchTo(this.d.s.mode)
    return this.laneFp
  }

  /** The current mode's tail matcher. */
  protected matcher(): TailMatcher | undefined {
    if (this.d.s.mode !== this.laneMode) this.switchTo(this.d.s.mode)
    return this.laneMatcher
  }

  private switchTo(mode: ModeName): void {
    this.laneMode = mode
    this.laneFp = this.fast[mode]
    this.laneMatcher = this.d.lexer.tails.get(mode)
  }

  /** The state of the tail `plainUpTo` found at the chunk's end, for `chunk` to hold. */
  protected heldTail: TailState | null = null
  /** The run `fenceRuns` found cut by the chunk end at a line start, for `chunk` to carry. */
  protected heldCarry: RunCarry | null = null

  /** How `chunk` (nothing pending) reads without the lexer when nothing in it can matter in the current mode; null: the lexer. */
  abstract chunk(chunk: string): Answer | null
}
