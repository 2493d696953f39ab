/**
 * What every shortcut shares (docs/DESIGN.md, "Fast path"): the
 * driver it works for, the current mode's shortcut table and tail matcher
 * (looked up once per mode change), and what a chunk's reading leaves for
 * `chunk` to hold or carry. `shortcuts.ts` builds on it.
 */
import type { IToken } from 'chevrotain'
import type { RunCarry } from '../lexer/context.js'
import type { HeldCandidate } from '../lexer/line-cursor.js'
import type { CompiledLexer } from '../lexer/lexer.js'
import type { GuardSettings } from '../lexer/markdown.js'
import type { ModeName } from '../lexer/modes.js'
import type { TailMatcher, TailState } from '../lexer/tail.js'
import type { SieveStats } from '../types.js'
import type { Emitter } from './emitter.js'
import { shortcutTables, type ModeShortcut, type ShortcutTables } from './shortcut-tables.js'
import type { DriverOptions, DriverState } from './state.js'

/** What the fast lane needs from the driver. */
export interface ShortcutHost {
  readonly s: DriverState
  readonly out: Emitter
  readonly lexer: CompiledLexer
  readonly opts: DriverOptions
  readonly stats: SieveStats
  readonly guard: GuardSettings
  /** Lex the pending tail and `chunk` (the slow path). */
  lexChunk(chunk: string): true
  /** Handle a delimiter token found at the start of `text`, then the rest of `text`. */
  applyToken(tok: IToken, text: string): void
  /** `text` up to `end` goes out as text; the stream position and line state move past it. */
  passText(text: string, end: number): void
  /** Read the tag `text` starts with, in its common shape, without the lexer (`tag-reader.ts`); false: not read. */
  readTag(text: string): boolean
  /** Hold `text`, an opening tag pushing `tagMode` whose name ends at `nameEnd`, unlexed if the rest can wait (`deferral.ts`). */
  deferTag(tagMode: ModeName, text: string, nameEnd: number): boolean
}

export abstract class ShortcutBase {
  /** Where `pending` stands in the delimiters it may become (see `lexer/tail.ts`); null: the lexer decides. */
  tail: TailState | null = null
  /** `pending` is a backtick run held in an open HTML candidate: how far its look-ahead has read. */
  candidate: HeldCandidate | null = null
  protected readonly fast: Partial<Record<ModeName, ModeShortcut>>
  /** The mode the lookups below were made for: the mode mostly stays from one chunk to the next, and a keyed lookup per chunk showed in profiles. */
  private laneMode: ModeName | null = null
  private laneFp: ModeShortcut | undefined = undefined
  private laneMatcher: TailMatcher | undefined = undefined
  protected readonly tables: ShortcutTables

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

  /** `stats().maxHeldTail`: the longest undecided tail held outside a capture. */
  noteHeldTail(): void {
    const s = this.d.s
    if (s.capture === null && s.pending.length > this.d.stats.maxHeldTail) this.d.stats.maxHeldTail = s.pending.length
  }

  /** The state of the tail `plainUpTo` found at the chunk's end, for `chunk` to hold. */
  protected heldTail: TailState | null = null
  /** The run `fenceRuns` found cut by the chunk end at a line start, for `chunk` to carry. */
  protected heldCarry: RunCarry | null = null

  /** Takes `chunk` (nothing pending) without the lexer when nothing in it can matter in the current mode. */
  abstract chunk(chunk: string): boolean

  /** The rest a nested {@link rest} left for the outermost one to take. */
  private queued: string | null = null
  private resting = false

  /**
   * What follows `from` in a chunk, after a piece taken without the lexer: a
   * chunk of its own, by this lane or the lexer. Every caller returns right
   * after it, so a nested call only queues its rest and the outermost one
   * takes them in turn: a chunk of 4,000 fence lines is a loop, not 4,000
   * frames of recursion (the stack overflowed).
   */
  rest(chunk: string, from: number): true {
    if (from === chunk.length) return true
    const rest = from === 0 ? chunk : chunk.slice(from)
    if (this.resting) {
      this.queued = rest
      return true
    }
    this.resting = true
    try {
      let next: string | null = rest
      while (next !== null) {
        this.queued = null
        if (!this.chunk(next)) this.d.lexChunk(next)
        next = this.queued
      }
    } finally {
      this.resting = false
      this.queued = null
    }
    return true
  }
}
