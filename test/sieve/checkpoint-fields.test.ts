/**
 * Checkpoints are checked against what the state can be: a field of the
 * right type but an impossible value (an emptied token text, a line state
 * out of range, a stream position that disagrees with the tokens) is refused
 * with `invalid-checkpoint` naming it, never resumed into a hang or an
 * `internal-error`. A checkpoint records the quoted calls it was taken with.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveCheckpoint, SieveEvent, SieveOptions } from '../../src/types.js'

const rest = '</parameter></invoke></tool_calls> done'
const head = 'x <tool_calls><invoke name="a"><parameter name="p">v'

type State = Record<string, any>

function taken(opts: SieveOptions = {}, text = head): SieveCheckpoint {
  const sieve = createSieve(opts)
  sieve.push(text)
  return JSON.parse(JSON.stringify(sieve.checkpoint())) as SieveCheckpoint
}

/** What resuming `cp` gives: the error's code and field, or the events of the rest. */
function resumed(cp: SieveCheckpoint, opts: SieveOptions = {}, more = rest): { code?: unknown; field?: unknown; events?: SieveEvent[] } {
  let sieve
  try {
    sieve = createSieve({ ...opts, resume: cp })
  } catch (error) {
    return { code: (error as { code?: unknown }).code, field: (error as { field?: unknown }).field }
  }
  return { events: [...sieve.push(more), ...sieve.end()] }
}

function edited(edit: (s: State) => void, opts: SieveOptions = {}, text = head): SieveCheckpoint {
  const cp = taken(opts, text)
  edit(cp.state as State)
  return cp
}

describe('checkpoint fields checked against what the state can be', () => {
  it.each<[string, (s: State) => void, string, SieveOptions?, string?]>([
    ['a capture token whose text is emptied', (s) => { s.capture.tokens[1][1] = '' }, 'resume.state.capture.tokens[1]'],
    ['an invoke closer whose text is emptied', (s) => { const t = s.capture.tokens; t[t.length - 1][1] = ''; s.capture.length -= 9 }, 'resume.state.capture.tokens[5]', {}, '<tool_calls><invoke name="x"></invoke>'],
    ['a capture length that is not its tokens\'', (s) => { s.capture.length += 3 }, 'resume.state.capture.length'],
    ['a capture that does not begin with its opener', (s) => { s.capture.tokens.shift() }, 'resume.state.capture.tokens'],
    ['a capture past the stream position', (s) => { s.capture.start = s.pos }, 'resume.state.capture.start'],
    ['a line state out of range', (s) => { s.lineState = 2 ** 40 }, 'resume.state.lineState'],
    ['a line state that is no integer', (s) => { s.lineState = 2.5 }, 'resume.state.lineState'],
    ['a capture\'s line state out of range', (s) => { s.capture.lineState = -5 }, 'resume.state.capture.lineState'],
    ['a fence character that is none', (s) => { s.md.fenceCh = 65 }, 'resume.state.md.fenceCh'],
    ['a fence length with no fence', (s) => { s.md.fenceLen = 4 }, 'resume.state.md.fenceLen'],
    ['a hold depth past the open levels', (s) => { s.md.holdDepth = 2 }, 'resume.state.md.holdDepth'],
    ['a raw value opener outside a raw value', (s) => { s.raw = '<parameter' }, 'resume.state.raw'],
    ['a skip outside skip mode', (s) => { s.skip = { role: 'wrapper', depth: 1, frame: 'xml' } }, 'resume.state.skip'],
    ['a skip deleted', (s) => { delete s.skip }, 'resume.state.skip', {}, '<tool_calls><invoke name="a"><parameter name="x">see </invoke>'],
    ['a skip of depth 0', (s) => { s.skip.depth = 0 }, 'resume.state.skip.depth', {}, '<tool_calls><invoke name="a"><parameter name="x">see </invoke>'],
    ['a mode that is a block\'s with no capture', (s) => { s.mode = 'value' }, 'resume.state.mode', {}, 'plain text'],
    ['a streamed calls position that is not its tokens\'', (s) => { s.calls.at += 4 }, 'resume.state.calls.at', { streamArguments: true }],
    ['a streamed calls capture that is another', (s) => { s.calls.capture = 1 }, 'resume.state.calls.capture', { streamArguments: true }],
    ['a streamed call with an index never given', (s) => { s.calls.calls[0].index = 9 }, 'resume.state.calls.calls[0].index', { streamArguments: true }],
    ['streamed calls reading past the tokens', (s) => { s.calls.seen = 99 }, 'resume.state.calls.seen', { streamArguments: true }],
    ['streamed calls resumed without streamArguments', () => {}, 'resume.state.calls', { streamArguments: true }],
  ])('should not support %s (invalid-checkpoint naming the field)', (_label, edit, field, opts = {}, text = head) => {
    const resumeOpts = _label.includes('without streamArguments') ? {} : opts
    expect(resumed(edited(edit, opts, text), resumeOpts)).toEqual({ code: 'invalid-checkpoint', field })
  })

  it('should support the unedited checkpoints of the cases above', () => {
    for (const [opts, text] of [[{}, head], [{ streamArguments: true }, head], [{}, '<tool_calls><invoke name="a"><parameter name="x">see </invoke>'], [{}, 'plain text'], [{}, '<tool_calls><invoke name="x"/>']] as const) {
      const r = resumed(taken(opts, text), opts)
      expect(r.events?.some((e) => e.type === 'diagnostic' && e.code === 'internal-error')).toBe(false)
    }
  })
})

describe('checkpoints and the quoted texts', () => {
  const example = '<tool_calls><invoke name="rm"><parameter name="p">/x</parameter></invoke></tool_calls>'
  const quoted = ['What does `' + example + '` do?']
  const half = example.slice(0, 40)

  it('should not support resuming a checkpoint taken with quoted texts without them, or with others (invalid-checkpoint)', () => {
    const cp = taken({ quoted }, half)
    expect(cp.quoted).toMatch(/^[0-9a-f]{16}$/)
    expect(resumed(cp, {}, example.slice(40))).toEqual({ code: 'invalid-checkpoint', field: 'resume.quoted' })
    expect(resumed(cp, { quoted: ['<invoke name="ls"></invoke>'] }, example.slice(40))).toEqual({ code: 'invalid-checkpoint', field: 'resume.quoted' })
    expect(resumed(taken({}, half), { quoted }, example.slice(40))).toEqual({ code: 'invalid-checkpoint', field: 'resume.quoted' })
  })

  it('should support resuming with the same quoted calls: the echo stays text', () => {
    for (const streamArguments of [false, true]) {
      const opts = { quoted, streamArguments }
      const r = resumed(taken(opts, half), opts, example.slice(40))
      expect(r.events!.filter((e) => e.type === 'tool-call' || e.type === 'tool-call-start')).toEqual([])
      expect(r.events!.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(['quoted-example'])
    }
  })

  it('should support quoted texts with no call as no quoted texts (the same checkpoints)', () => {
    const cp = taken({ quoted: ['no calls here'] }, half)
    expect(cp.quoted).toBeUndefined()
    expect(resumed(cp, {}, example.slice(40)).events!.filter((e) => e.type === 'tool-call')).toHaveLength(1)
  })
})

describe('checkpoints of a reasoning sieved for calls', () => {
  const opts: SieveOptions = { reasoningCalls: 'call', startInReasoning: true }
  const text = 'thinking <tool_calls><invoke name="a">'

  it('should not support its reasoning driver resumed without reasoningCalls, or outside the reasoning (invalid-checkpoint)', () => {
    expect(resumed(taken(opts, text), {})).toEqual({ code: 'invalid-checkpoint', field: 'resume.state.reasoning.inner' })
    expect(resumed(edited((s) => { s.reasoning.phase = 'done' }, opts, text), opts)).toEqual({ code: 'invalid-checkpoint', field: 'resume.state.reasoning.inner' })
  })

  it('should support it resumed with reasoningCalls', () => {
    const r = resumed(taken(opts, text), opts, '</invoke></tool_calls></think>ok')
    expect(r.events!.filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && e.name)).toEqual(['a'])
  })
})

describe('checkpoints taken on every kind of line', () => {
  const block = '<tool_calls>\n    <invoke name="a"><parameter name="p">v</parameter></invoke>\n    </tool_calls>\n'
  // a line of only *, -, _ or = so far is read as a break, an underline, a list item or a paragraph line when it ends
  for (const line of ['**', '--', '_ _', '==', '* ', '- ', '1.']) {
    it(`should support resuming inside a line that starts ${JSON.stringify(line)}`, () => {
      const text = `Intro\n\n${line}`
      const rest = `${line.trim().charAt(0).repeat(3)}\n    ${block}\nDone.`
      const whole = createSieve()
      const expected = [...whole.push(text + rest), ...whole.end()].filter((e) => e.type === 'tool-call').length
      const out = resumed(taken({}, text), {}, rest)
      expect(out.code).toBeUndefined()
      expect(out.events!.filter((e) => e.type === 'tool-call').length).toBe(expected)
    })
  }
})

describe('checkpoints taken inside runs of inline <code>', () => {
  it('should support resuming after two <code> tags opened in a row (one level holds both)', () => {
    const text = 'x <code></tool_calls> yx <code>Use '
    const rest = '<tool_calls> to open. </code> y'
    const whole = createSieve()
    const expected = [...whole.push(text + rest), ...whole.end()]
    const first = createSieve()
    const before = first.push(text)
    const cp = JSON.parse(JSON.stringify(first.checkpoint())) as SieveCheckpoint
    const out = resumed(cp, {}, rest)
    expect(out.code).toBeUndefined()
    const textOf = (events: SieveEvent[]) => events.map((e) => (e.type === 'text' ? e.text : `[${e.type}]`)).join('')
    expect(textOf([...before, ...out.events!])).toBe(textOf(expected))
  })
})
