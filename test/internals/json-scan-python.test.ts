/**
 * The JSON block scanner (`src/sieve/json-scan.ts`) on Python values
 * (`JsonBlocks.python`, the pythonic pack's `[f(a='x')]`): single-quoted
 * strings with escapes, a callee as an array's first item; and the
 * checkpoint rules on the string states that adds.
 */
import { describe, expect, it } from 'vitest'
import { initialScan, scanJson, type ScanResult } from '../../src/lexer/json-scan.js'
import { createSieve, ToolsieveError } from '../../src/index.js'

const python = { open: [], python: true }
const json = { open: [] }

function scan(pieces: string[], spec: { open: string[]; python?: boolean }): { r: ScanResult; at: number } {
  const st = initialScan()
  let base = 0
  for (const p of pieces) {
    const r = scanJson(st, p, 0, spec)
    if (r.kind !== 'more') return { r, at: base + r.at }
    base += p.length
  }
  return { r: { kind: 'more' }, at: base }
}

describe('the JSON block scanner on Python values', () => {
  it('should support single- and double-quoted strings with brackets, quotes and escapes, in any pieces', () => {
    const text = `[f(a='x]\\'"[', b="]'\\"", c=[1, {'k': ']'}]), g()] after`
    const end = text.indexOf(' after')
    for (let cut = 0; cut <= text.length; cut++) {
      const { r, at } = scan([text.slice(0, cut), text.slice(cut)], python)
      expect([r.kind, at], `cut at ${cut}`).toEqual(['end', end])
    }
  })

  it('should not support a callee or a single quote as a value\'s start in JSON values', () => {
    expect(scan(['[f(a=1)]'], json).r.kind).toBe('text')
    expect(scan(["{'a': 1}"], json).r.kind).toBe('text')
    // in JSON a single quote is no string: its bracket counts
    expect(scan(['{"a": \']\'}'], json).r.kind).toBe('broken')
  })

  it('should not support a checkpoint whose string state is a Python one in a JSON grammar', () => {
    const s = createSieve({ dialect: 'llama3-json' })
    s.push('{"name": "f", "parameters": {"a": "x')
    const saved = JSON.parse(JSON.stringify(s.checkpoint())) as { state: { capture: { json: { str: number } } } }
    expect(saved.state.capture.json.str).toBe(1)
    saved.state.capture.json.str = 3
    expect(() => createSieve({ dialect: 'llama3-json', resume: saved as never })).toThrow(ToolsieveError)
    const p = createSieve({ dialect: 'pythonic' })
    p.push("[f(a='x")
    const ok = JSON.parse(JSON.stringify(p.checkpoint())) as { state: { capture: { json: { str: number } } } }
    expect(ok.state.capture.json.str).toBe(3)
    expect(() => createSieve({ dialect: 'pythonic', resume: ok as never })).not.toThrow()
  })

  it('should not support a checkpoint still at the message start with text it could not hold', () => {
    const s = createSieve({ dialect: 'llama3-json' })
    s.push('  <|python')
    const saved = JSON.parse(JSON.stringify(s.checkpoint())) as { state: { pending: string; started?: unknown } }
    expect(saved.state.pending).toBe('  <|python')
    expect(saved.state.started).toBeUndefined()
    for (const pending of ['x', '<|python_tag|>', ' '.repeat(200)]) {
      const bad = { ...saved, state: { ...saved.state, pending } }
      expect(() => createSieve({ dialect: 'llama3-json', resume: bad as never }), pending).toThrow(ToolsieveError)
    }
    // right after a block there: a separator's start, or a separator and blanks, may wait; nothing else
    const b = createSieve({ dialect: 'llama3-json' })
    b.push('{"name": "f", "parameters": {}} ;')
    const after = JSON.parse(JSON.stringify(b.checkpoint())) as { state: { pending: string; started?: unknown } }
    expect(after.state).toMatchObject({ pending: ' ;', started: 'separator' })
    expect(() => createSieve({ dialect: 'llama3-json', resume: after as never })).not.toThrow()
    for (const pending of ['x', ' ; x', ' <|python_tag|>']) {
      const bad = { ...after, state: { ...after.state, pending } }
      expect(() => createSieve({ dialect: 'llama3-json', resume: bad as never }), pending).toThrow(ToolsieveError)
    }
    // a grammar with no anchored blocks has no such state
    const d = createSieve({ dialect: 'hermes' })
    const other = JSON.parse(JSON.stringify(d.checkpoint())) as { state: Record<string, unknown> }
    other.state.started = 'separator'
    expect(() => createSieve({ dialect: 'hermes', resume: other as never })).toThrow(ToolsieveError)
  })
})
