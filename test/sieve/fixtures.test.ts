/**
 * Chunk invariance on whole transcripts: each `test/fixtures/*.md` runs
 * through the chunking matrix and must give its sibling `*.expected.json`
 * (`{ calls: [{ name, input }], text, diagnostics: [codes] }`).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseToolCalls } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'

interface Expected {
  calls: { name: string; input: Record<string, unknown> }[]
  text: string
  diagnostics: string[]
}

const dir = fileURLToPath(new URL('../fixtures/', import.meta.url))
const names = readdirSync(dir)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -'.md'.length))
  .sort()

describe('fixtures', () => {
  it('should support at least six transcripts, each with an expected file', () => {
    expect(names.length).toBeGreaterThanOrEqual(6)
    for (const name of names) expect(readdirSync(dir)).toContain(`${name}.expected.json`)
  })

  describe.each(names)('%s', (name) => {
    const input = readFileSync(`${dir}${name}.md`, 'utf8')
    const expected = JSON.parse(readFileSync(`${dir}${name}.expected.json`, 'utf8')) as Expected

    it('should support the expected calls, text and diagnostics under every chunking', () => {
      const events = expectChunkInvariant(input)
      expect(calls(events)).toEqual(expected.calls)
      expect(textOf(events)).toBe(expected.text)
      expect(codes(events)).toEqual(expected.diagnostics)
    })

    it('should support the same result from parseToolCalls', () => {
      const result = parseToolCalls(input)
      expect(result.calls.map((c) => ({ name: c.name, input: c.input }))).toEqual(expected.calls)
      expect(result.text).toBe(expected.text)
      expect(result.diagnostics.map((d) => d.code)).toEqual(expected.diagnostics)
    })
  })
})
