/**
 * The hostile fuzz (`hostile.ts`) on a bounded sample with a fixed seed:
 * documents of live blocks, examples in every kind of code and echoes of
 * quoted calls, in LF, CR, CRLF and mixed line endings. `npm run fuzz:hostile`
 * runs it on fresh seeds for as long as asked.
 */
import { describe, expect, it } from 'vitest'
import { hostileFuzz } from './hostile.js'

describe('hostile documents', () => {
  it('should support exactly the live calls, whatever the code, line endings, chunking, checkpoints and streamArguments', () => {
    const result = hostileFuzz({ cases: 150, seed: 20261203 })
    expect(result.report).toBeNull()
    expect(result.cases).toBe(150)
  })
})
