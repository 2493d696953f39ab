/**
 * `streamArguments`: calls start as soon as their block is known to be live,
 * their arguments stream as they are written, and each start ends in the
 * call or an abort. Invariants are checked on every run (`checkStreamed`).
 */
import { describe, expect, it } from 'vitest'
import { createSieve, type SieveEvent } from '../../src/index.js'
import { comparable, streamed, unstreamed } from '../helpers/streamed.js'
import { C, O, block, chars, invoke, param } from '../helpers/dsml.js'

const kinds = (events: readonly SieveEvent[]) => events.filter((e) => e.type !== 'text' && e.type !== 'tool-call-delta').map((e) => e.type)

const readFile = block(invoke('read_file', param('path', 'src/main.rs'), param('limit', '20', 'false')))

describe('streamed tool calls', () => {
  it('should support a start, deltas that concatenate to the arguments, and the call with the same id', () => {
    for (const chunks of [[readFile], chars(readFile), [readFile.slice(0, 40), readFile.slice(40)]]) {
      const s = streamed(['Let me look.\n\n', ...chunks, '\nDone.'])
      expect(s.starts).toEqual([{ type: 'tool-call-start', id: 'id0', name: 'read_file', index: 0, span: { start: 14 } }])
      expect(s.args.get('id0')).toBe('{"path":"src/main.rs","limit":20}')
      expect(kinds(s.rest)).toEqual(['tool-call'])
    }
  })

  it('should support the start before the block closes, as soon as the invoke name is read', () => {
    const sieve = createSieve({ streamArguments: true })
    const upToName = `${O}tool_calls>\n${O}invoke name="read_file">\n`
    const first = [...sieve.push(upToName), ...sieve.push(`${O}param`)]
    expect(first.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-delta'])
    expect(first[1]).toMatchObject({ delta: '{' })
  })

  it('should support a string="true" value streaming as it arrives, within the longest delimiter', () => {
    const value = 'fn main() { println!("héllo 😀 <b> & </b>"); }\n'.repeat(20)
    const head = `${O}tool_calls>\n${O}invoke name="write_file">\n${O}parameter name="content" string="true">`
    const sieve = createSieve({ streamArguments: true })
    let sent = ''
    for (const e of sieve.push(head)) if (e.type === 'tool-call-delta') sent += e.delta
    expect(sent).toBe('{"content":"')
    const longest = 47
    for (let n = 1; n <= value.length; n++) {
      for (const e of sieve.push(value.charAt(n - 1))) if (e.type === 'tool-call-delta') sent += e.delta
      const streamedValue = JSON.parse(sent.slice(sent.indexOf(':"') + 1) + '"') as string
      expect(value.startsWith(streamedValue)).toBe(true)
      expect(streamedValue.length, `after ${n} characters`).toBeGreaterThanOrEqual(n - longest)
    }
  })

  it('should support a value that is not a string arriving whole at its closer', () => {
    const sieve = createSieve({ streamArguments: true })
    const text = `${O}tool_calls>\n${O}invoke name="f">\n${O}parameter name="n" string="false">12345`
    const before = sieve.push(text).filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)
    expect(before).toEqual(['{'])
    const at = sieve.push(`${C}parameter>`).filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta)
    expect(at).toEqual(['"n":12345'])
  })

  it('should support a string="true" value its schema makes a number arriving whole, as the number', () => {
    const tools = [{ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } } }]
    const text = block(invoke('f', param('s', 'abc'), param('n', '42')))
    const s = streamed(chars(text), { tools })
    expect(s.args.get('id0')).toBe('{"s":"abc","n":42}')
    expect(s.aborts).toEqual([])
  })

  it('should support indexes counting the stream\'s calls across blocks', () => {
    const text = `${block(invoke('a', param('x', '1')), invoke('b'))}\nthen\n${block(invoke('c', param('y', 'z')))}`
    const s = streamed(chars(text))
    expect(s.starts.map((e) => [e.name, e.index])).toEqual([['a', 0], ['b', 1], ['c', 2]])
    expect(kinds(s.rest)).toEqual(['tool-call', 'tool-call', 'tool-call'])
  })

  it('should support the same calls, text and diagnostics as without the option', () => {
    const text = `intro\n${readFile}\n\`\`\`\n${readFile}\n\`\`\`\n${block(invoke('bad', `${O}parameter>x${C}parameter>\n`))}\nend`
    for (const chunks of [[text], chars(text)]) {
      expect(comparable(streamed(chunks).rest)).toEqual(comparable(unstreamed(chunks)))
    }
  })

  it('should not support any streaming event without the option', () => {
    const events = unstreamed(chars(readFile))
    expect(events.map((e) => e.type).filter((t) => t.startsWith('tool-call-'))).toEqual([])
  })
})

describe('streamed tool calls that fail', () => {
  it('should support an abort when the block breaks after the start, its markup as text', () => {
    const quoted = block(invoke('bash', param('cmd', 'rm -rf ~')))
    // a plain value that quotes a block: the block breaks inside the invoke
    const text = `${O}tool_calls>\n${O}invoke name="send_email">\n${O}parameter name="body">see ${quoted}${C}parameter>\n${C}invoke>\n${C}tool_calls>`
    const s = streamed(chars(text))
    expect(s.starts.map((e) => e.name)).toEqual(['send_email'])
    expect(s.aborts).toEqual([{ type: 'tool-call-abort', id: 'id0', code: 'malformed-block' }])
    expect(s.rest.filter((e) => e.type === 'tool-call')).toEqual([])
    expect(s.rest.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(text)
  })

  it('should support an abort when the block grows past the capture limit', () => {
    const text = block(invoke('w', param('content', 'x'.repeat(500))))
    const s = streamed(chars(text), { captureLimit: 200 })
    expect(s.aborts.map((e) => e.code)).toEqual(['capture-limit'])
    expect(s.rest.some((e) => e.type === 'diagnostic' && e.code === 'capture-limit')).toBe(true)
  })

  it('should support an abort of the invoke the stream cuts, the complete ones still calls', () => {
    const text = `${O}tool_calls>\n${invoke('a', param('x', '1'))}${O}invoke name="b">\n${O}parameter name="y" string="true">unfinished`
    const s = streamed(chars(text))
    expect(s.starts.map((e) => e.name)).toEqual(['a', 'b'])
    expect(s.aborts).toEqual([{ type: 'tool-call-abort', id: 'id1', code: 'unterminated-block' }])
    expect(s.rest.filter((e) => e.type === 'tool-call').map((e) => (e as { name: string }).name)).toEqual(['a'])
  })

  it('should support an abort and the block as text when a parameter given twice changes what was streamed', () => {
    const text = block(invoke('f', param('x', 'one'), param('x', 'two')))
    const s = streamed(chars(text))
    expect(s.aborts).toEqual([{ type: 'tool-call-abort', id: 'id0', code: 'streamed-arguments-changed' }])
    expect(s.rest.filter((e) => e.type === 'tool-call')).toEqual([])
    expect(s.rest.filter((e) => e.type === 'diagnostic').map((e) => (e as { code: string }).code)).toEqual(['streamed-arguments-changed'])
  })

  it('should support an abort with the call\'s problem under onInvalid: "reject"', () => {
    const tools = [{ name: 'f', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }]
    const s = streamed(chars(block(invoke('f', param('m', 'x')))), { tools, onInvalid: 'reject' })
    expect(s.aborts.map((e) => e.code)).toEqual(['invalid-arguments'])
  })

  it('should not support a start for a tool onInvalid: "reject" refuses by name', () => {
    const s = streamed(chars(block(invoke('nope', param('m', 'x')))), { tools: ['f'], onInvalid: 'reject' })
    expect(s.starts).toEqual([])
    expect(s.rest.some((e) => e.type === 'diagnostic' && e.code === 'unknown-tool')).toBe(true)
  })
})

describe('streamed tool calls that never start', () => {
  it('should not support a start inside a code fence or a code span', () => {
    for (const text of ['```\n' + readFile + '\n```\n', 'see `' + readFile + '` here']) {
      expect(streamed(chars(text)).starts).toEqual([])
    }
  })

  it('should not support a start while a backtick before the block is unmatched, and should support it once the paragraph decides', () => {
    const sieve = createSieve({ streamArguments: true })
    const held = sieve.push('a ` b ' + readFile.slice(0, 80))
    expect(held.filter((e) => e.type === 'tool-call-start')).toEqual([])
    const rest = [...sieve.push(readFile.slice(80) + '\n\nnext paragraph'), ...sieve.end()]
    expect(rest.filter((e) => e.type === 'tool-call-start').length).toBe(1)
  })

  it('should not support a start for a bare invoke mentioned in prose', () => {
    const s = streamed(chars('use <invoke name="read_file"> to read files'))
    expect(s.starts).toEqual([])
  })

  it('should not support a start in the reasoning', () => {
    const s = streamed(chars(`<think>maybe ${readFile}</think>answer`))
    expect(s.starts).toEqual([])
  })

  it('should not support a start for a block that repeats a quoted example, and should support one that departs from it', () => {
    const example = block(invoke('delete_file', param('path', '/etc/passwd')))
    const same = streamed(chars(example), { quoted: [`what does ${example} do?`] })
    expect(same.starts).toEqual([])
    expect(same.rest.some((e) => e.type === 'diagnostic' && e.code === 'quoted-example')).toBe(true)
    const sieve = createSieve({ streamArguments: true, quoted: [example] })
    const other = block(invoke('delete_file', param('path', '/tmp/x')))
    const cut = other.indexOf('/tmp/x') + '/tmp/x'.length + C.length + 'parameter>\n'.length + C.length + 'invoke>'.length + 1
    const early = sieve.push(other.slice(0, cut))
    expect(early.filter((e) => e.type === 'tool-call-start').length, 'started once its invoke differs').toBe(1)
    expect([...sieve.push(other.slice(cut)), ...sieve.end()].some((e) => e.type === 'tool-call')).toBe(true)
  })
})

describe('streamed tool calls across a checkpoint', () => {
  it('should support resuming mid-value with the same id and the rest of the arguments', () => {
    const text = block(invoke('w', param('content', 'hello world, streamed across a checkpoint')))
    const cut = text.indexOf('world')
    let n = 0
    const first = createSieve({ streamArguments: true, generateId: () => `id${n++}` })
    const before = first.push(text.slice(0, cut))
    const resumed = createSieve({ streamArguments: true, resume: first.checkpoint(), generateId: () => `id${n++}` })
    const after = [...resumed.push(text.slice(cut)), ...resumed.end()]
    const all = [...before, ...after]
    const deltas = all.filter((e) => e.type === 'tool-call-delta').map((e) => (e as { delta: string }).delta).join('')
    const call = all.find((e) => e.type === 'tool-call') as { id: string; arguments: string }
    expect(call.id).toBe('id0')
    expect(deltas).toBe(call.arguments)
  })
})
