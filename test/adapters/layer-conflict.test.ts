/**
 * The shared adapter layer: the gate between rescued calls and native ones
 * in one turn (src/adapters/conflict.ts).
 */
import { describe, expect, it } from 'vitest'
import { NativeConflictGate, type AdapterAction } from '../../src/adapters/index.js'
import type { ToolCallEvent } from '../../src/types.js'

const callEvent = { type: 'tool-call', id: 'c1', name: 'ls', input: {}, arguments: '{}', raw: '', span: { start: 0, end: 0 } } satisfies ToolCallEvent
const rescued: AdapterAction[] = [
  { type: 'call-start', id: 'c1', name: 'ls', index: 0 },
  { type: 'call-delta', id: 'c1', index: 0, delta: '{}' },
  { type: 'call-end', id: 'c1', index: 0, call: callEvent },
]
const text: AdapterAction = { type: 'text', text: 'hi' }

function code(f: () => unknown): string | undefined {
  try {
    f()
  } catch (e) {
    return (e as { code?: string }).code
  }
  return undefined
}

describe('native and rescued calls in one turn', () => {
  it('should support rescued calls going straight out when no native call came', () => {
    const gate = new NativeConflictGate('error')
    expect(gate.pass([text, ...rescued])).toEqual([text, ...rescued])
    expect(gate.hasRescued).toBe(true)
  })

  it('should not support a rescued call after a native one (error policy)', () => {
    const gate = new NativeConflictGate('error')
    gate.sawNative()
    expect(gate.pass([text])).toEqual([text])
    expect(code(() => gate.pass(rescued))).toBe('native-conflict')
  })

  it('should not support a native call after a rescued one went out (error policy)', () => {
    const gate = new NativeConflictGate('error')
    gate.pass(rescued)
    expect(code(() => gate.sawNative())).toBe('native-conflict')
  })

  it('should support prefer-native: rescued calls held to the end, given when no native came', () => {
    const gate = new NativeConflictGate('prefer-native')
    expect(gate.pass([text, ...rescued])).toEqual([text])
    expect(gate.hasRescued).toBe(true)
    expect(gate.finish()).toEqual(rescued)
  })

  it('should not support prefer-native giving rescued calls when a native came, before or after them', () => {
    const before = new NativeConflictGate('prefer-native')
    before.sawNative()
    expect(before.pass(rescued)).toEqual([])
    expect(before.finish()).toEqual([])
    const after = new NativeConflictGate('prefer-native')
    after.pass(rescued)
    after.sawNative()
    expect(after.finish()).toEqual([])
  })

  it('should not support prefer-native giving the pieces of a held call that aborted', () => {
    const gate = new NativeConflictGate('prefer-native')
    gate.pass([rescued[0]!, rescued[1]!, { type: 'call-abort', id: 'c1', index: 0, code: 'malformed-block' }])
    expect(gate.finish()).toEqual([])
  })
})
