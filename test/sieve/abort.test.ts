/**
 * `abort()`: the stream broke off. Everything the sieve held goes out as it
 * was held (answer text as text, reasoning as reasoning), in order, and
 * nothing held becomes a call: no repair, no lenient end. A call already
 * started for a cut block (`streamArguments`) gets its `tool-call-abort`.
 * The sieve is finished afterwards.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'

const BLOCK_HEAD = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">'
const BLOCK = `${BLOCK_HEAD}a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`

/** Pushes `chunks`, then aborts: the events of each, and what came out of the whole, by kind. */
function aborted(chunks: readonly string[], options: SieveOptions = {}): { pushed: SieveEvent[]; abort: SieveEvent[]; text: string; reasoning: string; raw: string } {
  const sieve = createSieve({ generateId: ids(), ...options })
  const pushed = chunks.flatMap((c) => sieve.push(c))
  const abort = sieve.abort()
  const all = [...pushed, ...abort]
  const of = (type: 'text' | 'reasoning') => all.map((e) => (e.type === type ? e.text : '')).join('')
  const raw = all.map((e) => (e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
  return { pushed, abort, text: of('text'), reasoning: of('reasoning'), raw }
}

function ids(): () => string {
  let n = 0
  return () => `call_${n++}`
}

/** Text, reasoning, tags and raws in stream order: the input, whatever was held at the break. */
function rebuilt(events: readonly SieveEvent[]): string {
  return events.map((e) => (e.type === 'text' || e.type === 'reasoning' ? e.text : e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
}

const kinds = (events: readonly SieveEvent[]) => events.map((e) => e.type)

describe('abort', () => {
  it('should support a pending tail: the start of a tag goes out as text', () => {
    const r = aborted(['hello <｜DSML｜too'])
    expect(r.pushed).toEqual([{ type: 'text', text: 'hello ' }])
    expect(r.abort).toEqual([{ type: 'text', text: '<｜DSML｜too' }])
  })

  it('should support a capture in progress: its markup goes out as text with unterminated-block', () => {
    const head = 'Reading. '
    const cut = `${BLOCK_HEAD}a.ts`
    const r = aborted([head, cut.slice(0, 30), cut.slice(30)])
    expect(r.text).toBe(head + cut)
    expect(r.abort).toEqual([
      { type: 'text', text: cut },
      { type: 'diagnostic', code: 'unterminated-block', message: expect.any(String), span: { start: head.length, end: head.length + cut.length } },
    ])
  })

  it('should not support a repair at a break: complete invokes of a cut block stay text', () => {
    // at end() this block's complete invoke would be a call (unclosed-wrapper); a break decides nothing
    const cut = BLOCK.slice(0, BLOCK.lastIndexOf('</｜DSML｜tool_calls>'))
    const sieve = createSieve({ generateId: ids() })
    sieve.push(cut)
    expect(kinds(sieve.end())).toContain('tool-call')
    const r = aborted([cut])
    expect(kinds(r.abort)).not.toContain('tool-call')
    expect(r.text).toBe(cut)
    expect(r.abort.filter((e) => e.type === 'diagnostic').map((e) => (e as { code: string }).code)).toEqual(['unterminated-block'])
  })

  it('should support a block closer cut mid-delimiter: the tail is the block\'s, in its span', () => {
    const cut = `${BLOCK.slice(0, -6)}`
    const r = aborted([cut])
    expect(r.text).toBe(cut)
    const diagnostic = r.abort.find((e) => e.type === 'diagnostic')
    expect(diagnostic).toMatchObject({ code: 'unterminated-block', span: { start: 0, end: cut.length } })
  })

  it('should support a tag held after an unmatched backtick: the held text goes out as text', () => {
    const input = ['Run `npm test ', `${BLOCK_HEAD}a.ts`]
    const r = aborted(input)
    expect(r.pushed).toEqual([{ type: 'text', text: 'Run `npm test ' }])
    expect(r.abort).toEqual([{ type: 'text', text: `${BLOCK_HEAD}a.ts` }])
  })

  it('should support deferred attribute text: the tag it belongs to and the text go out together', () => {
    const input = ['<｜DSML｜tool_calls>\n<｜DSML｜invoke name="re', 'ad_file" mode="']
    const r = aborted(input)
    expect(r.pushed).toEqual([])
    expect(r.text).toBe(input.join(''))
    expect(r.abort.at(-1)).toMatchObject({ type: 'diagnostic', code: 'unterminated-block', span: { start: 0, end: input.join('').length } })
  })

  it('should support a bare opener with nothing in it: text, without a diagnostic', () => {
    const r = aborted(['See <｜DSML｜invoke name="x">'])
    expect(r.text).toBe('See <｜DSML｜invoke name="x">')
    expect(r.abort.some((e) => e.type === 'diagnostic')).toBe(false)
  })

  it('should support a JSON block\'s opener with no value begun: text without a diagnostic, as at the end; a begun value: unterminated-block', () => {
    const cases: Array<[string, string, boolean]> = [
      ['pythonic', '[', false],
      ['llama3-json', '{', false],
      ['mistral', '[TOOL_CALLS]read_file[ARGS]', false],
      ['mistral', '[TOOL_CALLS]read_file[ARGS]{"path": "a', true],
    ]
    for (const [dialect, text, begun] of cases) {
      const r = aborted([text], { dialect })
      expect(r.text).toBe(text)
      expect(r.abort.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(begun ? ['unterminated-block'] : [])
      const sieve = createSieve({ dialect })
      const atEnd = [...sieve.push(text), ...sieve.end()].filter((e) => e.type === 'diagnostic')
      if (!begun) expect(atEnd).toEqual([])
    }
  })

  it('should support whitespace and an opener\'s prefix before any reasoning: text', () => {
    const r = aborted(['  <thi'])
    expect(r.abort).toEqual([{ type: 'text', text: '  <thi' }])
  })

  it('should support an open reasoning block: a closer\'s prefix held in it goes out as reasoning', () => {
    const r = aborted(['<think>plan ', 'it</thi'])
    expect(r.abort).toEqual([{ type: 'reasoning', text: '</thi' }])
    expect(r.reasoning).toBe('plan it</thi')
    expect(kinds([...r.pushed, ...r.abort])).not.toContain('reasoning-end')
  })

  it('should support startInReasoning: what is held in the reasoning is reasoning', () => {
    const r = aborted(['plan </th'], { startInReasoning: true })
    expect(r.reasoning).toBe('plan </th')
    expect(r.text).toBe('')
  })

  it('should support streamArguments after a call started: tool-call-abort before the markup, no tool-call', () => {
    const cut = `Reading. ${BLOCK_HEAD}a.`
    const r = aborted([cut], { streamArguments: true })
    expect(kinds(r.pushed)).toEqual(['text', 'tool-call-start', 'tool-call-delta'])
    expect(r.abort).toEqual([
      { type: 'tool-call-abort', id: 'call_0', code: 'unterminated-block' },
      { type: 'text', text: `${BLOCK_HEAD}a.` },
      { type: 'diagnostic', code: 'unterminated-block', message: expect.any(String), span: { start: 9, end: cut.length } },
    ])
  })

  it('should support streamArguments with a complete call before the break: it stays, the cut one is aborted', () => {
    const two = `${BLOCK}\n\n${BLOCK_HEAD}b.ts`
    const r = aborted([two], { streamArguments: true })
    const calls = [...r.pushed, ...r.abort].filter((e) => e.type === 'tool-call')
    expect(calls).toMatchObject([{ id: 'call_0', input: { path: 'a.ts' } }])
    expect(r.abort.filter((e) => e.type === 'tool-call-abort')).toEqual([{ type: 'tool-call-abort', id: 'call_1', code: 'unterminated-block' }])
    // every started call ends: in a call, or in an abort
    const started = [...r.pushed, ...r.abort].filter((e) => e.type === 'tool-call-start').map((e) => (e as { id: string }).id)
    const ended = [...r.pushed, ...r.abort].filter((e) => e.type === 'tool-call' || e.type === 'tool-call-abort').map((e) => (e as { id: string }).id)
    expect(ended).toEqual(started)
  })

  it('should support reasoningCalls: \'call\': a block cut in the reasoning goes out as reasoning, its started call aborted', () => {
    const input = `<think>let me ${BLOCK_HEAD}a.`
    const r = aborted([input], { reasoningCalls: 'call', streamArguments: true })
    expect(kinds(r.pushed)).toEqual(['reasoning-start', 'reasoning', 'tool-call-start', 'tool-call-delta'])
    expect(r.abort).toEqual([
      { type: 'tool-call-abort', id: 'call_0', code: 'unterminated-block' },
      { type: 'reasoning', text: `${BLOCK_HEAD}a.` },
      { type: 'diagnostic', code: 'unterminated-block', message: expect.any(String), span: { start: 14, end: input.length } },
    ])
    expect(r.text).toBe('')
  })

  it('should support reasoningCalls: \'call\' with a closer\'s prefix held after a held tag start: both reasoning, in order', () => {
    const r = aborted(['<think>a <｜DSML｜to', 'ol_call </th'], { reasoningCalls: 'call' })
    expect(r.reasoning).toBe('a <｜DSML｜tool_call </th')
    expect(kinds(r.abort)).not.toContain('tool-call')
  })

  it('should not support a call from anything held, whatever was cut', () => {
    for (const cut of [BLOCK.slice(0, -1), BLOCK.slice(0, 40), `${BLOCK}\n${BLOCK.slice(0, -3)}`, `<think>${BLOCK}`]) {
      for (const options of [{}, { streamArguments: true }, { reasoningCalls: 'call' as const }, { strict: true }]) {
        const r = aborted([cut], options)
        expect(kinds(r.abort), cut).not.toContain('tool-call')
        expect(kinds(r.abort), cut).not.toContain('tool-call-start')
        expect(rebuilt([...r.pushed, ...r.abort]), cut).toBe(cut)
      }
    }
  })

  it('should support the invariant at every break point: text + reasoning + raw of calls = what was pushed', () => {
    const input = `<think>plan \`x\`</think>Reading. ${BLOCK}\nThen \`a ${BLOCK_HEAD}b</｜DSML｜parameter>\` and ${BLOCK.slice(0, 60)}`
    for (const options of [{}, { streamArguments: true }, { reasoningCalls: 'call' as const, streamArguments: true }]) {
      for (let k = 0; k <= input.length; k++) {
        const r = aborted([input.slice(0, k)], options)
        expect(rebuilt([...r.pushed, ...r.abort]), `break at ${k}`).toBe(input.slice(0, k))
        expect(kinds(r.abort), `break at ${k}`).not.toContain('tool-call')
      }
    }
  })

  it('should support abort() after end(), and a second abort(): []', () => {
    const sieve = createSieve()
    sieve.push('hello <｜DSML｜too')
    expect(sieve.end()).toEqual([{ type: 'text', text: '<｜DSML｜too' }])
    expect(sieve.abort()).toEqual([])
    const other = createSieve()
    other.push('hello <｜DSML｜too')
    expect(other.abort()).toEqual([{ type: 'text', text: '<｜DSML｜too' }])
    expect(other.abort()).toEqual([])
    expect(other.end()).toEqual([])
  })

  it('should not support push() after abort(): sieve-finished', () => {
    const sieve = createSieve()
    sieve.abort()
    expect(() => sieve.push('more')).toThrow(expect.objectContaining({ code: 'sieve-finished' }))
  })

  it('should support a checkpoint after abort(): it holds nothing, and a resumed sieve reads on in prose', () => {
    const sieve = createSieve()
    sieve.push(`Reading. ${BLOCK_HEAD}a.`)
    sieve.abort()
    const checkpoint = JSON.parse(JSON.stringify(sieve.checkpoint()))
    const resumed = createSieve({ resume: checkpoint })
    expect(resumed.push('plain ')).toEqual([{ type: 'text', text: 'plain ' }])
    expect(resumed.push(BLOCK)).toMatchObject([{ type: 'tool-call', name: 'read_file', input: { path: 'a.ts' } }])
    expect(resumed.end()).toEqual([])
  })

  it('should support strict mode: the diagnostic of a cut block is an error event', () => {
    const r = aborted([`${BLOCK_HEAD}a`], { strict: true })
    expect(r.abort.at(-1)).toMatchObject({ type: 'error', code: 'unterminated-block' })
  })
})
