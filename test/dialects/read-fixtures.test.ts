/**
 * The packs the sieve reads, against their fixtures: every case rendered by
 * the models' own chat templates and every vLLM / SGLang parser case
 * (`test/fixtures/dialects/`, provenance in its README), whole, one unit at
 * a time, split at every point (a sample for long inputs) and in random
 * chunks: the calls, the text (with the reasoning and its tags where they
 * stood) and the reasoning.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, dialects, type SieveOptions, type ToolDefinition } from '../../src/index.js'
import { calls, expectChunkInvariant, type Out } from '../helpers/chunking.js'
import { callsOf, expectReasons, fixture, fixtureFiles, readPacks, type FixtureCase } from '../helpers/dialects.js'

const exceptions = fixture<{
  cases: Record<string, Record<string, { reason: string; calls: unknown[]; text?: string }>>
  /** Fixture files of a pack the sieve reads in a layout other than theirs: each case is text, for the reason given. */
  files: Record<string, { reason: string }>
}>('read-exceptions.json')

/** The packs the sieve reads (`src/dialects/grammar.ts`), the default's aside (its own suites read its fixtures). */
const read = readPacks.filter((p) => p.name !== 'deepseek').map((p) => p.name)

const files = fixtureFiles.filter((f) => read.includes(f.dialect) && exceptions.files[f.file] === undefined)

/** The text as the input had it around the calls: text, and the reasoning with its tags where they stood. */
function textWithReasoning(events: readonly Out[]): string {
  return events.map((e) => (e.type === 'text' || e.type === 'reasoning' ? e.text : e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
}

const reasoningOf = (events: readonly Out[]): string => events.map((e) => (e.type === 'reasoning' ? e.text : '')).join('')

describe('reading dialect packs: their fixtures', () => {
  it('should support every fixture file, or a reason why it is not read', () => {
    for (const { file } of fixtureFiles) expect(files.some((f) => f.file === file) || exceptions.files[file] !== undefined, file).toBe(true)
    for (const [file, e] of Object.entries(exceptions.files)) {
      expect(e.reason.length, file).toBeGreaterThan(40)
      expect(files.some((f) => f.file === file), `${file} is read now: drop its reason`).toBe(false)
    }
  })

  for (const [file, { reason }] of Object.entries(exceptions.files)) {
    const { dialect } = fixtureFiles.find((f) => f.file === file)!
    if (!read.includes(dialect)) {
      it(`should not support reading the ${file} cases: the ${dialect} pack is refused at creation (${reason.slice(0, 60)}…)`, () => {
        expect(() => createSieve({ dialect })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'dialect' }))
      })
      continue
    }
    it(`should not support the ${file} cases, whose layout it does not read: text (${reason.slice(0, 60)}…)`, () => {
      for (const c of fixture<FixtureCase[]>(file)) expect(calls(expectChunkInvariant(c.input, { dialect })), c.id).toEqual([])
    })
  }

  for (const { file, dialect, rendered } of files) {
    it(`should support the ${file} cases (${dialect}) in every chunking`, () => {
      const cases = fixture<FixtureCase[]>(file)
      // a template that opens the reasoning in the prompt: its renderings start inside it (parser cases never do)
      const region = (dialects[dialect]!.regions ?? []).find((r) => r.kind === 'reasoning' && r.startsOpen === true)
      const openTag = region?.open.kind === 'literal' ? region.open.text[0]! : '<think>'
      for (const c of cases) {
        // the tools type the values; a parser test's tool list that leaves out the called tool is not declaring what may be called
        const named = c.tools !== undefined && c.calls.every((k) => c.tools!.some((t) => t.function.name === k.name))
        const tools: ToolDefinition[] | undefined = named ? c.tools!.map((t) => ({ name: t.function.name, inputSchema: t.function.parameters })) : undefined
        // a case with reasoning that does not open it itself starts inside it (the template opened it); R1's renderings of past turns have none
        const opens = rendered && region !== undefined && c.reasoning != null && !c.input.trimStart().startsWith(openTag)
        const opts: SieveOptions = { dialect, startInReasoning: opens, ...(tools === undefined ? {} : { tools }) }
        const events = expectChunkInvariant(c.input, opts)
        const expected = exceptions.cases[file]?.[c.id]?.calls ?? c.calls
        expect(calls(events), `${file} ${c.id}`).toEqual(callsOf(expected as FixtureCase['calls']))
        const text = exceptions.cases[file]?.[c.id]?.text ?? c.text
        if (text !== null) expect(textWithReasoning(events), `${file} ${c.id} text`).toBe(text)
        if (c.reasoning != null) expect(reasoningOf(events).trim(), `${file} ${c.id} reasoning`).toBe(c.reasoning.trim())
      }
    }, 120_000)
  }

  it('should support a reason for every case it reads otherwise', () => {
    expectReasons(exceptions.cases)
  })
})
