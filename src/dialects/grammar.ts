/**
 * The grammar the sieve reads a dialect pack with, in one of two ways.
 *
 * - By tags: a block tag around calls (or one call), a call tag, one tag
 *   per argument, the name and key from an attribute or the tag's own
 *   value, values read by XML rules or raw (DeepSeek's, Qwen3-Coder's,
 *   Seed-OSS's, MiniMax-M2's). Arguments stream as they come.
 * - Whole: a block from a literal opener (a tag without attributes is one,
 *   `<tool_call>`) to its literal closer is captured as it stands and read
 *   by the pack's reader once it closes (`read-block.ts`): Hermes, GLM,
 *   Kimi, DeepSeek V3… So is a block from a literal opener to the end of
 *   the JSON value after it (`read-json-end.ts`): Mistral, Granite,
 *   Phi-4-mini's `functools`, Apertus; and a JSON or Python value that
 *   opens the message, with no opener or an optional one (Llama 3.1's bare
 *   `{"name": …}`, Llama 3.2's `[f(a=1)]`, xLAM's `[{…}]`). A block spec
 *   opened by a pattern is not read: such a pack is read by its other specs
 *   only, and one with none is refused.
 *
 * A pack that fits neither is refused at creation, naming what the reader lacks.
 */
import { ToolsieveError } from '../errors.js'
import { defaultGrammar } from '../grammar/default.js'
import { validateGrammar } from '../grammar/load.js'
import type { Grammar } from '../grammar/types.js'
import type { Delimiter, DialectPack, TagSpelling } from './types.js'
import { spellingOf, spellings } from './spelling.js'

/** Each pack's grammar, built once: packs are frozen. */
const grammars = new WeakMap<DialectPack, Grammar>()

/** Why the reader cannot read `pack` yet, or null: it can. */
export function unreadable(pack: DialectPack): string | null {
  if (pack.grammar === 'default') return null
  if (pack.envelope !== undefined) return 'its messages are framed by an envelope'
  if (byTags(pack) === null || wholeSpecs(pack).length > 0) return null
  const why = (b: DialectPack['blocks'][number]): string => (b.anchored === true ? 'is anchored at the message start' : b.open.kind !== 'literal' && b.open.kind !== 'tag' ? `opens at a ${b.open.kind}` : b.open.kind === 'literal' && b.open.optional === true ? 'has an opener it may leave out' : `ends at a ${b.close.kind}`)
  return `no block of it has a literal opener and a literal closer or the end of its JSON: ${pack.blocks.map((b, i) => `blocks[${i}] (${b.name}) ${why(b)}`).join(', ')}`
}

/**
 * `derive` of a pack, made once and kept with it: the sieve asks for a
 * pack's delimiters at every block it reads (which reader, which spec), and
 * the grammar and readers built from a pack are kept per pack as well.
 */
function perPack<T>(derive: (pack: DialectPack) => T): (pack: DialectPack) => T {
  const kept = new WeakMap<DialectPack, T>()
  return (pack) => {
    let v = kept.get(pack)
    if (v === undefined) {
      v = derive(pack)
      kept.set(pack, v)
    }
    return v
  }
}

/** The literal opener and closer of each block spec read whole (a tag without attributes spelled out), or null for a spec that is not. */
export const wholeDelimiters = perPack((pack): ReadonlyArray<{ open: string[]; close: string[] } | null> => {
  const sp = spellingOf(pack)
  return pack.blocks.map((b) => {
    if (b.anchored === true) return null
    const open = literal(b.open, 'open', sp)
    const close = literal(b.close, 'close', sp)
    return open === null || close === null ? null : { open, close }
  })
})

/** The strings a tag or a literal that is always written is spelled with; null for any other delimiter. */
function literal(d: Delimiter, role: 'open' | 'close', sp: TagSpelling): string[] | null {
  return (d.kind === 'literal' && d.optional !== true) || d.kind === 'tag' ? spellings(d, role, sp) : null
}

/**
 * The literal opener of each block spec that ends where its JSON ends (or at
 * a closer it may leave out, right after the JSON), with its call's head
 * separators when the call's name is the head before its value
 * (`Grammar.blocks.json`); null for a spec that is not one. A spec anchored
 * at the message start is not: its opener may be missing.
 */
export const jsonDelimiters = perPack((pack): ReadonlyArray<{ open: string[]; head?: string[]; close?: string[] } | null> => {
  const sp = spellingOf(pack)
  return pack.blocks.map((b) => {
    if (b.anchored === true) return null
    const open = literal(b.open, 'open', sp)
    const close = b.close.kind === 'json-end' ? [] : b.close.kind === 'literal' && b.close.optional === true ? b.close.text : null
    if (open === null || close === null) return null
    const sep = b.call.headSeparator
    const head = b.call.name.from === 'head' ? { head: sep === undefined ? [] : sep.text } : {}
    return { open, ...head, ...(close.length > 0 ? { close } : {}) }
  })
})

/**
 * Each block spec anchored at the message start that ends with its JSON
 * (`JsonBlocks.anchored`): the openers it may leave out (none, or an
 * optional literal), its value, an object (one call) or an array of calls,
 * the separator between such blocks and the closers it may leave out (its
 * trailing tokens); null for a spec that is not one.
 */
export const anchoredDelimiters = perPack((pack): ReadonlyArray<{ open: string[]; value: 'object' | 'array'; separator?: string; close: string[] } | null> =>
  pack.blocks.map((b) => {
    if (b.anchored !== true || b.close.kind !== 'json-end') return null
    if (b.open.kind !== 'literal' || b.open.optional !== true) return null
    // calls one after another, each a block of its own (`{…}; {…}`): the separator without its blanks
    const sep = b.array !== true && b.separator?.as === 'block' ? b.separator.write.trim() : ''
    // its trailing tokens (`<|python_end|>`, `<|eom_id|>`) are closers it may leave out, right after the value
    return { open: b.open.text, value: b.array === true ? 'array' : 'object', ...(sep === '' ? {} : { separator: sep }), close: b.trailing ?? [] }
  }))

/** The indexes of the block specs read whole: delimited by literals, ending with their JSON, or anchored at the message start. */
export function wholeSpecs(pack: DialectPack): number[] {
  const json = jsonDelimiters(pack)
  const anchored = anchoredDelimiters(pack)
  return wholeDelimiters(pack).flatMap((d, i) => (d === null && json[i] === null && anchored[i] === null ? [] : [i]))
}

/** Why `pack` is not read by tags, or null: it is. */
function byTags(pack: DialectPack): string | null {
  const names = new Set<string>()
  for (const [i, b] of pack.blocks.entries()) {
    const at = `blocks[${i}] (${b.name})`
    const c = b.call
    if (b.open.kind !== 'tag' || b.close.kind !== 'tag') return `${at} is not delimited by tags`
    if (b.layout === 'per-opener' || b.array === true || b.anchored === true) return `${at} has a ${b.layout === 'per-opener' ? 'per-opener layout' : b.array === true ? 'JSON array of calls' : 'block anchored at the message start'}`
    // a block that is its one call (Qwen3-Coder's bare `<function=f>`) is the call's tag itself
    const callOpen = c.open ?? (b.layout === 'call' ? b.open : undefined)
    const callClose = c.close ?? (b.layout === 'call' ? b.close : undefined)
    if (callOpen?.kind !== 'tag' || callClose?.kind !== 'tag') return `${at}'s call is not a tag`
    if (c.outer !== undefined || c.headSeparator !== undefined || c.id !== undefined) return `${at}'s call has tokens around it or an id`
    if (c.arguments.kind !== 'elements') return `${at}'s arguments are ${c.arguments.kind}, not one tag each`
    if (c.name.from !== 'attribute' && c.name.from !== 'tag-value') return `${at}'s call name comes from ${c.name.from}`
    const key = c.arguments.key
    if (key.from === 'tag-name') return `${at}'s argument keys are tag names`
    names.add(c.name.from === 'attribute' ? `attribute:${c.name.attribute}` : 'tag-value')
    names.add(key.from === 'attribute' ? `attribute:${key.attribute}` : 'tag-value')
  }
  if (names.size !== 1) return 'its names and keys come from more than one place'
  const v = pack.values
  if (v.strings !== 'raw' && v.strings !== 'xml') return `its strings are written as ${v.strings}`
  if (v.typeAttribute !== undefined) return 'its values carry a type attribute'
  if (v.untyped !== 'guess') return 'its untyped values stay strings'
  for (const r of pack.regions ?? []) if (r.kind === 'reasoning' && (r.open.kind !== 'literal' || r.close.kind !== 'literal')) return 'its reasoning is not delimited by literal tags'
  return null
}

/**
 * The grammar that reads `pack`.
 *
 * @throws {ToolsieveError} `invalid-option` (field `dialect`) when the reader cannot read it yet.
 */
export function grammarOfDialect(pack: DialectPack): Grammar {
  const why = unreadable(pack)
  if (why !== null) throw new ToolsieveError('invalid-option', `the sieve cannot read the ${pack.name} dialect yet: ${why}; formatToolCalls and buildToolPrompt can write it`, 'dialect')
  if (pack.grammar === 'default') return defaultGrammar
  let g = grammars.get(pack)
  if (g === undefined) {
    g = byTags(pack) === null ? build(pack) : buildWhole(pack)
    grammars.set(pack, g)
  }
  return g
}

/** Whether the sieve reads `pack`'s blocks whole (with its reader), not by tags. */
export function readsWhole(pack: DialectPack): boolean {
  return pack.grammar !== 'default' && byTags(pack) !== null
}

/** A grammar of blocks read whole: their literal delimiters, no tags. */
function buildWhole(pack: DialectPack): Grammar {
  const open = new Set<string>()
  const close = new Set<string>()
  for (const d of wholeDelimiters(pack)) {
    if (d === null) continue
    for (const t of d.open) open.add(t)
    for (const t of d.close) close.add(t)
  }
  const jsonOpen = new Set<string>()
  const jsonClose = new Set<string>()
  let head: Set<string> | null = null
  for (const d of jsonDelimiters(pack)) {
    if (d === null) continue
    for (const t of d.open) jsonOpen.add(t)
    for (const t of d.close ?? []) jsonClose.add(t)
    if (d.head !== undefined) {
      head ??= new Set()
      for (const t of d.head) head.add(t)
    }
  }
  const anchorOpen = new Set<string>()
  const values = new Set<'object' | 'array'>()
  const separators = new Set<string>()
  for (const d of anchoredDelimiters(pack)) {
    if (d === null) continue
    for (const t of d.open) anchorOpen.add(t)
    values.add(d.value)
    if (d.separator !== undefined) separators.add(d.separator)
    for (const t of d.close) jsonClose.add(t)
  }
  const anchored = values.size === 0 ? {} : { anchored: { ...(anchorOpen.size === 0 ? {} : { open: [...anchorOpen] }), values: [...values], ...(separators.size === 0 ? {} : { separator: [...separators] }) } }
  const python = values.size > 0 && pack.values.strings === 'python' ? { python: true } : {}
  const json = jsonOpen.size === 0 && values.size === 0 ? {} : { json: { open: [...jsonOpen], ...(head === null ? {} : { head: [...head] }), ...(jsonClose.size === 0 ? {} : { close: [...jsonClose] }), ...anchored, ...python } }
  const xml = defaultGrammar.frames.find((f) => f.name === 'xml')!
  return validateGrammar({
    name: `dialect:${pack.name}`,
    roles: { wrapper: [], invoke: [], parameter: [] },
    frames: [xml],
    caseInsensitive: false,
    ...reasoningOf(pack),
    blocks: { open: [...open], close: [...close], ...json },
  })
}

/** The packs' literal reasoning tags, together (a stream may open the reasoning with any of them); none: the grammar's default. */
export function reasoningOf(...packs: DialectPack[]): Pick<Grammar, 'reasoning'> {
  const open = new Set<string>()
  const close = new Set<string>()
  for (const p of packs) {
    for (const r of p.regions ?? []) {
      if (r.kind !== 'reasoning' || r.open.kind !== 'literal' || r.close.kind !== 'literal') continue
      for (const t of r.open.text) open.add(t)
      for (const t of r.close.text) close.add(t)
    }
  }
  return open.size > 0 ? { reasoning: { open: [...open], close: [...close] } } : {}
}

function build(pack: DialectPack): Grammar {
  const wrapper = new Set<string>()
  const invoke = new Set<string>()
  const parameter = new Set<string>()
  let from: 'attribute' | 'tagValue' = 'attribute'
  let nameAttribute = 'name'
  let bare = false
  for (const b of pack.blocks) {
    const c = b.call
    const call = ((c.open ?? b.open) as { name: string }).name
    invoke.add(call)
    // a block that is its call's own tag (Qwen3-Coder's bare `<function=f>`) is a block of its own (`invokeBlocks`)
    const open = (b.open as { name: string }).name
    if (open !== call) wrapper.add(open)
    else bare = true
    if (c.arguments.kind === 'elements') parameter.add(c.arguments.element.name)
    if (c.name.from === 'tag-value') from = 'tagValue'
    else if (c.name.from === 'attribute') nameAttribute = c.name.attribute
  }
  const xml = defaultGrammar.frames.find((f) => f.name === 'xml')!
  return validateGrammar({
    name: `dialect:${pack.name}`,
    roles: { wrapper: [...wrapper], invoke: [...invoke], parameter: [...parameter] },
    frames: [xml],
    caseInsensitive: false,
    attributes: { name: nameAttribute, string: nameAttribute === 'string' ? 'type' : 'string', ...(from === 'tagValue' ? { from } : {}) },
    ...(pack.values.strings === 'raw' ? { values: { strings: 'raw' as const, ...(pack.values.containers === 'python' ? { containers: 'python' as const } : {}), ...(pack.values.padding !== undefined && pack.values.padding !== '' ? { padding: pack.values.padding } : {}) } } : {}),
    ...reasoningOf(pack),
    ...(bare ? { invokeBlocks: true } : {}),
  })
}

/**
 * Whether each call of `pack`'s blocks read whole says where it ends: its
 * own closer, or arguments that close themselves (a JSON object, a Python
 * call's parenthesis, Gemma's object literal). Then a block the stream cut
 * before its closer can be read as far as its calls go; GLM's key/value
 * pairs or implicitly closed elements could have gone on, and cannot.
 */
export function endsItsCalls(pack: DialectPack): boolean {
  const closing = new Set(['json', 'json-value', 'python-kwargs', 'object-literal'])
  return wholeSpecs(pack).every((i) => {
    const c = pack.blocks[i]!.call
    return c.close !== undefined || closing.has(c.arguments.kind)
  })
}
