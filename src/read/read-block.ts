// PROVISIONAL (replaced by the reader branch on merge): hermes JSON only, for wiring tests
import type { Node } from '../values/node.js'
import { parseJson } from '../values/json.js'
import type { DialectPack } from '../dialects/types.js'
export interface ReadCall { name: string; id?: string; params: Array<[string, Node]> | null; body: Record<string, unknown> | null; end: number }
export type ReadBlockResult = { ok: true; calls: ReadCall[] } | { ok: false; reason: string }
export function readBlock(pack: DialectPack, text: string): ReadBlockResult {
  const a = text.indexOf('>'), b = text.lastIndexOf('</')
  if (pack.name !== 'hermes' || a < 0 || b < a) return { ok: false, reason: 'provisional' }
  const r = parseJson(text.slice(a + 1, b).trim())
  if (!r.ok || typeof r.value !== 'object' || r.value === null) return { ok: false, reason: 'bad json' }
  const v = r.value as { name?: unknown; arguments?: unknown }
  if (typeof v.name !== 'string') return { ok: false, reason: 'no name' }
  return { ok: true, calls: [{ name: v.name, params: null, body: (v.arguments ?? {}) as Record<string, unknown>, end: text.length }] }
}
