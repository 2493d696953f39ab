/**
 * A grammar given as a plain object (a config parsed per request, not made
 * by `validateGrammar`) reads like the grammar it equals, sieve after sieve.
 */
import { describe, expect, it } from 'vitest'
import { defaultGrammar } from '../../src/grammar/default.js'
import type { Grammar } from '../../src/grammar/types.js'
import { createSieve } from '../../src/index.js'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const block = [
  '<｜DSML｜tool_calls>',
  '<｜DSML｜invoke name="read">',
  '<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter><｜DSML｜parameter name="n" string="false">2</｜DSML｜parameter>',
  '</｜DSML｜invoke>',
  '</｜DSML｜tool_calls>',
].join('\n')

/** A plain object equal to the default grammar, as a config parsed per request is. */
const plain = (): Grammar => JSON.parse(JSON.stringify(defaultGrammar)) as Grammar

describe('a plain grammar object', () => {
  it.each([
    ['a block', `Reading it.\n${block}\nDone.`],
    ['a fenced example', `Like this:\n\`\`\`\n${block}\n\`\`\`\n`],
    ['an example in a code span', 'Write `<｜DSML｜tool_calls>` to call.'],
  ])('should support one equal to the default reading %s like the default, in any chunking', (_label, input) => {
    const expected = expectChunkInvariant(input)
    expect(expectChunkInvariant(input, { grammar: plain() })).toEqual(expected)
  })

  it('should support a new equal object for every sieve, each reading the call', () => {
    for (let i = 0; i < 20; i++) {
      const sieve = createSieve({ grammar: plain() })
      const events = [...sieve.push(block), ...sieve.end()]
      expect(calls(events)).toEqual([{ name: 'read', input: { path: 'a.ts', n: 2 } }])
    }
  })

  it('should support an object differing in a name reading by its own names only', () => {
    const g = plain()
    g.roles.invoke.push('call')
    const own = block.replaceAll('invoke', 'call')
    for (const grammar of [g, JSON.parse(JSON.stringify(g)) as Grammar]) {
      const sieve = createSieve({ grammar })
      expect(calls([...sieve.push(own), ...sieve.end()])).toEqual([{ name: 'read', input: { path: 'a.ts', n: 2 } }])
    }
    const sieve = createSieve({ grammar: plain() })
    const events = [...sieve.push(own), ...sieve.end()]
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(own)
  })
})
