/**
 * A JSONL or SSE line too long to read (past V8's longest string, 2^29 - 24
 * units, a line would end the run with `Invalid string length`) is reported
 * and skipped, and the turns after it are read. The bound is the input
 * reader's; here a small one stands in for V8's, on the same code path.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSource } from '../../src/cli/source.js'
import { readInput, type Turn, type Unreadable } from '../../src/cli/turns.js'
import { tempDir } from './run.js'

async function turnsOf(text: string, maxLine: number): Promise<(Turn | Unreadable)[]> {
  const file = join(tempDir(), 'input')
  writeFileSync(file, text)
  const input = await readInput(openSource('bench', file), { maxLine })
  const out: (Turn | Unreadable)[] = []
  for await (const turn of input.turns()) out.push(turn)
  return out
}

describe('toolsieve parse and bench: lines past the bound', () => {
  it('should not support a JSONL line past the bound: reported as too long, skipped, the next turns read', async () => {
    const long = JSON.stringify({ text: 'x'.repeat(300) })
    const turns = await turnsOf(`{"text":"one"}\n${long}\n{"text":"three"}\n`, 200)
    expect(turns).toEqual([
      { kind: 'turn', index: 0, where: expect.stringMatching(/:1$/), pieces: ['one'] },
      { kind: 'unreadable', where: expect.stringMatching(/:2$/), message: `too long (${long.length} characters, over the 200 a line may hold)` },
      { kind: 'turn', index: 1, where: expect.stringMatching(/:3$/), pieces: ['three'] },
    ])
  })

  it('should not support an SSE line past the bound: reported, the stream read on', async () => {
    const chunk = (content: string): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`
    const turns = await turnsOf(chunk('a') + chunk('y'.repeat(300)) + chunk('b') + 'data: [DONE]\n', 200)
    expect(turns).toEqual([
      { kind: 'unreadable', where: expect.stringMatching(/:3$/), message: expect.stringMatching(/^too long \(\d+ characters, over the 200 a line may hold\)$/) },
      { kind: 'turn', index: 0, where: expect.stringMatching(/:1$/), pieces: ['a', 'b'] },
    ])
  })
})
