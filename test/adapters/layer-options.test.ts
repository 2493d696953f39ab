/**
 * The shared adapter layer: options read from a request
 * (src/adapters/options.ts, quoted.ts) and sieve events as actions
 * (actions.ts), as every adapter relies on them.
 */
import { describe, expect, it } from 'vitest'
import { createActionSieve, quotedTexts, resolveAdapterOptions, sieveTools, type AdapterAction, type AdapterOptions } from '../../src/adapters/index.js'
import type { ToolsieveError } from '../../src/index.js'
import type { DiagnosticEvent, ErrorEvent } from '../../src/types.js'
import { refusal } from '../helpers/refusal.js'

const call = (name: string, params: string) => `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="${name}">\n${params}\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
const param = (k: string, v: string, s = true) => `<｜DSML｜parameter name="${k}" string="${s}">${v}</｜DSML｜parameter>`

function actions(input: string, options: AdapterOptions = {}): AdapterAction[] {
  const sieve = createActionSieve(resolveAdapterOptions(options))
  return [...sieve.push(input), ...sieve.end()]
}

const refused = (options: unknown): ToolsieveError => refusal(() => resolveAdapterOptions(options as AdapterOptions))

describe('actions', () => {
  it('should support a call as start, its whole arguments, end (no streamArguments)', () => {
    const out = actions(`Hi.\n\n${call('ls', param('dir', 'src'))}`, { generateId: () => 'call_a' })
    expect(out.map((a) => (a.type === 'call-end' ? { ...a, call: a.call.name } : a))).toEqual([
      { type: 'text', text: 'Hi.' },
      { type: 'call-start', id: 'call_a', name: 'ls', index: 0 },
      { type: 'call-delta', id: 'call_a', index: 0, delta: '{"dir":"src"}' },
      { type: 'call-end', id: 'call_a', index: 0, call: 'ls' },
    ])
  })

  it('should support reasoning between reasoning-start and reasoning-end, closed before the answer', () => {
    expect(actions('<think>hmm</think>Yes.')).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'hmm' },
      { type: 'reasoning-end' },
      { type: 'text', text: 'Yes.' },
    ])
  })

  it('should support thinking (a request parameter) as starting inside the reasoning', () => {
    for (const thinking of [true, { type: 'enabled' }]) {
      expect(actions('plan</think>ok', { thinking }).filter((a) => a.type === 'reasoning' || a.type === 'text')).toEqual([
        { type: 'reasoning', text: 'plan' },
        { type: 'text', text: 'ok' },
      ])
    }
    expect(actions('plan</think>ok', { thinking: { type: 'disabled' } })).toEqual([{ type: 'text', text: 'plan</think>ok' }])
  })

  it('should support onDiagnostic receiving what the wire has no place for', () => {
    const seen: (DiagnosticEvent | ErrorEvent)[] = []
    actions(call('rm', param('path', '/')), { tools: ['ls'], onDiagnostic: (d) => seen.push(d) })
    expect(seen.map((d) => d.code)).toEqual(['unknown-tool'])
  })
})

describe('options from a request', () => {
  it('should support Responses and AI SDK function tools (schemas checked) and leave built-in tools out', () => {
    const { defs, from } = sieveTools([
      { type: 'web_search' },
      { type: 'function', name: 'add', parameters: { type: 'object', properties: { a: { type: 'number' } } }, strict: true },
      { type: 'function', name: 'any', parameters: null },
      { type: 'custom', custom: { name: 'grammar_tool' } },
      { type: 'function', function: { name: 'chat' } },
    ])
    expect(defs).toEqual([{ name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }, { name: 'any' }, { type: 'function', function: { name: 'chat' } }])
    expect(from).toEqual([1, 2, 4])
    const out = actions(call('add', param('a', '2', false)), { tools: [{ type: 'function', name: 'add', parameters: { type: 'object', properties: { a: { type: 'number' } } } }] })
    const end = out.find((a) => a.type === 'call-end')
    expect(end?.type === 'call-end' && end.call.input).toEqual({ a: 2 })
  })

  it('should support quoted as the request messages: the last user message with text', () => {
    const messages = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: [{ type: 'text', text: 'run' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'input_text', text: 'this' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'result' }] },
    ]
    expect(quotedTexts(messages)).toEqual(['run\nthis'])
    expect(quotedTexts(['a', { role: 'user', content: 'b' }])).toEqual(['a', 'b'])
    expect(quotedTexts('just text')).toEqual(['just text'])
    const example = call('ls', param('dir', 'src'))
    const out = actions(example, { quoted: [{ role: 'user', content: `Please explain:\n${example}` }] })
    expect(out).toEqual([{ type: 'text', text: example }])
  })

  it('should not support bad options: refused up front, naming the field', () => {
    expect(refused('x').code).toBe('invalid-option')
    expect(refused({ trimBlankLines: 'yes' }).field).toBe('trimBlankLines')
    expect(refused({ streamArguments: 1 }).field).toBe('streamArguments')
    expect(refused({ onConflict: 'first' }).field).toBe('onConflict')
    expect(refused({ thinking: 'on' }).field).toBe('thinking')
    expect(refused({ quoted: 3 }).field).toBe('quoted')
    expect(refused({ quoted: ['a', 7] }).field).toBe('quoted[1]')
    expect(refused({ tools: {} }).field).toBe('tools')
    expect(refused({ tools: [7] }).field).toBe('tools[0]')
    expect(refused({ onDiagnostic: 'log' }).field).toBe('onDiagnostic')
    expect(refused({ captureLimit: -1 }).field).toBe('captureLimit')
  })

  it('should not support a bad tool named by its index in the caller\'s list, built-ins skipped before it', () => {
    const e = refused({ tools: [{ type: 'web_search' }, { type: 'function', name: '', parameters: null }] })
    expect(e.field).toBe('tools[1]')
    const schema = refused({ tools: [{ type: 'file_search' }, { type: 'function', name: 'x', parameters: { type: 'nope' } }] })
    expect(schema.field).toBe('tools[1]')
    expect(schema.message).toContain('tools[1]')
  })
})
