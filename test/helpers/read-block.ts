/**
 * What the block-reader tests share: finding blocks in a model's whole
 * output the way the engine will (an opener from `blockDelimiters`, then the
 * first closer after it, reasoning regions left alone), and a read call's
 * input as the sieve builds it (`buildInput`, numbers settled to doubles).
 */
import type { DialectPack } from '../../src/dialects/types.js'
import { blockDelimiters, readBlock, type ReadCall } from '../../src/read/read-block.js'
import { buildInput } from '../../src/schema/input.js'
import { writeJson } from '../../src/values/json-write.js'
import { isPlainObject } from '../../src/values/own.js'

/** The families `readBlock` is for: packs whose blocks are captured between literal or tag delimiters. */
export const blockFamilies = ['hermes', 'glm', 'kimi-k2', 'kimi-k3', 'deepseek-v3', 'hunyuan', 'internlm', 'jamba', 'minimax-m1', 'phi-4-mini', 'pythonic', 'step3', 'xlam', 'apertus', 'gemma4']

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The input with the pack's reasoning regions (literal delimiters) taken out: a call written in reasoning is text. */
export function withoutReasoning(pack: DialectPack, input: string, startsInReasoning: boolean): string {
  let out = input
  for (const r of pack.regions ?? []) {
    if (r.kind !== 'reasoning' || r.open.kind !== 'literal' || r.close.kind !== 'literal') continue
    const close = `(?:${r.close.text.map(esc).join('|')})`
    if (r.startsOpen === true && startsInReasoning) out = out.replace(new RegExp(`^[\\s\\S]*?${close}`), '')
    out = out.replace(new RegExp(`(?:${r.open.text.map(esc).join('|')})[\\s\\S]*?${close}`, 'g'), '')
  }
  return out
}

/** Each block's text, opener through closer, in order; a block with no closer is not captured. */
export function blocksIn(pack: DialectPack, text: string): string[] {
  const specs = blockDelimiters(pack).filter((d) => d !== null)
  const out: string[] = []
  let at = 0
  for (;;) {
    let best: { i: number; open: string } | null = null
    for (const d of specs) {
      for (const o of d.open) {
        const i = text.indexOf(o, at)
        if (i !== -1 && (best === null || i < best.i || (i === best.i && o.length > best.open.length))) best = { i, open: o }
      }
    }
    if (best === null) return out
    const from = best.i + best.open.length
    const closers = specs.filter((d) => d.open.includes(best.open)).flatMap((d) => d.close)
    let end = -1
    for (const c of closers) {
      const j = text.indexOf(c, from)
      if (j !== -1 && (end === -1 || j + c.length < end)) end = j + c.length
    }
    if (end === -1) return out
    out.push(text.slice(best.i, end))
    at = end
  }
}

export interface Call {
  name: string
  input: Record<string, unknown>
}

/** A read call's input as the sieve makes it: coerced to `schema` when given, numbers as doubles. */
export function inputOf(call: ReadCall, schema: Record<string, unknown> | null): Record<string, unknown> {
  const d = { ok: true as const, name: call.name, params: call.params, body: call.body, problems: [] }
  let input = buildInput(d, schema)
  if (!isPlainObject(input)) input = buildInput(d, null)
  writeJson(input, { settle: true })
  return input
}

/** Every block of `text` read: the calls, and the reason of each block refused. */
export function readAll(pack: DialectPack, text: string, schemaOf: (name: string) => Record<string, unknown> | null): { calls: Call[]; refused: string[] } {
  const calls: Call[] = []
  const refused: string[] = []
  for (const block of blocksIn(pack, text)) {
    const r = readBlock(pack, block)
    if (!r.ok) refused.push(r.reason)
    else for (const c of r.calls) calls.push({ name: c.name, input: inputOf(c, schemaOf(c.name)) })
  }
  return { calls, refused }
}
