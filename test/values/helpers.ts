/**
 * Helpers for the value and schema specs: build one-invoke blocks, run them
 * through a chunking matrix with strict-mode `error` events and attached
 * call diagnostics kept, and check every chunking gives the same result.
 */
import { expect } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'
import { chunkings } from '../helpers/chunking.js'

/** A parameter in plain XML: `<parameter name="…"…>value</parameter>`. */
export function param(name: string, value: string, attrs = ''): string {
  return `<parameter name="${name}"${attrs}>${value}</parameter>`
}

/** A whole block with one invoke of `tool` around `body`. */
export function block(body: string, tool = 'f'): string {
  return `<tool_calls><invoke name="${tool}">${body}</invoke></tool_calls>`
}

/** The same in DeepSeek's U+FF5C spelling. */
export function dsml(body: string, tool = 'f'): string {
  return `<｜DSML｜tool_calls><｜DSML｜invoke name="${tool}">${body}</｜DSML｜invoke></｜DSML｜tool_calls>`
}

export function dsmlParam(name: string, value: string, attrs = ''): string {
  return `<｜DSML｜parameter name="${name}"${attrs}>${value}</｜DSML｜parameter>`
}

/** An event with its id and message made comparable. */
export type Plain = Record<string, unknown>

function plain(events: readonly SieveEvent[]): Plain[] {
  const out: Plain[] = []
  for (const e of events) {
    if (e.type === 'text') {
      const last = out[out.length - 1]
      if (last?.type === 'text') last.text = (last.text as string) + e.text
      else if (e.text !== '') out.push({ type: 'text', text: e.text })
    } else if (e.type === 'tool-call') {
      // the same as JSON.stringify(input) but for numbers, which keep the digits the model wrote
      expect(JSON.parse(e.arguments)).toEqual(e.input)
      out.push({ ...e, id: '<id>' })
    } else if (e.type === 'diagnostic' || e.type === 'error') {
      expect(e.message.length).toBeGreaterThan(0)
      out.push({ ...e })
    } else out.push({ ...e })
  }
  return out
}

function run(chunks: readonly string[], opts: SieveOptions): SieveEvent[] {
  const sieve = createSieve(opts)
  const events: SieveEvent[] = []
  for (const c of chunks) events.push(...sieve.push(c))
  events.push(...sieve.end())
  return events
}

/**
 * Runs `input` whole and under every chunking (every split point, one unit at
 * a time, random splits), expects the same events each time and that text
 * plus call raws rebuild the input. Returns the events of the whole run.
 */
export function stable(input: string, opts: SieveOptions = {}): Plain[] {
  const reference = plain(run([input], opts))
  let rebuilt = ''
  for (const e of reference) rebuilt += e.type === 'text' ? (e.text as string) : e.type === 'tool-call' ? (e.raw as string) : ''
  expect(rebuilt, 'text and raws rebuild the input').toBe(input)
  for (const { name, chunks } of chunkings(input, undefined, 2)) {
    if (name !== 'whole') expect(plain(run(chunks, opts)), `chunking "${name}"`).toEqual(reference)
  }
  return reference
}

/** The input of the one call `input` holds (no text, no diagnostics), checked under every chunking. */
export function inputOf(input: string, opts: SieveOptions = {}): Record<string, unknown> {
  const events = stable(input, opts)
  expect(events.map((e) => e.type)).toEqual(['tool-call'])
  return events[0]!.input as Record<string, unknown>
}

/** The value of parameter `name` decoded from `value` (plain XML, no schema). */
export function valueOf(name: string, value: string, attrs = ''): unknown {
  return inputOf(block(param(name, value, attrs)))[name]
}

/** Event types and codes, compactly: `'tool-call'`, `'text'`, `'diagnostic:unknown-tool'`. */
export function shape(events: readonly Plain[]): string[] {
  return events.map((e) => (e.type === 'diagnostic' || e.type === 'error' ? `${e.type as string}:${e.code as string}` : (e.type as string)))
}
