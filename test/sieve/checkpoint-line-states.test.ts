/**
 * A checkpoint carries the line state wherever the text left it: right
 * after a CR (an LF next is the same line ending, a CR a blank line), and
 * on a line of dashes (a break or text as its end decides). Each resumes,
 * and the rest reads as it would have without the checkpoint.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/types.js'
import { live } from '../helpers/guard.js'

const callsOf = (events: SieveEvent[]) => events.flatMap((e) => (e.type === 'tool-call' ? [e.name] : []))

function throughCheckpoint(head: string, rest: string): SieveEvent[] {
  const first = createSieve()
  const out = first.push(head)
  const cp = JSON.parse(JSON.stringify(first.checkpoint()))
  const second = createSieve({ resume: cp })
  return [...out, ...second.push(rest), ...second.end()]
}

describe('checkpoints and line states', () => {
  it.each([
    ['right after a CR, the LF next (one line ending: no blank line)', 'Say `it\r', '\n' + live + '\nstill` here', []],
    ['right after a CR, a CR next (a blank line: the block is live)', 'Say `it\r', '\r' + live + '\rstill` here', ['a']],
    ['on a line of dashes (a thematic break: the block after it is live)', 'Say `it\n--', '-\n' + live + '\nstill` here', ['a']],
    ['on a line of dashes that is text', 'Say `it\n--', 'x\n' + live + '\nstill` here', []],
  ])('should support a checkpoint taken %s', (_label, head, rest, expected) => {
    const events = throughCheckpoint(head, rest)
    expect(events.some((e) => e.type === 'diagnostic')).toBe(false)
    expect(callsOf(events)).toEqual(expected)
    const whole = createSieve()
    expect(callsOf([...whole.push(head + rest), ...whole.end()])).toEqual(expected)
  })
})
