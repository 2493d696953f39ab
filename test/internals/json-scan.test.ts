/**
 * The JSON block scanner (`src/sieve/json-scan.ts`) piece by piece, and the
 * checkpoint rules that keep its state one it can be in.
 */
import { describe, expect, it } from 'vitest'
import { initialScan, maxJsonDepth, phases, scanJson, type JsonScan, type ScanResult } from '../../src/lexer/json-scan.js'
import { createSieve, ToolsieveError } from '../../src/index.js'

const mistral = { open: ['[TOOL_CALLS]'], head: ['[ARGS]'] }
const plain = { open: ['<tool_call>'] }

/** Scans `pieces` one after another; the result of the last piece that said something, and where in the whole text. */
function scan(pieces: string[], spec: { open: string[]; head?: string[] }): { r: ScanResult; at: number; st: JsonScan } {
  const st = initialScan()
  let base = 0
  for (const p of pieces) {
    const r = scanJson(st, p, 0, spec)
    if (r.kind !== 'more') return { r, at: base + r.at, st }
    base += p.length
  }
  return { r: { kind: 'more' }, at: base, st }
}

describe('the JSON block scanner', () => {
  it('should support a value ending right after its last bracket, in any pieces', () => {
    const text = ' [{"a": "]}\\"[", "b": [1, {"c": "}"}]}] after'
    const end = text.indexOf(' after')
    for (let cut = 0; cut <= text.length; cut++) {
      const { r, at } = scan([text.slice(0, cut), text.slice(cut)], plain)
      expect(r.kind, `cut at ${cut}`).toBe('end')
      expect(at, `cut at ${cut}`).toBe(end)
    }
  })

  it('should support a head, its separator cut anywhere, and a head with no separator', () => {
    const text = 'read_file[ARGS]{"p": 1}x'
    for (let cut = 0; cut <= text.length; cut++) {
      const { r, at } = scan([text.slice(0, cut), text.slice(cut)], mistral)
      expect([r.kind, at], `cut at ${cut}`).toEqual(['end', text.length - 1])
    }
    expect(scan(['f{"p": 1}'], mistral).r).toEqual({ kind: 'end', at: 9 })
  })

  it('should not support a head where the grammar has none, a blank head, or a separator it does not finish', () => {
    expect(scan(['f{"p": 1}'], plain).r).toEqual({ kind: 'text', at: 0 })
    expect(scan([' f{"p": 1}'], mistral).r).toEqual({ kind: 'text', at: 1 })
    expect(scan(['f[AR', 'X]{}'], mistral).r.kind).toBe('text')
  })

  it('should not support a value whose brackets do not match, or nested past the limit', () => {
    expect(scan(['{"a": [1}'], plain).r).toMatchObject({ kind: 'broken', at: 9 })
    const deep = scan([`[{"a": ${'['.repeat(maxJsonDepth)}`], plain)
    expect(deep.r.kind).toBe('broken')
    expect(deep.st.stack.length).toBe(maxJsonDepth)
  })

  it('should not support what comes before the value growing without end', () => {
    const { r } = scan([' '.repeat(500) + '{}'], plain)
    expect(r.kind).toBe('text')
  })

  it('should support its state as plain JSON between pieces', () => {
    const st = initialScan()
    scanJson(st, '[{"a": "x\\', 0, plain)
    expect(JSON.parse(JSON.stringify(st))).toEqual({ phase: phases.value, stack: '[{', str: 2, before: 1, sep: '' })
  })
})

describe('checkpoints of a JSON block', () => {
  const at = (input: string) => {
    const s = createSieve({ dialect: 'mistral' })
    s.push(input)
    return JSON.parse(JSON.stringify(s.checkpoint())) as { state: { capture: { json: JsonScan } } }
  }

  it('should support resuming one taken mid-value', () => {
    const cp = at('Go [TOOL_CALLS][{"name": "f", "arguments": {"a": "}')
    expect(cp.state.capture.json.stack).toBe('[{{')
    const s = createSieve({ dialect: 'mistral', resume: cp as never })
    const events = [...s.push('"}}]'), ...s.end()]
    expect(events.filter((e) => e.type === 'tool-call').map((e) => e.type === 'tool-call' && e.input)).toEqual([{ a: '}' }])
  })

  it('should support a value pushed a character at a time as one token, not one per chunk', () => {
    const s = createSieve({ dialect: 'mistral' })
    const input = `[TOOL_CALLS][{"name": "f", "arguments": {"a": "${'x'.repeat(5000)}`
    for (const ch of input) s.push(ch)
    const cp = JSON.parse(JSON.stringify(s.checkpoint())) as { state: { capture: { tokens: Array<[string, string]> } } }
    expect(cp.state.capture.tokens.map(([, image]) => image.length)).toEqual(['[TOOL_CALLS]'.length, input.length - '[TOOL_CALLS]'.length])
  })

  it('should not support a scanner state it cannot be in, naming the field', () => {
    const edits: Array<[(j: JsonScan) => void, string]> = [
      [(j) => { j.stack = 'x' }, 'resume.state.capture.json.stack'],
      [(j) => { j.stack = '' }, 'resume.state.capture.json.stack'],
      [(j) => { j.phase = 99 }, 'resume.state.capture.json.phase'],
      [(j) => { j.str = 3 }, 'resume.state.capture.json.str'],
      [(j) => { j.before = 10_000 }, 'resume.state.capture.json.before'],
      [(j) => { (j as { phase: unknown }).phase = 'value' }, 'resume.state.capture.json.phase'],
    ]
    for (const [edit, field] of edits) {
      const cp = at('Go [TOOL_CALLS][{"name": "f", "arguments": {"a": "}')
      edit(cp.state.capture.json)
      const e = (() => { try { createSieve({ dialect: 'mistral', resume: cp as never }); return null } catch (x) { return x } })()
      expect(e).toBeInstanceOf(ToolsieveError)
      expect((e as ToolsieveError).code).toBe('invalid-checkpoint')
      expect((e as ToolsieveError).field).toBe(field)
    }
  })
})
