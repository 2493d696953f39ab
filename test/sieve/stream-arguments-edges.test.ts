/**
 * `streamArguments` at the edges a review found: self-closing invokes,
 * parameters named like array indexes, a parameter given twice, quoted
 * examples under a schema, and `onInvalid: 'reject'` aborting each call
 * with its own problem.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, type SieveEvent } from '../../src/index.js'
import { comparable, streamed, unstreamed } from '../helpers/streamed.js'
import { C, O, block, chars, invoke, param } from '../helpers/dsml.js'


describe('streamed calls at the edges', () => {
  it('should support a self-closing invoke before another: the later start names where its raw begins', () => {
    const text = `${O}tool_calls>\n${O}invoke name="a"/>\n${invoke('b', param('x', 'y'))}${C}tool_calls>`
    const s = streamed(chars(text))
    expect(s.starts.map((e) => [e.name, e.span.start])).toEqual([['a', 0], ['b', text.indexOf('/>') + 2]])
  })

  it('should support a self-closing invoke\'s arguments ending at its tag, not at the block\'s end', () => {
    let n = 0
    const sieve = createSieve({ streamArguments: true, generateId: () => `id${n++}` })
    const events = sieve.push(`${O}tool_calls>\n${O}invoke name="a"/>\n${O}invoke name="b">\n${O}param`)
    const deltas = events.filter((e) => e.type === 'tool-call-delta' && e.id === 'id0').map((e) => (e as { delta: string }).delta)
    expect(deltas.join('')).toBe('{}')
  })

  it('should support a parameter named like an array index: its key where it was written, the call running in any chunking', () => {
    const text = block(invoke('f', param('path', 'a'), param('1', 'x')))
    const s = streamed(chars(text))
    expect(comparable(s.rest)).toEqual(comparable(unstreamed([text])))
    expect([...s.args.values()]).toEqual(['{"path":"a","1":"x"}'])
  })

  it('should support a parameter given twice failing the same way in every chunking (its streamed value would change)', () => {
    const text = block(invoke('f', param('x', 'one'), param('x', 'two')))
    const whole = streamed([text])
    expect(comparable(streamed(chars(text)).rest)).toEqual(comparable(whole.rest))
    expect(whole.rest.filter((e) => e.type === 'diagnostic').map((e) => (e as { code: string }).code)).toEqual(['streamed-arguments-changed'])
  })

  it('should not support a quoted example running when the schema coerces its values, with or without streaming', () => {
    const tools = [{ name: 'del', inputSchema: { type: 'object', properties: { n: { type: 'string' }, k: { type: 'integer' } } } }]
    const example = block(invoke('del', param('n', '5', null), param('k', '7')))
    for (const streamArguments of [false, true]) {
      const sieve = createSieve({ tools, quoted: [`what does ${example} do?`], streamArguments })
      const events: SieveEvent[] = [...sieve.push('Sure: ' + example), ...sieve.end()]
      expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-call-start'), String(streamArguments)).toEqual([])
      expect(events.some((e) => e.type === 'diagnostic' && e.code === 'quoted-example')).toBe(true)
    }
  })

  it('should support each started call of a rejected block aborting with its own problem, a valid one with the block\'s', () => {
    const tools = [{ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, 'g']
    const text = block(invoke('g', param('x', '1')), invoke('f', param('m', 'x')))
    const s = streamed(chars(text), { tools, onInvalid: 'reject' })
    expect(s.aborts.map((e) => e.code)).toEqual(['invalid-arguments', 'invalid-arguments'])
    const [first, second] = [s.starts[0]!, s.starts[1]!]
    expect(first.name).toBe('g')
    expect(second.name).toBe('f')
    const bad = block(invoke('f', param('m', 'x')), invoke('g', param('x', '1')), invoke('f', param('n', 'nope', 'false')))
    const codes = streamed(chars(bad), { tools, onInvalid: 'reject' }).aborts.map((e) => e.code)
    expect(codes).toEqual(['invalid-arguments', 'invalid-arguments', 'bad-json-value'])
  })

  it('should support an unclosed CDATA its parameter\'s closer ends at the stream\'s end giving the same call in every cut into three', () => {
    // the cut rewrites the section's tokens; a reading that had passed more of them than the cut leaves skipped the
    // parameter's closer, and the call's arguments seemed to change
    const parts = ['<tool_calls><invoke name="a"><parameter name="n"><![CDATA[x', '\n', '</parameter><parameter name="b">y</parameter></invoke></tool_calls>']
    const text = parts.join('')
    const want = comparable(unstreamed([text]))
    expect(want.filter((e) => (e as SieveEvent).type !== 'text').map((e) => (e as SieveEvent).type)).toEqual(['tool-call', 'diagnostic'])
    const cuts: string[][] = [parts]
    for (let i = 1; i < text.length; i++) for (let j = i + 1; j < text.length; j += 11) cuts.push([text.slice(0, i), text.slice(i, j), text.slice(j)])
    for (const chunks of cuts) {
      const s = streamed(chunks)
      expect(comparable(s.rest), JSON.stringify(chunks)).toEqual(want)
      expect([...s.args.values()]).toEqual(['{"n":"x\\n","b":"y"}'])
    }
  })
})

