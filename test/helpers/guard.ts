/** What the guard specs (Markdown and HTML) share: a compact live block, an example block, and their expectations. */
import { expect } from 'vitest'
import { calls, codes, expectChunkInvariant } from './chunking.js'
import { SPELLINGS, readFile } from './blocks.js'

/** A compact live block. */
export const live = '<tool_calls><invoke name="a"><parameter name="path">src/a.ts</parameter></invoke></tool_calls>'
export const call = { call: 'a', input: { path: 'src/a.ts' } }
/** {@link live} calling the tool `name`, and its outline entry. */
export const liveNamed = (name: string) => live.replace('"a"', `"${name}"`)
export const callNamed = (name: string) => ({ call: name, input: { path: 'src/a.ts' } })
/** A DeepSeek-style example block, as documentation shows it. */
export const example = readFile('src/example.ts', SPELLINGS[0]!)

/** `input` is all text, in every chunking. */
export function expectText(input: string): void {
  expect(expectChunkInvariant(input)).toEqual([{ type: 'text', text: input }])
}

/** `input` gives the one call {@link live} makes and no diagnostic, in every chunking. */
export function expectOneCall(input: string): void {
  const events = expectChunkInvariant(input)
  expect(calls(events)).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
  expect(codes(events)).toEqual([])
}
