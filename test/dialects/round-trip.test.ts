/**
 * Round trip against the models' own chat templates: for every rendered
 * case (`test/fixtures/dialects/rendered/`, 420 cases by 14 templates),
 * `formatToolCalls` with the family's pack writes exactly the substring the
 * template wrote for the calls, and what is left of the input once the
 * blocks are taken out is the case's text. Where a case has reasoning, the
 * pack's reasoning region (or envelope route) is where the template put it.
 * Cases that cannot round-trip carry their reason in `round-trip.json`.
 */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dialects, formatToolCalls } from '../../src/index.js'
import type { DialectPack } from '../../src/dialects/types.js'
import { callsOf, fixture, fixtureDir, plan, type FixtureCase } from '../helpers/dialects.js'

/** A case as the fixtures write it, with where it comes from. */
interface Case extends FixtureCase {
  text: string | null
  reasoning?: string
  source: string
}
const read = (path: string) => fixture<Case[]>(path)

/** Where the written block sits in the input (after what the prompt wrote, for an envelope the prompt opened). */
function locate(pack: DialectPack, input: string, out: string): { at: number; block: string } {
  const at = input.indexOf(out)
  if (at !== -1) return { at, block: out }
  const opened = pack.envelope?.promptOpens
  if (opened !== undefined && out.startsWith(opened) && input.startsWith(out.slice(opened.length))) return { at: 0, block: out.slice(opened.length) }
  return { at: -1, block: out }
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The reasoning sits where one of the pack's reasoning regions (or envelope routes) says. */
function reasoningPlaced(pack: DialectPack, where: string, reasoning: string): boolean {
  for (const r of pack.regions ?? []) {
    if (r.kind !== 'reasoning' || r.open.kind !== 'literal' || r.close.kind !== 'literal') continue
    for (const close of r.close.text) {
      const body = esc(reasoning) + '\\s*' + esc(close)
      if (r.open.text.some((open) => new RegExp(esc(open) + '\\s*' + body).test(where))) return true
      if (r.startsOpen === true && new RegExp('^\\s*' + body).test(where)) return true
    }
  }
  const env = pack.envelope
  if (env !== undefined) {
    const message = new RegExp(`(?:^|${esc(env.start)})(.*?)${esc(env.headerEnd)}${esc(reasoning)}(?:${env.ends.map(esc).join('|')})`, 's').exec(where)
    const route = message === null ? undefined : env.routes.find((r) => new RegExp(r.header).test(message[1]!))
    return route?.to === 'reasoning'
  }
  return false
}

describe('formatToolCalls round trip with the rendered chat templates', () => {
  for (const [file, family] of Object.entries(plan.rendered)) {
    const pack = dialects[family.dialect]!
    describe(`${file} (${family.dialect}${family.variant === undefined ? '' : ` ${family.variant}`})`, () => {
      const cases = read(`rendered/${file}`)
      it('should support 30 cases rendered by the template', () => expect(cases).toHaveLength(30))
      for (const c of cases) {
        const reason = plan.exceptions[`${file}#${c.id}`]
        if (reason !== undefined) continue
        it(`should support ${c.id}: the template's block, byte for byte`, () => {
          const out = formatToolCalls(callsOf(c.calls, family.ids), { dialect: family.dialect, variant: family.variant })
          const { at, block } = locate(pack, c.input, out)
          expect(at, `${out}\nnot in\n${c.input}`).toBeGreaterThanOrEqual(0)
          const spec = pack.blocks.find((b) => b.name === (family.variant ?? pack.blocks[0]!.name))!
          if (c.text !== null) {
            // between separate blocks, a separator written as text stays text
            const between = spec.layout !== 'wrapper' && spec.separator.as === 'text' ? spec.separator.write.repeat(c.calls.length - 1) : ''
            expect(c.input.slice(0, at) + between + c.input.slice(at + block.length)).toBe(c.text)
          }
          if (c.reasoning !== undefined) expect(reasoningPlaced(pack, c.text ?? c.input, c.reasoning), 'reasoning where the pack puts it').toBe(true)
        })
      }
    })
  }
})

describe('formatToolCalls round trip with the parsers\' own cases', () => {
  for (const [file, family] of Object.entries(plan.parsers).filter(([, f]) => f.roundTrip === true)) {
    for (const c of read(`parsers/${file}`)) {
      const reason = plan.exceptions[`${file}#${c.id}`]
      if (reason !== undefined) continue
      it(`should support ${file} ${c.id} (${family.dialect})`, () => {
        expect(formatToolCalls(callsOf(c.calls, family.ids), { dialect: family.dialect, variant: family.variant })).toBe(c.input)
      })
    }
  }
})

describe('the fixtures\' provenance', () => {
  for (const [file, family] of Object.entries(plan.rendered)) {
    it(`should support ${file}: every case names its template, and the ${family.dialect} pack lists that template among its sources`, () => {
      const templates = new Set(read(`rendered/${file}`).map((c) => c.source.split(' — ')[0]!.split(' (')[0]!))
      expect(templates.size).toBe(1)
      const [template] = [...templates]
      expect(template).toMatch(/^\S+\/\S+ \S+@[0-9a-f]{40}$/)
      expect(dialects[family.dialect]!.sources.some((s) => s.startsWith(template!))).toBe(true)
    })
  }

  it('should support a source on every parser case, and a pack for every parser file', () => {
    const files = readdirSync(new URL('parsers/', fixtureDir)).filter((f) => f.endsWith('.json'))
    expect(Object.keys(plan.parsers).sort()).toEqual(files.sort())
    for (const [file, family] of Object.entries(plan.parsers)) {
      expect(dialects[family.dialect], file).toBeDefined()
      for (const c of read(`parsers/${file}`)) expect(c.source, `${file} ${c.id}`).toMatch(/\S/)
    }
  })
})

describe('the round-trip exceptions', () => {
  it('should support only exceptions that name a case that exists and give a reason', () => {
    const all = { ...plan.rendered, ...plan.parsers }
    for (const [key, reason] of Object.entries(plan.exceptions)) {
      const [file, id] = key.split('#') as [string, string]
      const family = all[file]
      expect(family, key).toBeDefined()
      const cases = read(`${file in plan.rendered ? 'rendered' : 'parsers'}/${file}`)
      expect(cases.map((c) => c.id), key).toContain(id)
      expect(reason.length, key).toBeGreaterThan(20)
    }
  })

  it('should not support an exception for a case that round-trips after all', () => {
    for (const key of Object.keys(plan.exceptions)) {
      const [file, id] = key.split('#') as [string, string]
      const family = (plan.rendered[file] ?? plan.parsers[file])!
      const c = read(`${file in plan.rendered ? 'rendered' : 'parsers'}/${file}`).find((x) => x.id === id)!
      if (c.calls.length === 0) continue
      expect(formatToolCalls(callsOf(c.calls, family.ids), { dialect: family.dialect, variant: family.variant }), key).not.toBe(c.input)
    }
  })
})
