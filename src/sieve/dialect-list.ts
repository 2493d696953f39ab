/**
 * The `dialect` option as a list of packs, merged into one sieve: a gateway
 * that serves several families reads each one's calls. Packs read whole
 * (`dialects/grammar.ts`) merge freely: their delimiters are one grammar's
 * `blocks`, and a block is read by the first pack whose reader reads it,
 * so packs that share an opener (`<tool_call>`: Hermes, GLM, Qwen3-Coder)
 * are told apart by what follows, on the whole block, in any chunking. A
 * pack read by tags keeps its grammar; with other packs beside it whose
 * opener it also has, it is read whole too (its calls then come when the
 * block closes, its arguments are not streamed). Two packs read by tags
 * cannot share one grammar (their values differ): refused, naming them.
 */
import { ToolsieveError } from '../errors.js'
import { endsItsCalls, grammarOfDialect, readsWhole, reasoningOf, unreadable, wholeDelimiters } from '../dialects/grammar.js'
import { dialects, resolveDialect } from '../dialects/registry.js'
import type { DialectPack } from '../dialects/types.js'
import { defaultGrammar } from '../grammar/default.js'
import { extendGrammar } from '../grammar/extend.js'
import { validateGrammar } from '../grammar/load.js'
import type { Grammar, JsonBlocks } from '../grammar/types.js'
import { blockDelimiters, readBlock } from '../read/read-block.js'
import { closerPairs, type WholeReader } from './calls.js'
import { isJsonEndBlock, readJsonEndBlock } from '../read/read-json-end.js'
import { isAnchoredBlock, readAnchoredBlock } from '../read/read-anchored.js'

/** Each list's grammar and reader, by the packs' names: a sieve per turn with the same list builds them once. */
const made = new Map<string, { grammar: Grammar; readWhole: WholeReader | null }>()
/** Lists kept at most (a list is a handful of names; a caller making endless new lists of custom packs must not grow this without bound). */
const madeLimit = 64

function invalid(message: string): ToolsieveError {
  return new ToolsieveError('invalid-option', message, 'dialect')
}

/** The grammar and reader of a list of packs (names or packs). */
export function dialectList(list: readonly unknown[]): { grammar: Grammar; readWhole: WholeReader | null } {
  if (list.length === 0) throw invalid('an empty list names no dialect')
  const packs: DialectPack[] = []
  list.forEach((d, i) => {
    if (typeof d !== 'string' && (typeof d !== 'object' || d === null || Array.isArray(d))) throw new ToolsieveError('invalid-option', `dialect[${i}]: must be a pack name or a pack`, `dialect[${i}]`)
    const pack = resolveDialect(d as string | DialectPack)
    const why = unreadable(pack)
    if (why !== null) throw new ToolsieveError('invalid-option', `dialect[${i}]: the sieve cannot read the ${pack.name} dialect yet: ${why}`, `dialect[${i}]`)
    if (!packs.includes(pack)) packs.push(pack)
  })
  // shipped packs only: a custom pack may reuse a shipped one's name (its grammar, if equal, still shares a lexer)
  const shipped = packs.every((p) => dialects[p.name] === p)
  const key = packs.map((p) => p.name).join('\n')
  const known = shipped ? made.get(key) : undefined
  if (known !== undefined) return known
  const built = build(packs)
  if (!shipped) return built
  if (made.size >= madeLimit) made.delete(made.keys().next().value!)
  made.set(key, built)
  return built
}

/** Whether `pack` can be read whole: some block of it has literal delimiters. */
const wholeReadable = (pack: DialectPack): boolean => pack.grammar !== 'default' && blockDelimiters(pack).some((d) => d !== null)

/** The openers a pack read by tags writes plainly (`<tool_call>`), which a pack read whole may share. */
function plainOpeners(pack: DialectPack): Set<string> {
  return new Set(blockDelimiters(pack).flatMap((d) => d?.open ?? []))
}

function build(packs: DialectPack[]): { grammar: Grammar; readWhole: WholeReader | null } {
  if (packs.length === 1) return { grammar: grammarOfDialect(packs[0]!), readWhole: wholeReader(packs[0]!) }
  let tags = packs.filter((p) => !readsWhole(p))
  const whole = packs.filter((p) => readsWhole(p))
  const wholeOpeners = new Set(whole.flatMap((p) => blockDelimiters(p).flatMap((d) => d?.open ?? [])))
  // a pack read by tags that shares an opener with one read whole (or with another read by tags) is read whole too, where it can be
  const clash = (p: DialectPack): boolean => [...plainOpeners(p)].some((o) => wholeOpeners.has(o)) || tags.length > 1
  for (const p of [...tags]) {
    if (clash(p) && wholeReadable(p)) {
      tags = tags.filter((t) => t !== p)
      whole.push(p)
      for (const d of blockDelimiters(p)) for (const o of d?.open ?? []) wholeOpeners.add(o)
    }
  }
  if (tags.length > 1) throw invalid(`${tags.map((p) => p.name).join(' and ')} are read by tags with rules of their own: one of them per sieve`)
  const tag = tags[0]
  if (tag !== undefined && [...plainOpeners(tag)].some((o) => wholeOpeners.has(o))) throw invalid(`${tag.name} and ${whole.map((p) => p.name).join(', ')} open blocks alike, and ${tag.name} cannot be read whole: one of them per sieve`)
  const open = new Set<string>()
  const close = new Set<string>()
  // blocks that end where their JSON ends: one pack's openers (their head rules are the grammar's, one set); blocks
  // at the message start, every pack's (Llama's bare JSON beside Mistral's [TOOL_CALLS], xLAM's arrays beside it),
  // with their closers and separators; the value a pack's reader does not read goes to the next
  const jsonOf = (p: DialectPack): JsonBlocks | undefined => (readsWhole(p) ? grammarOfDialect(p).blocks?.json : undefined)
  const openPacks = whole.filter((p) => (jsonOf(p)?.open.length ?? 0) > 0)
  if (openPacks.length > 1) throw invalid(`${openPacks.map((p) => p.name).join(' and ')} both have blocks that end where their JSON ends: one of them per sieve`)
  const json = mergeJson([...new Set([...openPacks, ...whole.filter((p) => jsonOf(p)?.anchored !== undefined)])].map((p) => jsonOf(p)!))
  for (const p of whole) {
    // a pack read whole has its grammar's blocks; one read by tags and moved here, its delimited blocks
    const own = readsWhole(p) ? grammarOfDialect(p).blocks : undefined
    for (const t of own?.open ?? blockDelimiters(p).flatMap((d) => d?.open ?? [])) open.add(t)
    for (const t of own?.close ?? blockDelimiters(p).flatMap((d) => d?.close ?? [])) close.add(t)
  }
  for (const c of close) if (open.has(c)) throw invalid(`${JSON.stringify(c)} opens a block in one pack and closes one in another: one of them per sieve`)
  const reasoning = reasoningOf(...packs).reasoning ?? { open: ['<think>'], close: ['</think>'] }
  const blocks = { open: [...open], close: [...close], ...(json === undefined ? {} : { json }) }
  let grammar: Grammar
  try {
    grammar = tag === undefined
      ? validateGrammar({ name: `dialects:${packs.map((p) => p.name).join('+')}`, roles: { wrapper: [], invoke: [], parameter: [] }, frames: defaultGrammar.frames.filter((f) => f.name === 'xml'), caseInsensitive: false, reasoning, blocks })
      : extendGrammar(grammarOfDialect(tag), { name: `dialects:${packs.map((p) => p.name).join('+')}`, reasoning, blocks })
  } catch (e) {
    // two packs' delimiters that cannot live in one grammar (one's JSON opener is the other's block opener)
    throw invalid(`${packs.map((p) => p.name).join(', ')} cannot be read together: ${(e as Error).message}; one of them per sieve`)
  }
  const readers = whole.map((p) => wholeReader(p) ?? callIds(p, (text: string) => readBlock(p, text)))
  const readWhole: WholeReader = (text) => {
    let first: { ok: false; reason: string } | null = null
    for (const read of readers) {
      const r = read(text)
      if (r.ok) return r
      first ??= r
    }
    return first!
  }
  // cut by the stream's end, a block is read only if every listed pack's calls end where they say
  if (whole.every(endsItsCalls)) readWhole.endsCalls = true
  readWhole.pairs = closerPairs(whole.flatMap((p) => blockDelimiters(p)))
  return { grammar, readWhole }
}

/** The `blocks.json` of several packs, of which one at most has openers: its openers and heads, everyone's blocks at the message start and closers. */
function mergeJson(all: readonly JsonBlocks[]): JsonBlocks | undefined {
  if (all.length <= 1) return all[0]
  const union = (lists: ReadonlyArray<readonly string[] | undefined>): string[] => [...new Set(lists.flatMap((l) => l ?? []))]
  const withOpeners = all.find((j) => j.open.length > 0)
  const anchored = all.flatMap((j) => (j.anchored === undefined ? [] : [j.anchored]))
  const close = union(all.map((j) => j.close))
  const open = union(anchored.map((a) => a.open))
  const separator = union(anchored.map((a) => a.separator))
  return {
    open: withOpeners?.open ?? [],
    ...(withOpeners?.head === undefined ? {} : { head: withOpeners.head }),
    ...(close.length === 0 ? {} : { close }),
    anchored: { ...(open.length === 0 ? {} : { open }), values: [...new Set(anchored.flatMap((a) => a.values))], ...(separator.length === 0 ? {} : { separator }) },
    ...(all.some((j) => j.python === true) ? { python: true } : {}),
  }
}

const readers = new WeakMap<DialectPack, WholeReader>()

/**
 * `read`, giving the calls' ids only where they are ids: a pack whose "id"
 * is the call's place (`IdSpec.position`, Kimi K3's `index`) gives none,
 * so its calls get made ids, not `1` in every message.
 */
function callIds(pack: DialectPack, read: WholeReader): WholeReader {
  if (!pack.blocks.some((b) => b.call.id?.position === true)) return read
  return (text) => {
    const r = read(text)
    return r.ok ? { ok: true, calls: r.calls.map(({ id: _place, idProblem: _notPlace, ...call }) => call) } : r
  }
}

/** The reader of `pack`'s blocks read whole; null when the sieve reads the pack by tags. */
export function wholeReader(pack: DialectPack): WholeReader | null {
  if (!readsWhole(pack)) return null
  let r = readers.get(pack)
  if (r === undefined) {
    // a block that ends with its JSON, or opens the message, has a reader of its own; the closed ones, the pack's
    r = callIds(pack, (text) => (isJsonEndBlock(pack, text) ? readJsonEndBlock(pack, text) : isAnchoredBlock(pack, text) ? readAnchoredBlock(pack, text) : readBlock(pack, text)))
    if (endsItsCalls(pack)) r.endsCalls = true
    r.pairs = closerPairs(wholeDelimiters(pack))
    readers.set(pack, r)
  }
  return r
}
