/**
 * JSON nested far deeper than the call stack (5,000 levels and more) in a
 * `string="false"` value, a JSON body or a plain literal: parsed, coerced,
 * written as `arguments` and validated without recursion per level, so the
 * block is a call (or a clean `bad-json-value`) and the text around it
 * survives. `JSON.stringify` used to throw here, and the block and the rest
 * of the chunk were lost.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions, ToolCallEvent } from '../../src/types.js'
import { maxValidatedDepth } from '../../src/sieve/calls.js'
import { block, dsml, dsmlParam, param } from './helpers.js'

const json = ' string="false"'
const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n)
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)

/** Whole, one unit at a time, and in 97-unit pieces: the same events each way (the full matrix is too slow at this size). */
function events(input: string, opts: SieveOptions = {}): SieveEvent[] {
  const runs = [[input], [...input], input.match(/[^]{1,97}/g)!].map((chunks) => {
    const sieve = createSieve({ ...opts, generateId: () => 'id' })
    const out = chunks.flatMap((c) => sieve.push(c))
    return [...out, ...sieve.end()]
  })
  const merged = runs.map(mergeText)
  // compared without `input`: a deep equality check of 5,000 levels is itself recursive; `arguments` says the same
  const flat = (list: SieveEvent[]) => list.map((e) => (e.type === 'tool-call' ? { ...e, input: null } : e))
  expect(flat(merged[1]!)).toEqual(flat(merged[0]!))
  expect(flat(merged[2]!)).toEqual(flat(merged[0]!))
  return merged[0]!
}

function mergeText(list: SieveEvent[]): SieveEvent[] {
  const out: SieveEvent[] = []
  for (const e of list) {
    const last = out[out.length - 1]
    if (e.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + e.text }
    else out.push(e)
  }
  return out
}

function depthOf(v: unknown): number {
  let d = 0
  while (v !== null && typeof v === 'object') {
    v = Array.isArray(v) ? v[0] : (v as Record<string, unknown>).a
    d++
  }
  return d
}

const only = (list: SieveEvent[], type: string) => list.filter((e) => e.type === type)

describe('deep JSON', () => {
  it('should support a string="false" value nested 5,000 deep, and the text after it', () => {
    const value = arrays(5000)
    const list = events('before ' + dsml(dsmlParam('v', value, json)) + ' after')
    expect(list.map((e) => e.type)).toEqual(['text', 'tool-call', 'text'])
    const call = list[1] as ToolCallEvent
    expect(call.arguments).toBe(`{"v":${value}}`)
    expect(depthOf(call.input.v)).toBe(5000)
    expect(list[2]).toEqual({ type: 'text', text: ' after' })
  })

  it('should support a JSON body nested 5,000 deep', () => {
    const list = events(block(objects(5000)))
    expect(list.map((e) => e.type)).toEqual(['tool-call'])
    expect((list[0] as ToolCallEvent).arguments).toBe(objects(5000))
  })

  it('should support a plain JSON literal nested 20,000 deep (rule 4)', () => {
    const list = events(block(param('v', arrays(20000))))
    expect(depthOf((list[0] as ToolCallEvent).input.v)).toBe(20000)
  })

  it('should not support deep JSON that never closes: a clean bad-json-value, kept as text', () => {
    const list = events(block(param('v', '['.repeat(5000), json)))
    expect(list.map((e) => (e.type === 'diagnostic' ? e.code : e.type))).toEqual(['tool-call', 'bad-json-value'])
    expect((list[0] as ToolCallEvent).input.v).toBe('['.repeat(5000))
  })

  it('should support a string schema over deep JSON: the exact text', () => {
    const opts = { tools: [{ name: 'f', inputSchema: { type: 'object', properties: { v: { type: 'string' } } } }] }
    const list = events(block(param('v', arrays(5000), json)), opts)
    expect((list[0] as ToolCallEvent).input.v).toBe(arrays(5000))
  })

  it('should support coercion through a recursive schema at any depth', () => {
    const tree = { $ref: '#/$defs/tree' }
    const schema = { type: 'object', properties: { v: tree }, $defs: { tree: { type: 'array', items: tree } } }
    const list = events(block(param('v', arrays(5000), json)), { tools: [{ name: 'f', inputSchema: schema }] })
    expect(depthOf((list[0] as ToolCallEvent).input.v)).toBe(5000)
  })
})

describe('deep JSON and validation', () => {
  const tree = { $ref: '#/$defs/tree' }
  const tools = [{ name: 'f', inputSchema: { type: 'object', properties: { v: tree }, $defs: { tree: { type: 'array', items: tree } } } }]

  it('should support validating input up to the depth limit', () => {
    // the input object is one level, the value the rest
    const list = events(block(param('v', arrays(maxValidatedDepth - 1), json)), { tools })
    expect(list.map((e) => e.type)).toEqual(['tool-call'])
  })

  it('should not support validating deeper input: the call with invalid-arguments, nothing thrown', () => {
    const list = events(block(param('v', arrays(5000), json)) + ' after', { tools })
    expect(list.map((e) => (e.type === 'diagnostic' ? e.code : e.type))).toEqual(['tool-call', 'invalid-arguments', 'text'])
    expect((list[1] as { message: string }).message).toMatch(/nested 5001 levels deep/)
    expect(only(list, 'diagnostic').map((e) => (e as { code: string }).code)).not.toContain('internal-error')
  })

  it("should not support deeper input with onInvalid 'reject': the block is text", () => {
    const input = block(param('v', arrays(maxValidatedDepth + 10), json))
    const list = events(input, { tools, onInvalid: 'reject' })
    expect(list.map((e) => (e.type === 'diagnostic' ? e.code : e.type))).toEqual(['text', 'invalid-arguments'])
    expect(list[0]).toEqual({ type: 'text', text: input })
  })
})
