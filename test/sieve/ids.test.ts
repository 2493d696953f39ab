/**
 * Call ids: `call_` and 24 hex digits from the CSPRNG, drawn in batches;
 * ids across a batch boundary must be as good as any.
 */
import { describe, expect, it } from 'vitest'
import { randomCallId } from '../../src/sieve/ids.js'

describe('randomCallId', () => {
  it('should support 5,000 ids (several batches of random bytes), each well formed and none repeated', () => {
    const ids = Array.from({ length: 5000 }, () => randomCallId())
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(ids.length)
    // every hex digit turns up in every position: the digits come from the bytes, not from a fixed pattern
    for (let p = 5; p < 29; p++) expect(new Set(ids.map((id) => id[p])).size).toBe(16)
  })
})
