/**
 * Checkpoints taken where a chunk's end left something undecided that now
 * lives in the state: a backtick run held in an open HTML tag (`candidate`)
 * and a tag's deferred attribute text (`deferred`). Resumed through JSON
 * after any chunk, they give the very events of never stopping.
 */
import { describe, it } from 'vitest'
import { expectResumesAfterEveryChunk, expectStreamedResumesAnywhere } from '../helpers/resume.js'

describe('checkpoints at a chunk edge', () => {
  it('should support a backtick run held in an HTML tag inside inline <code> (levels a run could close include the code level)', () => {
    expectResumesAfterEveryChunk(['Use <code>x <a title="``', '">y</a></code> then\n\n<tool_calls><invoke name="a"></invoke></tool_calls>'], {})
  })

  it('should support deferred attribute text', () => {
    const block = '<tool_calls><invoke name="read_file"><parameter name="path" string="true">a.ts</parameter></invoke></tool_calls>'
    const at = block.indexOf('string=')
    expectResumesAfterEveryChunk(['Go.\n', block.slice(0, at - 3), block.slice(at - 3, at + 2), block.slice(at + 2, at + 8), block.slice(at + 8)], {})
  })

  it('should support streamed arguments streaming as they come after a resume inside a value', () => {
    const block = '<tool_calls><invoke name="w"><parameter name="text">hello world, a long value</parameter></invoke></tool_calls>'
    const at = block.indexOf('hello')
    expectStreamedResumesAnywhere([block.slice(0, at - 2), block.slice(at - 2, at + 3), ' wor', 'ld, a long', ' value</parameter></invoke></tool_calls>'], {})
  })
})
