/**
 * Validating grammar configs. Validation is written
 * by hand (no schema engine at runtime) so that every error names the exact
 * field, e.g. `frames[1].open[0][2].max`, and says what is wrong with it.
 */
import { GrammarError } from '../errors.js'
import type { Frame, FrameSequence, Grammar, AnchoredBlocks, GrammarPatch, Role, RoleName } from './types.js'
import { withDerived } from './derived.js'

export const roleKeys: readonly Role[] = ['wrapper', 'invoke', 'parameter']
const localName = /^[A-Za-z_][A-Za-z0-9_.:-]*$/
// A tag never crosses a line break, so line-start state (fences) never depends on one.
const lineBreak = /[\r\n]/
// Bounded so the longest delimiter, and so the tail held back across chunks, is bounded.
const maxRepeat = 8
// Below this even one ordinary tag could not be captured.
const minCaptureLimit = 64
const defaultCaptureLimit = 262_144

const sectionKeys = ['caseInsensitive', 'attributes', 'values', 'repairs', 'limits', 'markdown', 'rawTextParameters', 'reasoning', 'blocks', 'invokeBlocks'] as const
const rootKeys = ['$schema', 'description', 'name', 'roles', 'frames', ...sectionKeys]
export const patchKeys: readonly (keyof GrammarPatch)[] = ['name', ...roleKeys, 'frames', ...sectionKeys]

export type Obj = Record<string, unknown>
type Part = { lit: string[]; min: number; max: number } | { name: true }

/**
 * Internal failure; turned into a {@link GrammarError} at the public entry
 * points, which may add where the grammar came from (a file, a base grammar).
 */
class Issue {
  constructor(readonly field: string, readonly detail: string) {}
}

// A declaration, not an arrow: only declared `never` functions narrow at call sites.
function fail(field: string, detail: string): never {
  throw new Issue(field || '(grammar)', detail)
}

export function report<T>(run: () => T, context?: string): T {
  try {
    return run()
  } catch (error) {
    if (!(error instanceof Issue)) throw error
    throw new GrammarError(context ? `${error.detail} (${context})` : error.detail, error.field)
  }
}

export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return path ? `${path}.${key}` : key
}

export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value)
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

export const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

export function object(value: unknown, field: string, allowed: readonly string[]): Obj {
  if (value === undefined) fail(field, 'is required')
  if (!isObject(value)) fail(field, `must be an object, got ${describe(value)}`)
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(at(field, key), `is not a known key (expected ${allowed.join(', ')})`)
  }
  return value
}

function array(value: unknown, field: string, nonEmpty: boolean): unknown[] {
  if (value === undefined) fail(field, 'is required')
  if (!Array.isArray(value)) fail(field, `must be an array, got ${describe(value)}`)
  if (nonEmpty && value.length === 0) fail(field, 'must not be empty')
  return value
}

// Possibly empty: descriptions and `$schema`.
function text(value: unknown, field: string): string {
  if (value === undefined) fail(field, 'is required')
  if (typeof value !== 'string') fail(field, `must be a string, got ${describe(value)}`)
  return value
}

function string(value: unknown, field: string): string {
  if (text(value, field) === '') fail(field, 'must not be empty')
  return value as string
}

function name(value: unknown, field: string): string {
  const text = string(value, field)
  if (!localName.test(text)) fail(field, `${describe(text)} is not a local name (${String(localName)})`)
  return text
}

export function boolean(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') fail(field, `must be true or false, got ${describe(value)}`)
  return value
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) fail(field, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`)
  return value as T
}

function integer(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(field, `must be an integer, got ${describe(value)}`)
  if (value < min || value > max) fail(field, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function part(value: unknown, field: string): Part {
  if (isObject(value) && !('lit' in value) && 'name' in value) {
    object(value, field, ['name'])
    if (value.name !== true) fail(at(field, 'name'), `must be true, got ${describe(value.name)}`)
    return { name: true }
  }
  const raw = object(value, field, ['lit', 'min', 'max'])
  const litField = at(field, 'lit')
  const lit = array(raw.lit, litField, true).map((item, i) => {
    const text = string(item, at(litField, i))
    if (lineBreak.test(text)) fail(at(litField, i), 'must not contain a line break')
    return text
  })
  const min = integer(raw.min, at(field, 'min'), 0, maxRepeat, 1)
  const max = integer(raw.max, at(field, 'max'), 0, maxRepeat, 1)
  if (min > max) {
    if (raw.max === undefined) fail(at(field, 'min'), `is ${min} but max defaults to 1; give max too`)
    fail(at(field, 'max'), `must be >= min (${min}), got ${max}`)
  }
  return { lit, min, max }
}

function sequence(value: unknown, field: string, kind: 'open' | 'close' | 'end' | 'beforeAttributes'): FrameSequence {
  const parts = array(value, field, true).map((item, i) => part(item, at(field, i)))
  const slots = parts.flatMap((p, i) => ('name' in p ? [i] : []))
  if (kind === 'beforeAttributes') {
    if (slots[0] !== undefined) fail(at(field, slots[0]), 'an attribute gap cannot hold the name slot')
    if (!parts.some((p) => 'lit' in p && p.min >= 1)) fail(field, 'can match the empty string; give some part min >= 1')
    // read between attributes, a gap must not be what an attribute is made of: blanks, its name, `=`, quotes
    parts.forEach((p, i) => {
      if (!('lit' in p)) return
      p.lit.forEach((lit, j) => {
        if (/[\s\w.:\-="']/.test(lit)) fail(at(at(at(field, i), 'lit'), j), `must not contain a blank, a name character, '=' or a quote, got ${describe(lit)}`)
      })
    })
    return parts
  }
  if (kind === 'end') {
    if (slots[0] !== undefined) fail(at(field, slots[0]), 'an end sequence cannot hold the name slot')
    // An end that matches nothing would end every tag right after its attributes, unseen.
    if (!parts.some((p) => 'lit' in p && p.min >= 1)) fail(field, 'can match the empty string; give some part min >= 1')
    return parts
  }
  if (slots.length === 0) fail(field, 'has no name slot ({"name": true})')
  if (slots[1] !== undefined) fail(at(field, slots[1]), 'is a second name slot; exactly one is allowed')
  // The lexer dispatches on a tag's first character, so it has to be certain.
  const first = parts[0]
  if (!first || !('lit' in first)) fail(at(field, 0), 'must be a lit part so the first character of a tag is known')
  if (first.min < 1) fail(at(at(field, 0), 'min'), 'must be >= 1 in the first part so the first character of a tag is known')
  first.lit.forEach((lit, i) => {
    const claimed = claimedFirst(lit.charAt(0))
    if (claimed) fail(at(at(at(field, 0), 'lit'), i), `cannot start a tag: ${describe(lit.charAt(0))} is ${claimed}`)
  })
  // The held-tail matcher takes an opening tag as decided at its name's boundary; parts after
  // the name (`[tool_calls:]`) made a tag lost when a chunk ended inside them. Such text belongs in `end`.
  if (kind === 'open' && slots[0]! < parts.length - 1) {
    fail(at(field, slots[0]! + 1), 'follows the name slot; an opening sequence ends at its name (put what comes after the name in end)')
  }
  return parts
}

/**
 * Why a character cannot be a tag's first one, or null. A space or tab is
 * indentation and the space between attributes and tags, read before any tag
 * (a frame opened by a space gave a different result one character at a
 * time than in one chunk; other whitespace is plain text to the lexer); backtick and tilde start Markdown code runs, read
 * before tags, so such a frame never matched; `{` opens an invoke's JSON
 * arguments, which won over the tag in one chunk and lost one character at a time.
 */
function claimedFirst(ch: string): string | null {
  if (ch === ' ' || ch === '\t') return 'a space or tab, which the lexer reads as indentation and as the space between tags'
  if (ch === '`' || ch === '~') return 'a Markdown code delimiter, which the Markdown guard reads first'
  if (ch === '{') return "the start of an invoke's JSON arguments"
  return null
}

const sequences = (value: unknown, field: string, kind: 'open' | 'close' | 'end' | 'beforeAttributes'): FrameSequence[] =>
  array(value, field, true).map((item, i) => sequence(item, at(field, i), kind))

function frame(value: unknown, field: string): Frame {
  const raw = object(value, field, ['name', 'description', 'open', 'close', 'end', 'beforeAttributes'])
  const frameName = string(raw.name, at(field, 'name'))
  return {
    name: frameName,
    ...(raw.description === undefined ? {} : { description: text(raw.description, at(field, 'description')) }),
    open: sequences(raw.open, at(field, 'open'), 'open'),
    close: sequences(raw.close, at(field, 'close'), 'close'),
    end: sequences(raw.end, at(field, 'end'), 'end'),
    ...(raw.beforeAttributes === undefined ? {} : { beforeAttributes: sequences(raw.beforeAttributes, at(field, 'beforeAttributes'), 'beforeAttributes') }),
  }
}

export function frameList(value: unknown, field: string, nonEmpty: boolean): Frame[] {
  const seen = new Set<string>()
  return array(value, field, nonEmpty).map((item, i) => {
    const parsed = frame(item, at(field, i))
    if (seen.has(parsed.name)) fail(at(at(field, i), 'name'), `duplicates frame ${describe(parsed.name)}`)
    seen.add(parsed.name)
    return parsed
  })
}

export function roleNames(value: unknown, field: string, frames: ReadonlySet<string>, nonEmpty: boolean): RoleName[] {
  return array(value, field, nonEmpty).map((entry, i) => {
    const entryField = at(field, i)
    if (typeof entry === 'string') return name(entry, entryField)
    if (!isObject(entry)) fail(entryField, `must be a local name or {name, frames?}, got ${describe(entry)}`)
    const raw = object(entry, entryField, ['name', 'frames'])
    const local = name(raw.name, at(entryField, 'name'))
    if (raw.frames === undefined) return { name: local }
    const framesField = at(entryField, 'frames')
    const refs = array(raw.frames, framesField, true).map((ref, j) => {
      const frameName = string(ref, at(framesField, j))
      if (!frames.has(frameName)) {
        fail(at(framesField, j), `names no frame; frames are ${[...frames].map(describe).join(', ')}`)
      }
      return frameName
    })
    return { name: local, frames: refs }
  })
}

const nameOf = (entry: RoleName): string => (typeof entry === 'string' ? entry : entry.name)
export const keyOf = (entry: RoleName, caseInsensitive: boolean): string =>
  caseInsensitive ? nameOf(entry).toLowerCase() : nameOf(entry)

function roles(value: unknown, frames: ReadonlySet<string>, caseInsensitive: boolean, nonEmpty: boolean): Record<Role, RoleName[]> {
  const raw = object(value, 'roles', roleKeys)
  const out = {} as Record<Role, RoleName[]>
  // A name in two roles (or twice in one) would make one tag mean two things.
  const seen = new Map<string, string>()
  for (const role of roleKeys) {
    out[role] = roleNames(raw[role], at('roles', role), frames, nonEmpty)
    out[role].forEach((entry, i) => {
      const field = at(at('roles', role), i)
      const first = seen.get(keyOf(entry, caseInsensitive))
      if (first !== undefined) fail(field, `${describe(nameOf(entry))} is already used at ${first}`)
      seen.set(keyOf(entry, caseInsensitive), field)
    })
  }
  return out
}

export const strings = (value: unknown, field: string): string[] =>
  array(value, field, false).map((item, i) => string(item, at(field, i)))

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

export function normalize(value: unknown): Grammar {
  const raw = object(value, '', rootKeys)
  if (raw.$schema !== undefined) text(raw.$schema, '$schema')
  if (raw.description !== undefined) text(raw.description, 'description')
  const grammarName = string(raw.name, 'name')
  const frames = frameList(raw.frames, 'frames', true)
  const caseInsensitive = boolean(raw.caseInsensitive, 'caseInsensitive', true)
  const blocks = raw.blocks === undefined ? null : literalBlocks(raw.blocks)
  // a grammar of blocks read whole (a dialect pack's) may have no tags at all
  const roleMap = roles(raw.roles, new Set(frames.map((f) => f.name)), caseInsensitive, blocks === null)

  const attributes = object(raw.attributes ?? {}, 'attributes', ['name', 'string', 'from'])
  const nameAttribute = attributes.name === undefined ? 'name' : name(attributes.name, 'attributes.name')
  const stringAttribute = attributes.string === undefined ? 'string' : name(attributes.string, 'attributes.string')
  const same = caseInsensitive
    ? nameAttribute.toLowerCase() === stringAttribute.toLowerCase()
    : nameAttribute === stringAttribute
  if (same) fail('attributes.string', `must differ from attributes.name (${describe(nameAttribute)})`)

  const from = attributes.from === undefined ? 'attribute' : oneOf(attributes.from, 'attributes.from', ['attribute', 'tagValue'])
  const values = object(raw.values ?? {}, 'values', ['strings', 'containers', 'padding'])
  const padding = values.padding === undefined ? '' : text(values.padding, 'values.padding')
  const strings_ = values.strings === undefined ? 'xml' : oneOf(values.strings, 'values.strings', ['xml', 'raw'])
  const containers = values.containers === undefined ? 'json' : oneOf(values.containers, 'values.containers', ['json', 'python'])
  const repairs = object(raw.repairs ?? {}, 'repairs', ['missingOpeningWrapper', 'unclosedWrapper', 'unclosedCdata'])
  const limits = object(raw.limits ?? {}, 'limits', ['captureLimit'])
  const markdown = object(raw.markdown ?? {}, 'markdown', ['fences', 'codeSpans'])
  const reasoning = object(raw.reasoning ?? {}, 'reasoning', ['open', 'close'])
  /** A list of reasoning tags: text the stream may start with (or end its reasoning with), never empty. */
  const tags = (value: unknown, field: string, fallback: string): string[] => {
    if (value === undefined) return [fallback]
    const list = strings(value, field)
    if (list.length === 0) fail(field, 'must name at least one tag')
    list.forEach((t, i) => { if (t === '') fail(`${field}[${i}]`, 'must not be empty') })
    return list
  }
  return {
    name: grammarName,
    roles: roleMap,
    frames,
    caseInsensitive,
    // the slots a dialect sets appear only when set, so a grammar without them keeps its fingerprint
    attributes: { name: nameAttribute, string: stringAttribute, ...(from === 'tagValue' ? { from } : {}) },
    ...(strings_ === 'raw' || containers === 'python' || padding !== '' ? { values: { strings: strings_, ...(containers === 'python' ? { containers } : {}), ...(padding !== '' ? { padding } : {}) } } : {}),
    repairs: {
      missingOpeningWrapper: boolean(repairs.missingOpeningWrapper, 'repairs.missingOpeningWrapper', true),
      unclosedWrapper: boolean(repairs.unclosedWrapper, 'repairs.unclosedWrapper', true),
      unclosedCdata: boolean(repairs.unclosedCdata, 'repairs.unclosedCdata', true),
    },
    limits: {
      captureLimit: integer(limits.captureLimit, 'limits.captureLimit', minCaptureLimit, Number.MAX_SAFE_INTEGER, defaultCaptureLimit),
    },
    markdown: {
      fences: boolean(markdown.fences, 'markdown.fences', true),
      codeSpans: boolean(markdown.codeSpans, 'markdown.codeSpans', true),
    },
    rawTextParameters: raw.rawTextParameters === undefined ? [] : strings(raw.rawTextParameters, 'rawTextParameters'),
    reasoning: { open: tags(reasoning.open, 'reasoning.open', '<think>'), close: tags(reasoning.close, 'reasoning.close', '</think>') },
    ...(blocks === null ? {} : { blocks }),
    // only when set, so a grammar without it keeps its fingerprint
    ...(boolean(raw.invokeBlocks, 'invokeBlocks', false) ? { invokeBlocks: true } : {}),
  }
}

/** `blocks`: literal openers and closers (both lists empty, or neither), no literal empty or in two lists; `json`: blocks that end with their JSON. */
function literalBlocks(value: unknown): NonNullable<Grammar['blocks']> {
  const raw = object(value, 'blocks', ['open', 'close', 'json'])
  const list = (v: unknown, field: string, nonEmpty: boolean): string[] => {
    const out = strings(v, field)
    if (nonEmpty && out.length === 0) fail(field, 'must name at least one delimiter')
    out.forEach((t, i) => { if (t === '') fail(at(field, i), 'must not be empty') })
    return out
  }
  const open = list(raw.open, 'blocks.open', false)
  const close = list(raw.close, 'blocks.close', open.length > 0)
  if (open.length === 0 && close.length > 0) fail('blocks.open', 'must name at least one delimiter: there are closers')
  close.forEach((c, i) => { if (open.includes(c)) fail(at('blocks.close', i), `${describe(c)} is an opener too`) })
  if (raw.json === undefined) {
    if (open.length === 0) fail('blocks.open', 'must name at least one delimiter')
    return { open, close }
  }
  const json = object(raw.json, 'blocks.json', ['open', 'head', 'close', 'anchored', 'python'])
  const anchored = json.anchored === undefined ? undefined : anchoredBlocks(json.anchored)
  const jsonOpen = list(json.open, 'blocks.json.open', anchored === undefined)
  const taken = new Set([...open, ...close])
  jsonOpen.forEach((o, i) => { if (taken.has(o)) fail(at('blocks.json.open', i), `${describe(o)} is a delimiter of blocks.open or blocks.close too`) })
  const head = json.head === undefined ? undefined : list(json.head, 'blocks.json.head', false)
  const jsonClose = json.close === undefined ? undefined : list(json.close, 'blocks.json.close', true)
  jsonClose?.forEach((c, i) => { if (jsonOpen.includes(c)) fail(at('blocks.json.close', i), `${describe(c)} is an opener too`) })
  anchored?.open?.forEach((o, i) => { if (taken.has(o) || jsonOpen.includes(o)) fail(at('blocks.json.anchored.open', i), `${describe(o)} is an opener or closer of another block too`) })
  if (json.python !== undefined && typeof json.python !== 'boolean') fail('blocks.json.python', 'must be a boolean')
  const python = json.python === true ? { python: true } : {}
  return { open, close, json: { open: jsonOpen, ...(head === undefined ? {} : { head }), ...(jsonClose === undefined ? {} : { close: jsonClose }), ...(anchored === undefined ? {} : { anchored }), ...python } }
}

/** `blocks.json.anchored`: optional openers (none empty), and the kinds of value that may open the message. */
function anchoredBlocks(value: unknown): AnchoredBlocks {
  const raw = object(value, 'blocks.json.anchored', ['open', 'values', 'separator'])
  const separator = raw.separator === undefined ? undefined : strings(raw.separator, 'blocks.json.anchored.separator')
  separator?.forEach((o, i) => { if (o.trim() === '') fail(at('blocks.json.anchored.separator', i), 'must not be blank') })
  const open = raw.open === undefined ? undefined : strings(raw.open, 'blocks.json.anchored.open')
  open?.forEach((o, i) => { if (o === '') fail(at('blocks.json.anchored.open', i), 'must not be empty') })
  const values = strings(raw.values, 'blocks.json.anchored.values')
  if (values.length === 0) fail('blocks.json.anchored.values', 'must name at least one of object, array')
  values.forEach((v, i) => { if (v !== 'object' && v !== 'array') fail(at('blocks.json.anchored.values', i), 'must be object or array') })
  return { ...(open === undefined ? {} : { open }), values: [...new Set(values)] as AnchoredBlocks['values'], ...(separator === undefined ? {} : { separator }) }
}

/**
 * Check a grammar config and return a deep-frozen, normalized copy: every
 * optional field filled with its default (`caseInsensitive: true`,
 * `attributes: {name: 'name', string: 'string'}`, `captureLimit: 262144`, …),
 * every `lit` part with explicit `min`/`max`, and `$schema` and the top-level
 * `description` dropped. What is compiled from it is kept on it (`derived.ts`).
 *
 * @throws {GrammarError} code `invalid-grammar`; `field` is the path of the
 *   first bad field, e.g. `frames[1].open[0][2].max` or `roles.wrapper[2].frames[0]`.
 */
export function validateGrammar(value: unknown): Grammar {
  return report(() => deepFreeze(withDerived(normalize(value))))
}

