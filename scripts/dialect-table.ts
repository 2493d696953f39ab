/**
 * The table of dialect packs in README.md and docs/reference/dialects.md,
 * made from the packs and from what the sieve reads of them, so the tables
 * say what is true: `npx tsx scripts/dialect-table.ts` writes both between
 * their `<!-- dialects -->` markers, `--check` only compares (exit 1), and
 * test/dialects/dialect-table.test.ts checks them.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dialects } from '../src/dialects/registry.js'
import { readsWhole, unreadable, wholeSpecs } from '../src/dialects/grammar.js'
import type { DialectPack } from '../src/dialects/types.js'

/** The indexes of the blocks the sieve reads (all, read by tags; the delimited ones, read whole). */
function layoutsRead(pack: DialectPack): number[] {
  if (unreadable(pack) !== null) return []
  return readsWhole(pack) ? wholeSpecs(pack) : pack.blocks.map((_, i) => i)
}

/** What the sieve reads of `pack`, in a few words. */
function reads(pack: DialectPack, short: boolean): string {
  const why = unreadable(pack)
  if (why !== null) return short ? 'written only' : `written only: ${why}`
  const read = layoutsRead(pack)
  const how = readsWhole(pack) ? 'each block when it closes' : 'arguments streamed'
  if (read.length === pack.blocks.length) return short ? 'yes' : `yes, ${how}`
  const names = read.map((i) => pack.blocks[i]!.name).join(', ')
  return short ? `${names} layout${read.length > 1 ? 's' : ''}` : `the ${names} layout${read.length > 1 ? 's' : ''}, ${how}`
}

/** What the sieve does not read of `pack`: layouts left out, and the pack's own limits. */
function cannot(pack: DialectPack): string {
  const read = new Set(layoutsRead(pack))
  const left = unreadable(pack) === null ? pack.blocks.filter((_, i) => !read.has(i)).map((b) => `the ${b.name} layout (${b.anchored === true ? 'anchored at the message start' : b.close.kind === 'json-end' ? 'ends where its JSON ends' : 'its opener carries the name'})`) : []
  const all = [...(left.length > 0 ? [`not read: ${left.join('; ')}`] : []), ...(pack.limits ?? [])]
  return all.length === 0 ? '' : all.join(' ').replace(/\|/g, '\\|')
}

const cell = (s: string): string => s.replace(/\|/g, '\\|')

/** The table's lines: `docs` with every model and what each cannot, `readme` short. */
export function dialectTable(kind: 'readme' | 'docs'): string {
  const packs = Object.values(dialects).sort((a, b) => (a.name < b.name ? -1 : 1))
  if (kind === 'readme') {
    // grouped by what is read, each pack with its first model: the full table is the reference's
    const groups = new Map<string, string[]>()
    for (const p of packs) {
      const r = reads(p, true)
      const group = r === 'yes' ? (readsWhole(p) ? 'yes, each block when it closes' : 'yes, arguments streamed') : r === 'written only' ? 'written only' : 'some layouts'
      const item = `\`${p.name}\` (${cell(p.models[0]!)}${r === 'yes' || r === 'written only' ? '' : `; ${r}`})`
      groups.set(group, [...(groups.get(group) ?? []), item])
    }
    const order = ['yes, arguments streamed', 'yes, each block when it closes', 'some layouts', 'written only']
    return ['| read | packs (a model of each) |', '| --- | --- |', ...order.filter((g) => groups.has(g)).map((g) => `| ${g} | ${groups.get(g)!.join(', ')} |`)].join('\n')
  }
  return ['| pack | models | read by the sieve | what it does not read |', '| --- | --- | --- | --- |', ...packs.map((p) => `| \`${p.name}\` | ${cell(p.models.join(', '))} | ${cell(reads(p, false))} | ${cannot(p)} |`)].join('\n')
}

const start = '<!-- dialects:start (scripts/dialect-table.ts) -->'
const end = '<!-- dialects:end -->'

/** `text` with the table between its markers replaced. */
export function withTable(text: string, table: string): string {
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a < 0 || b < a) throw new Error('no dialect table markers')
  return `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`
}

export const tableFiles = { readme: 'README.md', docs: 'docs/reference/dialects.md' } as const

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check')
  const root = fileURLToPath(new URL('..', import.meta.url))
  let stale = false
  for (const [kind, file] of Object.entries(tableFiles) as Array<['readme' | 'docs', string]>) {
    const path = root + file
    const text = readFileSync(path, 'utf8')
    const next = withTable(text, dialectTable(kind))
    if (next === text) continue
    stale = true
    if (check) console.error(`${file}: the dialect table is stale: run npx tsx scripts/dialect-table.ts`)
    else writeFileSync(path, next)
  }
  if (check && stale) process.exit(1)
}
