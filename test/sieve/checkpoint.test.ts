/**
 * `checkpoint()` is plain JSON; `createSieve({ ...options, resume })` continues
 * exactly where the sieve left off: stopping after any chunk, serialising the
 * checkpoint and resuming gives the events of an uninterrupted run.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar, extendGrammar } from '../../src/index.js'
import type { SieveCheckpoint, SieveEvent, SieveOptions } from '../../src/types.js'
import { normalise, prng, randomSplit, runSieve, seedOf, type Out } from '../helpers/chunking.js'
import { DRIFT, SPELLINGS, block, readFile } from '../helpers/blocks.js'
import { throughJson } from '../helpers/checkpoint.js'
import { expectResumesAnywhere } from '../helpers/resume.js'

const live = '<tool_calls><invoke name="a"><parameter name="path">src/a.ts</parameter></invoke></tool_calls>'

const CASES: [string, string, SieveOptions?][] = [
  ['a DSML block between text', 'Hello, reading it.\n' + readFile('src/a.ts', SPELLINGS[0]!) + '\nbye'],
  ['several invokes in fullwidth', '好的：' + block(SPELLINGS[2]!, [{ name: 'a', params: { path: 'x' } }, { name: 'b' }])],
  ['a fence holding an example, then a block', 'Example:\n```xml\n' + readFile() + '\n```\n' + live],
  ['a code-span decision pending across chunks', 'Use ` then ' + live + '\n\nok ` and `x`'],
  ['CDATA with closers inside', '<tool_calls><invoke name="w"><parameter name="c"><![CDATA[</parameter></tool_calls>]]></parameter></invoke></tool_calls>!'],
  ['a malformed block then a valid one', '<tool_calls><invoke></invoke></tool_calls> then ' + live],
  ['an unterminated block', 'x ' + '<｜DSML｜tool_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="p">v'],
  ['the missing-wrapper repair', 'ok <invoke name="a"></invoke>\n</tool_calls> done'],
  ['a mention then a block', 'Use <tool_calls> like this: ' + live],
  ['a trailing bar without >', block(DRIFT[DRIFT.length - 1]!, [{ name: 'a', params: { path: 'p' } }]) + '| tail'],
  ['a capture over the limit', '<tool_calls><invoke name="a"><parameter name="c">' + 'x'.repeat(90) + '</parameter></invoke></tool_calls>', { captureLimit: 64 }],
  ['held blocks sending the sieve back twice from one paragraph end', 'x ` ' + live + ' y `` ' + live + '\n```` ' + live + ' ```\n\nok'],
  ['a block quoted in a value, skipped to the broken block\'s closer', '<|DSML|tool_calls><|DSML|invoke name="a"><|DSML|parameter name="p">x </tool_calls> y</|DSML|parameter></|DSML|invoke><|DSML|invoke name="b"></|DSML|invoke></|DSML|tool_calls> then ' + live],
  ['a raw string value and reasoning', '<think>hmm ```</think>' + '<｜DSML｜tool_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="p" string="true">a</parameter><</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'],
  ['astral characters and CRLF', '😀 line\r\n```\r\n<tool_calls>\r\n```\r\n' + live + ' 😀'],
]

/** The `code` of what `fn` throws (undefined when it does not throw). */
function thrownCode(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return (error as { code?: unknown }).code
  }
  return undefined
}

/** Pushes `chunks[0..stop)`, checkpoints through JSON, resumes in a new sieve for the rest. */
function resumedRun(chunks: string[], stop: number, opts: SieveOptions = {}): Out[] {
  const first = createSieve(opts)
  const events: SieveEvent[] = []
  for (const chunk of chunks.slice(0, stop)) events.push(...first.push(chunk))
  const second = createSieve({ ...opts, resume: throughJson(first) })
  for (const chunk of chunks.slice(stop)) events.push(...second.push(chunk))
  events.push(...second.end())
  return normalise(events)
}

describe('checkpoint and resume', () => {
  describe.each(CASES)('%s', (_label, input, opts = {}) => {
    const reference = (): Out[] => runSieve(input, [input], opts)

    it('should support a checkpoint at every split point', () => {
      expectResumesAnywhere(input, opts)
    })

    it('should support stopping after any chunk of random splits and resuming', () => {
      const expected = reference()
      const random = prng(seedOf(input))
      for (let run = 0; run < 3; run++) {
        const chunks = randomSplit(input, random)
        for (let stop = 0; stop <= chunks.length; stop++) {
          expect(resumedRun(chunks, stop, opts), `run ${run}, stopped after ${stop}`).toEqual(expected)
        }
      }
    })

    it('should support a relay: a new sieve resumed from the previous checkpoint for every chunk', () => {
      const events: SieveEvent[] = []
      let checkpoint: SieveCheckpoint | undefined
      for (let i = 0; i < input.length; i++) {
        const sieve = createSieve(checkpoint ? { ...opts, resume: checkpoint } : opts)
        events.push(...sieve.push(input.charAt(i)))
        checkpoint = throughJson(sieve)
      }
      events.push(...createSieve({ ...opts, resume: checkpoint }).end())
      expect(normalise(events)).toEqual(reference())
    })

    it('should not support a checkpoint disturbing the sieve it was taken from', () => {
      const sieve = createSieve(opts)
      const events: SieveEvent[] = []
      for (const chunk of randomSplit(input, prng(7))) {
        events.push(...sieve.push(chunk))
        sieve.checkpoint()
      }
      events.push(...sieve.end())
      expect(normalise(events)).toEqual(reference())
    })
  })

  it('should not support resuming a checkpoint of another grammar', () => {
    const sieve = createSieve()
    sieve.push('Hello <tool_')
    const checkpoint = throughJson(sieve)
    const other = extendGrammar(defaultGrammar, { wrapper: ['my_calls'] })
    expect(thrownCode(() => createSieve({ grammar: other, resume: checkpoint }))).toBe('invalid-checkpoint')
  })

  it('should not support resuming a malformed checkpoint', () => {
    const bogus = [
      { version: 1, grammar: 'not-a-fingerprint', state: {} },
      { version: 2, grammar: createSieve().checkpoint().grammar, state: {} },
      { version: 1, grammar: createSieve().checkpoint().grammar, state: 'nope' },
    ]
    for (const resume of bogus) {
      expect(thrownCode(() => createSieve({ resume: resume as unknown as SieveCheckpoint }))).toBe('invalid-checkpoint')
    }
  })

  it('should support spans continuing across a resume (offsets into the whole stream)', () => {
    const input = 'abc ' + live
    const events = resumedRun([input.slice(0, 2), input.slice(2)], 1)
    const call = events.find((e) => e.type === 'tool-call')
    expect(call?.type === 'tool-call' && call.span).toEqual({ start: 4, end: input.length })
  })
})

describe('checkpoint validation', () => {
  const taken = (): SieveCheckpoint => {
    const sieve = createSieve()
    sieve.push('x <tool_calls><invoke name="a"><parameter name="p">v')
    return throughJson(sieve)
  }
  /** The error `createSieve` throws for a checkpoint whose state is changed by `edit`. */
  function refused(edit: (state: Record<string, unknown>) => void): { code: unknown; field: unknown } {
    const cp = taken()
    edit(cp.state as Record<string, unknown>)
    try {
      createSieve({ resume: cp })
    } catch (error) {
      return { code: (error as { code?: unknown }).code, field: (error as { field?: unknown }).field }
    }
    return { code: undefined, field: undefined }
  }

  it.each([
    ['an unknown mode', (s: Record<string, unknown>) => { s.mode = 'bogus' }, 'resume.state.mode'],
    ['a position that is not a number', (s: Record<string, unknown>) => { s.pos = 'abc' }, 'resume.state.pos'],
    ['no capture field', (s: Record<string, unknown>) => { delete s.capture }, 'resume.state.capture'],
    ['a capture whose tokens are not pairs', (s: Record<string, unknown>) => { (s.capture as Record<string, unknown>).tokens = [['x']] }, 'resume.state.capture.tokens'],
    ['Markdown levels that are not numbers', (s: Record<string, unknown>) => { (s.md as Record<string, unknown>).levels = ['1'] }, 'resume.state.md.levels'],
    ['a pending tail that is not text', (s: Record<string, unknown>) => { s.pending = 5 }, 'resume.state.pending'],
  ])('should not support a checkpoint with %s (invalid-checkpoint naming the field)', (_label, edit, field) => {
    expect(refused(edit)).toEqual({ code: 'invalid-checkpoint', field })
  })

  it('should not support a capture token of a type the grammar does not have', () => {
    expect(refused((s) => { ((s.capture as Record<string, unknown>).tokens as unknown[][])[0]![0] = 'nope' }).code).toBe('invalid-checkpoint')
  })

  it('should support a valid checkpoint round trip after validation', () => {
    const sieve = createSieve({ resume: taken() })
    expect(sieve.push('</parameter></invoke></tool_calls>').filter((e) => e.type === 'tool-call')).toHaveLength(1)
  })
})

describe('checkpoints from before skips knew their family', () => {
  it('should support resuming a skip without a family (every family counts, as it did)', () => {
    const first = createSieve()
    first.push('<tool_calls><invoke name="a"><parameter name="x">see </invoke>')
    const cp = throughJson(first)
    const state = cp.state as { skip: Record<string, unknown> | null }
    expect(state.skip).not.toBeNull()
    delete state.skip!.frame
    const second = createSieve({ resume: cp })
    const events = [...second.push('</tool_calls> ok <tool_calls><invoke name="g"></invoke></tool_calls>'), ...second.end()]
    expect(events.filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && e.name)).toEqual(['g'])
  })
})
