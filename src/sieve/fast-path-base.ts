/**
 * What every fast-path reader shares (docs/DESIGN.md, "The sieve's shape"): the
 * driver whose state they read, the current mode's fast-path table and tail
 * matcher (looked up once per mode change), and what a chunk's reading
 * found for `chunk` to hold or carry. `fast-path.ts` builds on it.
 */
import type { RunCarry } from '../lexer/context.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { ModeName } from '../lexer/modes.js'
import { blankAnswer, type Answer } from './answer.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import { fastPathTables, type ModeFastPath, type FastPathTables } from './fast-path-tables.js'
import type { DriverOptions, DriverState } from './state.js'

/**
 * What the fast path read of the driver: its state, never written here
 * (the driver applies their answers), and where the pending tail stands.
 */
export interface FastPathHost {
  readonly s: Readonly<DriverState>
  readonly lexer: CompiledLexer
  readonly opts: DriverOptions
  readonly guard: GuardSettings
  /** Where `pending` stands in the delimiters it may become (see `lexer/tail.ts`); null: the lexer decides. */
  readonly tail: TailState | null
}

export abstract class FastPathBase {
  protected readonly fast: Partial<Record<ModeName, ModeFastPath>>
  /** The mode the lookups below were made for: the mode mostly stays from one chunk to the next, and a keyed lookup per chunk showed in profiles. */
  private laneMode: ModeName | null = null
  private laneFp: ModeFastPath | undefined = undefined
  private laneMatcher: TailMatcher | undefined = undefined
  protected readonly tables: FastPathTables
  /** The answer every reading fills and returns: the driver applies it before it asks again. */
  protected readonly a: Answer = blankAnswer()

  constructor(protected readonly d: FastPathHost) {
    this.tables = fastPathTables(d.lexer)
    this.fast = this.tables.modes
  }

  /** The current mode's fast path. */
  protected fastPath(): ModeFastPath | undefined {
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
