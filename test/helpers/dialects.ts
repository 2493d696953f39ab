/**
 * What the dialect suites run over: the packs the sieve reads and their
 * layouts, and the fixture files of `test/fixtures/dialects/` (each case
 * rendered by a model's own chat template or taken from a vLLM / SGLang
 * parser test), with the pack and layout `round-trip.json` names for each.
 */
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { createSieve, dialects } from '../../src/index.js'
import { readsWhole, unreadable, wholeSpecs } from '../../src/dialects/grammar.js'
import type { DialectPack } from '../../src/dialects/types.js'

/** The calls the dialect suites write in each pack: one with a string and a number, another, and one whose strings hold brackets, braces and both quotes inside nested containers (only the value's own last bracket ends a block). */
export const readCall = { name: 'read_file', input: { path: 'src/a.ts', limit: 40 } }
export const otherCall = { name: 'list_dir', input: { path: '.' } }
export const trickyCall = { name: 'edit', input: { code: 'a[0] = "}"; b = {x: \']\'}', nested: { list: [[1, 2], { k: '{"\\' }] }, more: '[[[' } }

/** The smallest capture limit a sieve reading `dialect` accepts, from `from` up (the grammar's longest delimiter). */
export function smallestCaptureLimit(dialect: string, from = 1): number {
  const accepts = (captureLimit: number): boolean => {
    try {
      createSieve({ dialect, captureLimit })
      return true
    } catch {
      return false
    }
  }
  let limit = from
  while (!accepts(limit)) limit++
  return limit
}

/** Every pack the sieve reads, the default's (`deepseek`) among them. */
export const readPacks: DialectPack[] = Object.values(dialects).filter((p) => unreadable(p) === null)

/** The block specs of `pack` the sieve reads: those it reads whole, or else every one (read by tags). */
export function readLayouts(pack: DialectPack): number[] {
  return readsWhole(pack) ? wholeSpecs(pack) : pack.blocks.map((_, i) => i)
}

/** `test/fixtures/dialects/`. */
export const fixtureDir = new URL('../fixtures/dialects/', import.meta.url)

/** A JSON file of `test/fixtures/dialects/`, parsed. */
export function fixture<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(file, fixtureDir), 'utf8')) as T
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

/** A fixture file as `round-trip.json` lists it, by its name in its folder. */
export interface PlannedFile {
  dialect: string
  variant?: string
  /** The ids the template writes, `{name}` and `{index}` filled in (rendered files). */
  ids?: string
  /** The parser's cases are what the pack writes (parsers files). */
  roundTrip?: boolean
}

/** `round-trip.json`: the fixture files of each folder, and the reason of each case (`file#id`) that cannot round-trip. */
export const plan = fixture<{ rendered: Record<string, PlannedFile>; parsers: Record<string, PlannedFile>; exceptions: Record<string, string> }>('round-trip.json')
const entries = (folder: 'rendered' | 'parsers'): FixtureFile[] =>
  Object.entries(plan[folder]).map(([f, v]) => ({ file: `${folder}/${f}`, dialect: v.dialect, ...(v.variant === undefined ? {} : { variant: v.variant }), rendered: folder === 'rendered' }))

/** Every fixture file, rendered ones first. */
export const fixtureFiles: readonly FixtureFile[] = [...entries('rendered'), ...entries('parsers')]

/** A case's calls as `{ name, input }`, with an `id` where `ids` (a {@link PlannedFile}'s) gives one. */
export function callsOf(calls: FixtureCase['calls'], ids?: string): Array<{ name: string; input: Record<string, unknown>; id?: string }> {
  return calls.map((k, i) => ({ name: k.name, input: k.arguments, ...(ids === undefined ? {} : { id: ids.replace('{name}', k.name).replace('{index}', String(i)) }) }))
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
