/**
 * What the dialect suites run over: the packs the sieve reads and their
 * layouts, and the fixture files of `test/fixtures/dialects/` (each case
 * rendered by a model's own chat template or taken from a vLLM / SGLang
 * parser test), with the pack and layout `round-trip.json` names for each.
 */
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { dialects } from '../../src/index.js'
import { readsWhole, unreadable, wholeSpecs } from '../../src/dialects/grammar.js'
import type { DialectPack } from '../../src/dialects/types.js'

/** Every pack the sieve reads, the default's (`deepseek`) among them. */
export const readPacks: DialectPack[] = Object.values(dialects).filter((p) => unreadable(p) === null)

/** The block specs of `pack` the sieve reads: those it reads whole, or else every one (read by tags). */
export function readLayouts(pack: DialectPack): number[] {
  return readsWhole(pack) ? wholeSpecs(pack) : pack.blocks.map((_, i) => i)
}

const dir = new URL('../fixtures/dialects/', import.meta.url)

/** A JSON file of `test/fixtures/dialects/`, parsed. */
export function fixture<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as T
}

/** One case of a fixture file: the model's output, the calls in it, and (where known) the text and reasoning around them. */
export interface FixtureCase {
  id: string
  input: string
  calls: Array<{ name: string; arguments: Record<string, unknown> }>
  text?: string | null
  reasoning?: string | null
  tools?: Array<{ function: { name: string; parameters: Record<string, unknown> } }>
}

/** A fixture file (`rendered/…` or `parsers/…`) and the pack, and layout where named, its cases are written in. */
export interface FixtureFile {
  file: string
  dialect: string
  variant?: string
  /** Rendered by a chat template (a case may start inside reasoning the template opened), not a parser's case. */
  rendered: boolean
}

type Plan = Record<string, { dialect: string; variant?: string }>
const plan = fixture<{ rendered: Plan; parsers: Plan }>('round-trip.json')
const entries = (folder: 'rendered' | 'parsers'): FixtureFile[] =>
  Object.entries(plan[folder]).map(([f, v]) => ({ file: `${folder}/${f}`, dialect: v.dialect, ...(v.variant === undefined ? {} : { variant: v.variant }), rendered: folder === 'rendered' }))

/** Every fixture file, rendered ones first. */
export const fixtureFiles: readonly FixtureFile[] = [...entries('rendered'), ...entries('parsers')]

/** A case's calls as `{ name, input }`. */
export function callsOf(calls: FixtureCase['calls']): Array<{ name: string; input: Record<string, unknown> }> {
  return calls.map((k) => ({ name: k.name, input: k.arguments }))
}

/** Every case an exceptions file reads otherwise is in its fixture file, and says why at some length. */
export function expectReasons(cases: Record<string, Record<string, { reason: string }>>): void {
  for (const [file, byId] of Object.entries(cases)) {
    const ids = fixture<FixtureCase[]>(file).map((c) => c.id)
    for (const [id, e] of Object.entries(byId)) {
      expect(ids, file).toContain(id)
      expect(e.reason.length).toBeGreaterThan(40)
    }
  }
}
