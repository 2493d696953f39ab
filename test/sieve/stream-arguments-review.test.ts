/**
 * `streamArguments` and `reasoningCalls: 'call'` under hostile inputs (a
 * review): values the decoder reads exactly or decodes, schemas, failures,
 * checkpoints and the reasoning. Every fixture runs through every split
 * point (or one character at a time) and is checked by `checkStreamed`; the
 * calls, text and diagnostics must be those of a sieve without the option.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, type SieveEvent, type SieveOptions } from '../../src/index.js'
import { checkStreamed, comparable, streamed, streamedResumed, unstreamed, type Streamed } from '../helpers/streamed.js'
import { C, O, block, chars, invoke, param } from '../helpers/dsml.js'

/** Whole, one character at a time, and cut once at every point. */
const chunkings = (s: string): string[][] => [[s], chars(s), ...Array.from({ length: s.length - 1 }, (_, i) => [s.slice(0, i + 1), s.slice(i + 1)])]
const calls = (s: Streamed) => s.rest.filter((e) => e.type === 'tool-call') as Extract<SieveEvent, { type: 'tool-call' }>[]
const codes = (events: readonly SieveEvent[]) => events.filter((e) => e.type === 'diagnostic' || e.type === 'error').map((e) => (e as { code: string }).code)

/** In every chunking: the invariants, and the events of a sieve without the option given the whole text. */
function agrees(text: string, opts: SieveOptions = {}, every = true): Streamed[] {
  const want = comparable(unstreamed([text], opts))
  return (every ? chunkings(text) : [[text], chars(text)]).map((chunks) => {
    const s = streamed(chunks, opts)
    expect(comparable(s.rest), JSON.stringify(chunks.length > 2 ? 'one character at a time' : chunks)).toEqual(want)
    return s
  })
}

/** The text a sieve's events give back: text, reasoning, the reasoning tags and the calls' raw. */
function conserved(events: readonly SieveEvent[]): string {
  return events.map((e) => (e.type === 'text' || e.type === 'reasoning' ? e.text : e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
}

describe('streamed values read exactly', () => {
  it('should support a surrogate pair split at every point, and lone halves, streaming as JSON.stringify writes them', () => {
    for (const value of ['a😀b', '😀', 'ab\ud83d', '\ude00x', 'x\ud83d\ud83dy', '😀😀😀']) {
      for (const s of agrees(block(invoke('w', param('content', value))))) {
        expect(JSON.parse(s.args.get('id0')!)).toEqual({ content: value })
      }
    }
  })

  it('should support CDATA, entities, comments and tags of any family in a string="true" value as those characters', () => {
    const value = '<![CDATA[x]]> &amp; &#x41; <!-- c --> <b>bold</b> </parameter> </|DSML|parameter> < /｜DSML｜parameter> a<'
    for (const s of agrees(block(invoke('w', param('content', value))))) {
      expect(calls(s)[0]!.input).toEqual({ content: value })
    }
  })

  it('should support control characters, backslashes, quotes and line separators in a streamed value', () => {
    agrees(block(invoke('w', param('content', '\u0001\b\t\n\r\u001f"\\ \u2028\u2029\u007f'))))
  })

  it('should support a closer spelled in any case or with a trailing bar ending a streamed value', () => {
    for (const close of ['</｜dsml｜PARAMETER>', '</｜DSML｜parameter｜>']) {
      agrees(block(`${O}invoke name="w">\n${O}parameter name="content" string="true">v${close}\n${C}invoke>\n`))
    }
  })

  it('should support string="false", plain, CDATA and nested-XML values arriving whole at their closers', () => {
    const text = block(invoke('f', param('a', '9007199254740993', 'false'), param('b', '1.0', null), param('c', '<![CDATA[a<b]]>', null), param('d', '<name>Ada</name><age>36</age>', null), param('e', '&lt;&amp;lt;', null)))
    for (const s of agrees(text)) expect(s.args.get('id0')).toBe('{"a":9007199254740993,"b":1.0,"c":"a<b","d":{"name":"Ada","age":36},"e":"<&lt;"}')
  })

  it('should support a JSON body and an unwrapped {"arguments": …} body arriving whole', () => {
    agrees(block(`${O}invoke name="f">{"a":1,"b":"x"}${C}invoke>\n`, `${O}invoke name="g">{"arguments":{"a":1}}${C}invoke>\n`))
  })

  it('should not support a value streaming before its closer when the string attribute is not "true"', () => {
    for (const flag of ['false', null, 'yes']) {
      const sieve = createSieve({ streamArguments: true })
      const head = `${O}tool_calls>\n${O}invoke name="f">\n${O}parameter name="k"${flag === null ? '' : ` string="${flag}"`}>hello wor`
      const sent = [...sieve.push(head), ...sieve.push('ld and more')].filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)
      expect(sent).toEqual(['{'])
    }
  })
})

describe('streamed values under a schema', () => {
  const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => [{ name: 'f', inputSchema: { type: 'object', properties, ...extra } }]
  const text = block(invoke('f', param('a', '5'), param('b', 'x')))

  it('should support $ref, anyOf, enum, type lists and const properties giving the arguments a sieve without the option gives', () => {
    const schemas: Record<string, unknown>[] = [
      { $ref: '#/$defs/i' }, { $ref: '#/$defs/s' }, { anyOf: [{ type: 'integer' }, { type: 'string' }] }, { enum: ['5', 5] },
      { type: ['integer', 'string'] }, { type: ['string', 'null'] }, { const: 5 }, { allOf: [{ type: 'integer' }] }, { type: 'array', items: { type: 'integer' } },
    ]
    for (const a of schemas) agrees(text, { tools: tool({ a }, { $defs: { i: { type: 'integer' }, s: { type: 'string' } } }) }, false)
  })

  it('should support a root $ref, a root anyOf of objects, patternProperties and additionalProperties', () => {
    for (const inputSchema of [
      { $ref: '#/$defs/r', $defs: { r: { type: 'object', properties: { a: { type: 'integer' } } } } },
      { anyOf: [{ type: 'object', properties: { a: { type: 'integer' }, b: { const: 'y' } } }, { type: 'object', properties: { a: { type: 'string' }, b: { const: 'x' } } }] },
      { type: 'object', patternProperties: { '^a$': { type: 'integer' } } },
      { type: 'object', additionalProperties: { type: 'integer' } },
      { anyOf: [{ $ref: '#' }] },
    ]) agrees(text, { tools: [{ name: 'f', inputSchema }] }, false)
  })

  it('should support a string="true" value of an integer property arriving whole, as the number, with no delta of it before its closer', () => {
    const sieve = createSieve({ streamArguments: true, tools: tool({ a: { type: 'integer' } }) })
    const before = sieve.push(`${O}tool_calls>\n${O}invoke name="f">\n${O}parameter name="a" string="true">12`)
    expect(before.filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)).toEqual(['{'])
    const at = sieve.push(`3${C}parameter>\n`).filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)
    expect(at).toEqual(['"a":123'])
  })
})

describe('streamed calls that fail', () => {
  it('should support onInvalid: "reject" aborting every started call of the rejected block, its markup as text', () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 10 } } } }]
    const text = 'x ' + block(invoke('a', param('n', '50', 'false')), invoke('a', param('n', '5', 'false')))
    for (const s of agrees(text, { tools, onInvalid: 'reject' })) {
      expect(calls(s)).toEqual([])
      expect(s.aborts.every((e) => e.code === 'invalid-arguments')).toBe(true)
    }
  })

  it('should support strict mode failing an invoke that is only a comment, after its start', () => {
    const text = block(invoke('a', param('x', 'v')), `${O}invoke name="b"><!-- c -->${C}invoke>\n`)
    const all = agrees(text, { strict: true })
    const oneByOne = all[1]!
    expect(oneByOne.starts.map((e) => e.name)).toEqual(['a', 'b'])
    expect(oneByOne.aborts.map((e) => e.code)).toEqual(['malformed-block', 'malformed-block'])
    expect(codes(oneByOne.rest)).toEqual(['malformed-block'])
  })

  it('should support a capture over captureLimit in the middle of a streamed value, losing nothing', () => {
    const text = 'pre ' + block(invoke('a', param('x', 'y'.repeat(150))), invoke('b')) + ' post'
    for (const s of agrees(text, { captureLimit: 120 })) {
      expect(calls(s)).toEqual([])
      expect(s.rest.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(text)
    }
  })

  it('should support a stream cut at every point of a block: complete invokes are calls, a started rest aborts', () => {
    const whole = 'pre ' + block(invoke('a', param('x', 'hello')), invoke('b', param('y', '3', 'false')))
    for (let cut = 5; cut < whole.length; cut += 7) {
      const text = whole.slice(0, cut)
      const s = streamed(chars(text))
      expect(comparable(s.rest)).toEqual(comparable(unstreamed([text])))
      expect(conserved(s.rest)).toBe(text)
    }
  })

  it('should support a generateId that throws: the started call has a default id, and its call the same id with invalid-call-id', () => {
    const sieve = createSieve({ streamArguments: true, generateId: () => { throw new Error('boom') } })
    const events = [...chars(block(invoke('a', param('x', 'v')))).flatMap((c) => sieve.push(c)), ...sieve.end()]
    const s = checkStreamed(events)
    const call = calls(s)[0]!
    expect(s.starts[0]!.id).toBe(call.id)
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/)
    expect(call.diagnostics?.map((d) => d.code)).toEqual(['invalid-call-id'])
  })
})

describe('streamed calls that never start', () => {
  const one = block(invoke('a', param('x', 'v')))
  it('should not support a start in indented code, an HTML comment, <pre>, a fence in a quote or a list, or a fence\'s info string', () => {
    for (const text of [
      'para\n\n    ' + one.replace(/\n/g, '\n    ') + '\n', '<!-- ' + one + ' -->', '<pre>\n' + one + '\n</pre>\n',
      '> ```\n> ' + one.replace(/\n/g, '\n> ') + '\n> ```\n', '- a\n  ```\n  ' + one.replace(/\n/g, '\n  ') + '\n  ```\n', '```' + one + '\nx\n```',
      'x ``a ' + one + ' b`` y',
    ]) {
      for (const chunks of chunkings(text)) expect(streamed(chunks).starts, text).toEqual([])
    }
  })

  it('should not support a start for a block the whole of which a quoted text holds, in another spelling too', () => {
    const example = block(invoke('del', param('path', '/tmp/x')))
    for (const text of [example, example.replace(/｜/g, '|')]) {
      for (const s of agrees('Sure: ' + text, { quoted: ['what does ' + example + ' do?'] })) expect(s.starts).toEqual([])
    }
  })
})

describe('streamed calls across a checkpoint', () => {
  const resumed = streamedResumed

  it('should support a checkpoint after any character, a lone high surrogate held included, giving the same events', () => {
    const text = 'pre ' + block(invoke('a', param('x', 'hé😀llo &amp; <b>')), invoke('b', param('y', '3', 'false')))
    const chunks = chars(text)
    const want = resumed(chunks, -1, {})
    checkStreamed(want)
    for (let at = 0; at < chunks.length; at++) expect(resumed(chunks, at, {}), `after ${at}`).toEqual(want)
  })

  it('should support a checkpoint after any character of a block in the reasoning (reasoningCalls: "call")', () => {
    const one = block(invoke('a', param('x', 'v😀w')))
    const text = 'hm ' + one.slice(0, 110) + one.slice(110) + ' ok</think>answer ' + one
    const opts: SieveOptions = { reasoningCalls: 'call', startInReasoning: true }
    const chunks = chars(text)
    const want = resumed(chunks, -1, opts)
    expect(checkStreamed(want).starts.map((e) => e.index)).toEqual([0, 1])
    for (let at = 0; at < chunks.length; at += 3) expect(resumed(chunks, at, opts), `after ${at}`).toEqual(want)
  })
})

describe('streamed calls in the reasoning (reasoningCalls: "call")', () => {
  const one = block(invoke('a', param('x', 'v')))
  const R = { reasoningCalls: 'call' } as const

  it('should support a block cut by </think>: its complete invokes are calls, the rest is reasoning, and the answer is read on', () => {
    const text = '<think>let me ' + one.slice(0, one.indexOf(`${C}tool_calls>`)) + '</think>' + `${C}tool_calls> tail`
    for (const s of agrees(text, R)) {
      expect(calls(s).map((c) => c.name)).toEqual(['a'])
      expect(codes(s.rest)).toEqual(['unclosed-wrapper'])
      expect(conserved(s.rest)).toBe(text)
    }
  })

  it('should support a fence or an HTML comment left open in the reasoning ending with it', () => {
    for (const open of ['```\n', '~~~\n', '<!-- ']) {
      const text = `<think>${open}${one}\n</think>ans ${one}`
      for (const s of agrees(text, R, false)) expect(calls(s).length).toBe(1)
    }
  })

  it('should support strict mode, startInReasoning, quoted texts and a capture limit in the reasoning', () => {
    agrees('x ' + block(invoke('a', param('x', 'v')), 'junk') + '</think>ans', { ...R, strict: true, startInReasoning: true })
    agrees('<think>' + one + '</think>' + one, { ...R, quoted: [one] })
    agrees('<think>' + one + one + '</think>' + one, { ...R, captureLimit: 100 })
  })

  it('should support a </think> written inside a value ending the reasoning there', () => {
    const text = '<think>' + block(invoke('a', param('x', 'a</think>b'))) + '</think>x'
    for (const s of agrees(text, R)) expect(conserved(s.rest)).toBe(text)
  })
})
