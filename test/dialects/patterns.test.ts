/**
 * The reading data the writer does not use, checked against the fixtures:
 * where a pack reads the name from a head or header with a pattern, the
 * pattern, applied where the pack says the head is, finds every case's call
 * names in order (the rendered cases and the parsers' cases with calls). Reasoning
 * regions are cut out first, as a reader would leave them alone.
 */
import { describe, expect, it } from 'vitest'
import { dialects } from '../../src/index.js'
import type { BlockSpec, Delimiter, DialectPack } from '../../src/dialects/types.js'
import { fixture, fixtureFiles, type FixtureCase } from '../helpers/dialects.js'

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function spelled(pack: DialectPack, d: Delimiter): string[] {
  if (d.kind === 'literal') return d.text
  if (d.kind === 'tag') return [(pack.tagSpelling?.open ?? '<') + d.name + (pack.tagSpelling?.end ?? '>')]
  return []
}

/** The input with the pack's reasoning regions (literal delimiters) taken out. */
function withoutReasoning(pack: DialectPack, input: string): string {
  let out = input
  for (const r of pack.regions ?? []) {
    if (r.kind !== 'reasoning' || r.open.kind !== 'literal' || r.close.kind !== 'literal') continue
    const close = `(?:${r.close.text.map(esc).join('|')})`
    out = out.replace(new RegExp(`(?:${r.open.text.map(esc).join('|')})[\\s\\S]*?${close}`, 'g'), '')
    if (r.startsOpen === true) out = out.replace(new RegExp(`^[\\s\\S]*?${close}`), '')
  }
  return out
}

/** The names the block's head (or header) pattern reads from `input`, in order. */
function namesRead(pack: DialectPack, block: BlockSpec, input: string): string[] {
  const call = block.call
  if (call.name.from !== 'head' && call.name.from !== 'header') return []
  const name = new RegExp(call.name.pattern, 'u')
  const text = withoutReasoning(pack, input)
  if (call.name.from === 'header') {
    const env = pack.envelope!
    const headers = [...text.matchAll(new RegExp(`(?:^|${esc(env.start)})([^]*?)${esc(env.headerEnd)}`, 'g'))].map((m) => m[1]!)
    return headers.flatMap((h) => name.exec(h)?.groups?.name ?? [])
  }
  const openers = spelled(pack, call.open ?? block.open)
  const args = call.arguments
  const ahead = args.kind === 'json' && args.fence !== undefined ? '(?=\\n```)' : args.kind === 'pairs' ? '(?=\\s|<|$)' : '(?=[{\\s])'
  const sep = call.headSeparator
  const end = sep === undefined ? ahead : `(?:${sep.text.map(esc).join('|')}${sep.optional === true ? `|${ahead}` : ''})`
  const re = new RegExp(`(?:${openers.map(esc).join('|')})([^]*?)${end}`, 'g')
  return [...text.matchAll(re)].flatMap((m) => name.exec(m[1]!.trim())?.groups?.name ?? [])
}

describe('the head and header patterns against the fixtures', () => {
  for (const { file, dialect, variant } of fixtureFiles) {
    const pack = dialects[dialect]!
    const blocks = pack.blocks.filter((b) => variant === undefined || b.name === variant)
    const byPattern = blocks.filter((b) => b.call.name.from === 'head' || b.call.name.from === 'header')
    if (byPattern.length === 0) continue
    // a file of several layouts (Mistral's) holds cases no pattern reads: those are another block's, checked by none here
    const others = blocks.length > byPattern.length
    it(`should support ${file}: ${dialect}'s pattern reads every call's name`, () => {
      let checked = 0
      // a case with no call checks how a reader treats a broken or cut-off block, not the pattern
      for (const c of fixture<FixtureCase[]>(file).filter((x) => x.calls.length > 0)) {
        const want = c.calls.map((k) => k.name)
        const read = byPattern.map((b) => namesRead(pack, b, c.input))
        if (others && read.every((names) => names.length === 0)) continue
        expect(read, `${c.id}: ${c.input}`).toContainEqual(want)
        checked += want.length
      }
      expect(checked).toBeGreaterThan(0)
    })
  }
})
