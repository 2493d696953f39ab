/**
 * White-box: deferred tag text (src/sieve/deferral.ts): attribute chunks that cannot end or
 * break a tag wait for the chunk that can. Same events for every chunking,
 * fewer lexer runs, and text from a broken tag leaves on the same push as
 * without deferral.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/index.js'

const block = (attrs: string) => `<tool_calls>\n<invoke name="read_file">\n<parameter ${attrs}>src/main.rs</parameter>\n</invoke>\n</tool_calls>`

function oneCharAtATime(input: string) {
  const sieve = createSieve()
  const perPush: SieveEvent[][] = [...input].map((c) => sieve.push(c))
  perPush.push(sieve.end())
  return { perPush, stats: sieve.stats() }
}

describe('deferred tag text', () => {
  it('should support attributes in one-character chunks with at most one lexer run per tag, not one per character', () => {
    const attrs = 'name="path"   string="true"  data-x = \'a b\'  '
    const input = block(attrs)
    const { perPush, stats } = oneCharAtATime(input)
    expect(calls(perPush.flat())).toEqual([{ name: 'read_file', input: { path: 'src/main.rs' } }])
    // one lexer run per tag, however long the attributes: each opening tag waits with its attributes, and the lexer
    // takes each tag over its span (`tag-spans.ts`), or recalls the tokens a run made of it before; the text between tags takes none (56 runs when each chunk was
    // lexed on its own, 18 when a tag's name and then its attributes took a run each)
    expect(stats.lexerRuns).toBeLessThanOrEqual(6)
    expect(stats.charsLexed).toBeLessThanOrEqual(2 * input.length)
  })

  it('should support an opening tag whose name a chunk end cuts off from its attributes: both wait together', () => {
    const input = block('name="path"')
    const cut = input.indexOf('<parameter') + '<parameter'.length
    const sieve = createSieve()
    const events = [...sieve.push(input.slice(0, cut)), ...sieve.push(' na'), ...sieve.push('me="pa'), ...sieve.push('th">src'), ...sieve.push(input.slice(cut + ' name="path">src'.length)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'read_file', input: { path: 'src/main.rs' } }])
    expect(calls(expectChunkInvariant(input))).toEqual(calls(events))
  })

  it('should not support deferring an opener that breaks the block (a parameter straight in the wrapper): it leaves on that push', () => {
    const input = '<tool_calls>\n<parameter name="path">x</parameter>\n</tool_calls>'
    const { perPush } = oneCharAtATime(input)
    const broken = input.indexOf('<parameter') + '<parameter '.length
    // the capture is released on the push of the boundary after the name, not held on to the tag's end
    expect(textOf(perPush.slice(0, broken - 1).flat())).toBe('')
    expect(textOf(perPush.slice(0, broken).flat())).toBe(input.slice(0, broken))
    expect(textOf(perPush.flat())).toBe(input)
  })

  it('should support quoted values holding any character, including `>` and `<`', () => {
    const events = expectChunkInvariant(block('name="path" note="a > b < c" alt=\'x "y" z\''))
    expect(calls(events)).toEqual([{ name: 'read_file', input: { path: 'src/main.rs' } }])
  })

  it('should not support deferring past a character that breaks the tag: the text leaves on that push', () => {
    const input = '<tool_calls>\n<invoke name="read_file" ! broken\nmore'
    const { perPush } = oneCharAtATime(input)
    const bang = input.indexOf('!')
    // everything up to the `!` went out on the push of the `!` itself (no block, the mention is text)
    expect(textOf(perPush.slice(0, bang + 1).flat())).toBe(input.slice(0, bang + 1))
    expect(textOf(perPush.flat())).toBe(input)
  })

  it('should support a checkpoint taken while attribute text is deferred', () => {
    const input = block('name="path" string="true"')
    const cut = input.indexOf('string')
    const first = createSieve()
    const before = [...input.slice(0, cut)].flatMap((c) => first.push(c))
    const saved = JSON.parse(JSON.stringify(first.checkpoint()))
    const second = createSieve({ resume: saved })
    const after = [...[...input.slice(cut)].flatMap((c) => second.push(c)), ...second.end()]
    expect(calls([...before, ...after])).toEqual([{ name: 'read_file', input: { path: 'src/main.rs' } }])
  })

  it('should not support deferral past the capture limit: the limit still cuts at the same offset', () => {
    const input = block(`name="path" pad="${'x'.repeat(200)}"`)
    const whole = createSieve({ captureLimit: 120 })
    const wholeEvents = [...whole.push(input), ...whole.end()]
    const { perPush } = (() => {
      const sieve = createSieve({ captureLimit: 120 })
      const perPush = [...input].map((c) => sieve.push(c))
      perPush.push(sieve.end())
      return { perPush }
    })()
    const codes = (es: SieveEvent[]) => es.flatMap((e) => (e.type === 'diagnostic' ? [`${e.code}@${e.span.start}-${e.span.end}`] : []))
    expect(codes(perPush.flat())).toEqual(codes(wholeEvents))
    expect(codes(wholeEvents)[0]).toMatch(/^capture-limit@/)
    expect(textOf(perPush.flat())).toBe(input)
  })

  it('should support a value read on past the tag end: lexer runs do not grow with the value', () => {
    const runs = (value: string) => oneCharAtATime(block('name="path"').replace('src/main.rs', value)).stats.lexerRuns
    const short = runs('a.rs')
    expect(runs('a/very/long/path/to/some/file/in/the/repository/main.rs')).toBe(short)
  })

  it('should not support deferring a JSON invoke body or text after a tag end in an invoke body', () => {
    const json = '<tool_calls>\n<invoke name="f">{"a": 1}</invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(json))).toEqual([{ name: 'f', input: { a: 1 } }])
    const junk = '<tool_calls>\n<invoke name="f"> junk </invoke>\n</tool_calls> after'
    const events = expectChunkInvariant(junk)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(junk)
  })
})
