/**
 * Checkpoints taken where a chunk's end left something undecided that now
 * lives in the state: a backtick run held in an open HTML tag (`candidate`)
 * and a tag's deferred attribute text (`deferred`). Resumed through JSON,
 * they give the events of never stopping.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'

/** Events of `chunks` in one sieve, and with a checkpoint through JSON after chunk `at`. */
function stopped(chunks: readonly string[], at: number, options: SieveOptions = {}, resumeOptions: SieveOptions = options): { straight: SieveEvent[]; resumed: SieveEvent[] } {
  const ids = () => { let n = 0; return () => `call_${n++}` }
  const one = createSieve({ ...options, generateId: ids() })
  const straight = [...chunks.flatMap((c) => one.push(c)), ...one.end()]
  const first = createSieve({ ...options, generateId: ids() })
  const before = chunks.slice(0, at + 1).flatMap((c) => first.push(c))
  const next = createSieve({ ...resumeOptions, generateId: ids(), resume: JSON.parse(JSON.stringify(first.checkpoint())) })
  const resumed = [...before, ...chunks.slice(at + 1).flatMap((c) => next.push(c)), ...next.end()]
  return { straight, resumed }
}

describe('checkpoints at a chunk edge', () => {
  it('should support a backtick run held in an HTML tag inside inline <code> (levels a run could close include the code level)', () => {
    const chunks = ['Use <code>x <a title="``', '">y</a></code> then\n\n<tool_calls><invoke name="a"></invoke></tool_calls>']
    const { straight, resumed } = stopped(chunks, 0)
    expect(resumed).toEqual(straight)
  })

  it('should support deferred attribute text', () => {
    const block = '<tool_calls><invoke name="read_file"><parameter name="path" string="true">a.ts</parameter></invoke></tool_calls>'
    const at = block.indexOf('string=')
    const chunks = ['Go.\n', block.slice(0, at - 3), block.slice(at - 3, at + 2), block.slice(at + 2, at + 8), block.slice(at + 8)]
    for (let k = 0; k < chunks.length - 1; k++) {
      const { straight, resumed } = stopped(chunks, k)
      expect(resumed, `after chunk ${k}`).toEqual(straight)
    }
  })

  it('should support streamed arguments streaming as they come after a resume inside a value', () => {
    const block = '<tool_calls><invoke name="w"><parameter name="text">hello world, a long value</parameter></invoke></tool_calls>'
    const at = block.indexOf('hello')
    const chunks = [block.slice(0, at - 2), block.slice(at - 2, at + 3), ' wor', 'ld, a long', ' value</parameter></invoke></tool_calls>']
    const { straight, resumed } = stopped(chunks, 1, { streamArguments: true })
    expect(resumed).toEqual(straight)
  })
})
