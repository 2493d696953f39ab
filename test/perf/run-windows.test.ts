/**
 * White-box: a lexer run over a large push (`src/sieve/lexer-runs.ts`)
 * cuts it into windows, and each window starts from a text the run hands
 * the driver (`enterRun`): the window and what follows it. Summed over a
 * run, those texts stay within a few times the input, however often a
 * token sends the run back. Counted, never timed: a run that joined the
 * held tail to all that followed at each window's end copied (and cut
 * again) the rest of the push every few characters when the windows stayed
 * small, as a restart every few characters keeps them (a Mistral
 * `[TOOL_CALLS]` mentioned again and again in one push), quadratic.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Driver } from '../../src/sieve/driver.js'
import type { Restart } from '../../src/sieve/state.js'
import { fixedChunks } from '../../bench/chunks.js'
import { READS_ANY_PUSH, lexedBound, run } from './measure.js'

/**
 * Texts a run's windows started from, summed, per input character: a linear
 * run measures under 7 on the inputs below; the run that joined the held
 * tail to the rest of the push measured 165 at 64 KiB, growing with it.
 */
const WINDOW_TEXTS = 12

afterEach(() => {
  vi.restoreAllMocks()
})

/** `input` streamed in `chunks` through a Mistral sieve: every character out once, no call; the texts the windows started from per input character, the characters lexed and their bound (`measure.ts`). */
function measure(input: string, chunks: string[]): { windowTexts: number; lexed: number; lexedBound: number } {
  let windowTexts = 0
  const enterRun = Driver.prototype.enterRun
  const spy = vi.spyOn(Driver.prototype, 'enterRun').mockImplementation(function (this: Driver, r: Restart) {
    windowTexts += r.text.length
    enterRun.call(this, r)
  })
  const r = run(chunks, { dialect: 'mistral' })
  spy.mockRestore()
  expect(r.out, 'every character leaves once').toBe(input.length)
  expect(r.calls).toBe(0)
  return { windowTexts: windowTexts / input.length, lexed: r.stats.charsLexed, lexedBound: lexedBound(input, r, READS_ANY_PUSH) }
}

describe('lexer runs over a large push (counts, not times)', () => {
  it.each([
    ['an opener mentioned again and again', '[TOOL_CALLS]'],
    ['an opener mentioned in prose again and again', 'see [TOOL_CALLS] and '],
  ])('should support %s in one push with windows started from a few times the input', (_, unit) => {
    const input = unit.repeat(Math.ceil(64 * 1024 / unit.length))
    for (const [name, chunks] of [['whole', [input]], ['16 KiB chunks', fixedChunks(input, 16 * 1024)], ['4096 units', fixedChunks(input, 4096)]] as const) {
      const m = measure(input, [...chunks])
      expect(m.windowTexts, `${name}: texts the windows started from, per input character`).toBeLessThanOrEqual(WINDOW_TEXTS)
      expect(m.lexed, `${name}: characters lexed ≤ ${READS_ANY_PUSH} × length + re-read tails`).toBeLessThanOrEqual(m.lexedBound)
    }
  })
})
