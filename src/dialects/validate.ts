/**
 * `validateDialect`: a pack read from JSON, checked field by field before
 * anything reads or writes with it. The rules are those of
 * `grammar/dialect.schema.json` plus what a schema cannot say (patterns that
 * compile, a `name` group in name patterns, literals that are not empty).
 * An error names the field: `blocks[0].call.name.from`.
 */
import { ToolsieveError } from '../errors.js'
import { deepFreeze } from '../grammar/validate.js'
import type { ArgumentsSpec, BlockSpec, CallSpec, Delimiter, DialectPack, EnvelopeSpec, IdSpec, NameSource, Region, ValueRules } from './types.js'

class Bad extends ToolsieveError {
  constructor(field: string, message: string) {
    super('invalid-dialect', `${field}: ${message}`, field)
  }
}

type Obj = Record<string, unknown>

function obj(v: unknown, field: string, allowed: readonly string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Bad(field, 'must be an object')
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw new Bad(field === '' ? k : `${field}.${k}`, 'is not a field of a dialect pack here')
  return v as Obj
}

function str(v: unknown, field: string, opts: { empty?: boolean } = {}): string {
  if (typeof v !== 'string') throw new Bad(field, 'must be a string')
  if (opts.empty !== true && v === '') throw new Bad(field, 'must not be empty')
  return v
}

function bool(v: unknown, field: string): boolean | undefined {
  if (v !== undefined && typeof v !== 'boolean') throw new Bad(field, 'must be true or false')
  return v as boolean | undefined
}

function oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw new Bad(field, `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`)
  return v as T
}

function strings(v: unknown, field: string, opts: { empty?: boolean; min?: number } = {}): string[] {
  if (!Array.isArray(v)) throw new Bad(field, 'must be an array of strings')
  if (v.length < (opts.min ?? 1)) throw new Bad(field, `must list at least ${opts.min ?? 1}`)
  return v.map((s, i) => str(s, `${field}[${i}]`, opts))
}

function regex(v: unknown, field: string, groups: string[] = []): string {
  const pattern = str(v, field)
  let re: RegExp
  try {
    re = new RegExp(pattern, 'u')
  } catch (e) {
    throw new Bad(field, `is not a regular expression: ${(e as Error).message}`)
  }
  for (const g of groups) if (!new RegExp(`\\(\\?<${g}>`).test(re.source)) throw new Bad(field, `needs a named group (?<${g}>…)`)
  return pattern
}

const delimiterKinds = ['tag', 'literal', 'regex', 'json-end', 'end-of-stream'] as const

export function delimiter(v: unknown, field: string, only?: ReadonlyArray<Delimiter['kind']>): Delimiter {
  const kind = oneOf(obj(v, field, ['kind', 'name', 'text', 'optional', 'written', 'pattern', 'write']).kind, `${field}.kind`, only ?? delimiterKinds)
  const d = v as Obj
  switch (kind) {
    case 'tag':
      obj(v, field, ['kind', 'name'])
      if (!/^[^\s<>="'/]+$/u.test(str(d.name, `${field}.name`))) throw new Bad(`${field}.name`, 'must be a tag name (no blanks, quotes, <, >, = or /)')
      return { kind, name: d.name as string }
    case 'literal': {
      obj(v, field, ['kind', 'text', 'optional', 'written'])
      const out: Delimiter = { kind, text: strings(d.text, `${field}.text`) }
      if (bool(d.optional, `${field}.optional`) !== undefined) out.optional = d.optional as boolean
      if (bool(d.written, `${field}.written`) !== undefined) out.written = d.written as boolean
      return out
    }
    case 'regex':
      obj(v, field, ['kind', 'pattern', 'write'])
      return { kind, pattern: regex(d.pattern, `${field}.pattern`), write: str(d.write, `${field}.write`) }
    default:
      obj(v, field, ['kind'])
      return { kind }
  }
}

function region(v: unknown, field: string): Region {
  const o = obj(v, field, ['kind', 'open', 'close', 'startsOpen', 'scan'])
  const r: Region = { kind: oneOf(o.kind, `${field}.kind`, ['reasoning', 'content']), open: delimiter(o.open, `${field}.open`), close: delimiter(o.close, `${field}.close`) }
  if (bool(o.startsOpen, `${field}.startsOpen`) !== undefined) r.startsOpen = o.startsOpen as boolean
  if (bool(o.scan, `${field}.scan`) !== undefined) r.scan = o.scan as boolean
  return r
}

const jsonTypes = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const

function values(v: unknown, field: string): ValueRules {
  const o = obj(v, field, ['strings', 'quote', 'padding', 'literals', 'numbers', 'containers', 'untyped', 'typeAttribute', 'json', 'sortKeys'])
  const lit = obj(o.literals, `${field}.literals`, ['true', 'false', 'null'])
  const out: ValueRules = {
    strings: oneOf(o.strings, `${field}.strings`, ['raw', 'xml', 'json', 'python', 'quoted']),
    literals: { true: str(lit.true, `${field}.literals.true`), false: str(lit.false, `${field}.literals.false`), null: str(lit.null, `${field}.literals.null`) },
    numbers: oneOf(o.numbers, `${field}.numbers`, ['json', 'python']),
    containers: oneOf(o.containers, `${field}.containers`, ['json', 'python', 'literal']),
    untyped: oneOf(o.untyped, `${field}.untyped`, ['guess', 'string']),
  }
  if (o.quote !== undefined) out.quote = str(o.quote, `${field}.quote`)
  if (out.strings === 'quoted' && out.quote === undefined) throw new Bad(`${field}.quote`, 'is needed by quoted strings')
  if (o.padding !== undefined) out.padding = str(o.padding, `${field}.padding`)
  if (o.typeAttribute !== undefined) {
    const ta = obj(o.typeAttribute, `${field}.typeAttribute`, ['attribute', 'values'])
    const vals = obj(ta.values, `${field}.typeAttribute.values`, jsonTypes)
    const mapped = {} as Record<(typeof jsonTypes)[number], string>
    for (const t of jsonTypes) mapped[t] = str(vals[t], `${field}.typeAttribute.values.${t}`)
    out.typeAttribute = { attribute: str(ta.attribute, `${field}.typeAttribute.attribute`), values: mapped }
  }
  if (o.json !== undefined) {
    const j = obj(o.json, `${field}.json`, ['itemSeparator', 'keySeparator'])
    out.json = { itemSeparator: str(j.itemSeparator, `${field}.json.itemSeparator`), keySeparator: str(j.keySeparator, `${field}.json.keySeparator`) }
  }
  if (bool(o.sortKeys, `${field}.sortKeys`) !== undefined) out.sortKeys = o.sortKeys as boolean
  return out
}

function nameSource(v: unknown, field: string): NameSource {
  const o = obj(v, field, ['from', 'attribute', 'pattern', 'write', 'field'])
  const from = oneOf(o.from, `${field}.from`, ['attribute', 'tag-value', 'head', 'header', 'json-field', 'json-key', 'callee'])
  switch (from) {
    case 'attribute':
      obj(v, field, ['from', 'attribute'])
      return { from, attribute: str(o.attribute, `${field}.attribute`) }
    case 'head':
    case 'header':
      obj(v, field, ['from', 'pattern', 'write'])
      if (!str(o.write, `${field}.write`).includes('{name}')) throw new Bad(`${field}.write`, 'must hold {name}')
      return { from, pattern: regex(o.pattern, `${field}.pattern`, ['name']), write: o.write as string }
    case 'json-field':
      obj(v, field, ['from', 'field'])
      return { from, field: str(o.field, `${field}.field`) }
    default:
      obj(v, field, ['from'])
      return { from }
  }
}

function idSpec(v: unknown, field: string): IdSpec {
  const o = obj(v, field, ['from', 'field', 'template', 'length', 'pad', 'position'])
  const out: IdSpec = { from: oneOf(o.from, `${field}.from`, ['head', 'json-field', 'attribute']), template: str(o.template, `${field}.template`) }
  if (out.from !== 'head') out.field = str(o.field, `${field}.field`)
  else if (o.field !== undefined) throw new Bad(`${field}.field`, 'is not read from a head')
  if (o.length !== undefined) {
    if (typeof o.length !== 'number' || !Number.isInteger(o.length) || o.length < 1 || o.length > 256) throw new Bad(`${field}.length`, 'must be an integer from 1 to 256')
    out.length = o.length
  }
  if (o.pad !== undefined) {
    if ([...str(o.pad, `${field}.pad`)].length !== 1) throw new Bad(`${field}.pad`, 'must be one character')
    out.pad = o.pad as string
  }
  if (o.position !== undefined) {
    if (typeof o.position !== 'boolean') throw new Bad(`${field}.position`, 'must be true or false')
    if (o.position) out.position = true
  }
  return out
}

function tagOnly(v: unknown, field: string): Delimiter & { kind: 'tag' } {
  return delimiter(v, field, ['tag']) as Delimiter & { kind: 'tag' }
}

function argumentsSpec(v: unknown, field: string): ArgumentsSpec {
  const o = obj(v, field, ['kind', 'element', 'key', 'close', 'value', 'gap', 'field', 'aliases', 'fence', 'serialised'])
  const kind = oneOf(o.kind, `${field}.kind`, ['elements', 'pairs', 'json', 'json-value', 'python-kwargs', 'object-literal'])
  switch (kind) {
    case 'elements': {
      obj(v, field, ['kind', 'element', 'key', 'close'])
      const k = obj(o.key, `${field}.key`, ['from', 'attribute'])
      const from = oneOf(k.from, `${field}.key.from`, ['attribute', 'tag-value', 'tag-name'])
      const key = from === 'attribute' ? { from, attribute: str(k.attribute, `${field}.key.attribute`) } : (obj(k, `${field}.key`, ['from']), { from })
      return { kind, element: tagOnly(o.element, `${field}.element`), key, close: oneOf(o.close, `${field}.close`, ['explicit', 'implicit']) }
    }
    case 'pairs':
      obj(v, field, ['kind', 'key', 'value', 'gap'])
      return { kind, key: tagOnly(o.key, `${field}.key`), value: tagOnly(o.value, `${field}.value`), gap: str(o.gap, `${field}.gap`, { empty: true }) }
    case 'json': {
      obj(v, field, ['kind', 'field', 'aliases', 'fence', 'serialised'])
      const out: ArgumentsSpec = { kind }
      if (o.field !== undefined) out.field = str(o.field, `${field}.field`)
      if (o.aliases !== undefined) out.aliases = strings(o.aliases, `${field}.aliases`)
      if (o.fence !== undefined) out.fence = str(o.fence, `${field}.fence`, { empty: true })
      if (bool(o.serialised, `${field}.serialised`) !== undefined) out.serialised = o.serialised as boolean
      return out
    }
    default:
      obj(v, field, ['kind'])
      return { kind }
  }
}

const headNames = new Set(['head', 'header'])
const jsonNames = new Set(['json-field', 'json-key'])

function callSpec(v: unknown, field: string): CallSpec {
  const o = obj(v, field, ['open', 'close', 'outer', 'name', 'id', 'headSeparator', 'arguments', 'gap'])
  const call: CallSpec = { name: nameSource(o.name, `${field}.name`), arguments: argumentsSpec(o.arguments, `${field}.arguments`), gap: str(o.gap, `${field}.gap`, { empty: true }) }
  if ((o.open === undefined) !== (o.close === undefined)) throw new Bad(`${field}.${o.open === undefined ? 'open' : 'close'}`, 'a call frame needs both open and close')
  if (o.open !== undefined) call.open = delimiter(o.open, `${field}.open`)
  if (o.close !== undefined) call.close = delimiter(o.close, `${field}.close`)
  if (o.outer !== undefined) {
    const out = obj(o.outer, `${field}.outer`, ['open', 'close'])
    call.outer = { open: delimiter(out.open, `${field}.outer.open`, ['literal']) as never, close: delimiter(out.close, `${field}.outer.close`, ['literal']) as never }
  }
  if (o.id !== undefined) call.id = idSpec(o.id, `${field}.id`)
  if (o.headSeparator !== undefined) {
    if (!headNames.has(call.name.from)) throw new Bad(`${field}.headSeparator`, 'only follows a name read from a head or header')
    call.headSeparator = delimiter(o.headSeparator, `${field}.headSeparator`, ['literal']) as never
  }
  // the name and the arguments must come from the same kind of body
  const a = call.arguments.kind
  const n = call.name.from
  if (jsonNames.has(n) !== (a === 'json-value' || (a === 'json' && call.arguments.field !== undefined))) {
    throw new Bad(`${field}.arguments`, n === 'json-key' || n === 'json-field' ? 'a name read from a JSON object needs arguments from the same object (json with a field, or json-value)' : 'arguments from a field of a call object need the name from that object too')
  }
  if (n === 'json-key' && a !== 'json-value') throw new Bad(`${field}.arguments.kind`, 'a name read as the JSON key takes its value as the arguments (json-value)')
  if ((n === 'callee') !== (a === 'python-kwargs')) throw new Bad(`${field}.arguments.kind`, 'a Python callee and keyword arguments go together')
  if ((n === 'attribute' || n === 'tag-value') && call.open !== undefined && call.open.kind !== 'tag') throw new Bad(`${field}.open.kind`, 'a name read from a tag needs a tag frame')
  if (call.id?.from === 'head' && !headNames.has(n)) throw new Bad(`${field}.id.from`, 'the id is the head only when the name is read from it')
  return call
}

function block(v: unknown, field: string): BlockSpec {
  const o = obj(v, field, ['name', 'description', 'open', 'close', 'layout', 'array', 'padding', 'separator', 'anchored', 'trailing', 'call'])
  const pad = obj(o.padding, `${field}.padding`, ['afterOpen', 'beforeClose'])
  const sep = obj(o.separator, `${field}.separator`, ['write', 'as'])
  const b: BlockSpec = {
    name: str(o.name, `${field}.name`),
    open: delimiter(o.open, `${field}.open`, ['tag', 'literal', 'regex']),
    close: delimiter(o.close, `${field}.close`),
    layout: oneOf(o.layout, `${field}.layout`, ['wrapper', 'call', 'per-opener']),
    padding: { afterOpen: str(pad.afterOpen, `${field}.padding.afterOpen`, { empty: true }), beforeClose: str(pad.beforeClose, `${field}.padding.beforeClose`, { empty: true }) },
    separator: { write: str(sep.write, `${field}.separator.write`, { empty: true }), as: oneOf(sep.as, `${field}.separator.as`, ['block', 'text']) },
    call: callSpec(o.call, `${field}.call`),
  }
  if (o.description !== undefined) b.description = str(o.description, `${field}.description`)
  if (bool(o.array, `${field}.array`) !== undefined) b.array = o.array as boolean
  if (bool(o.anchored, `${field}.anchored`) !== undefined) b.anchored = o.anchored as boolean
  if (o.trailing !== undefined) b.trailing = strings(o.trailing, `${field}.trailing`)
  if (b.array === true && b.layout !== 'wrapper') throw new Bad(`${field}.array`, 'only a wrapper holds its calls as one array')
  if (b.layout === 'per-opener' && b.close.kind !== 'json-end' && b.close.kind !== 'end-of-stream') throw new Bad(`${field}.close.kind`, 'a per-opener block ends where its value ends (json-end) or at the end of the stream')
  if (b.call.open === undefined && (b.call.name.from === 'attribute' || b.call.name.from === 'tag-value') && b.open.kind !== 'tag') {
    throw new Bad(`${field}.call.name.from`, 'a name read from a tag needs a tag: the call frame or the block opener')
  }
  return b
}

function envelope(v: unknown, field: string): EnvelopeSpec {
  const o = obj(v, field, ['start', 'promptOpens', 'headerEnd', 'ends', 'routes'])
  if (!Array.isArray(o.routes) || o.routes.length === 0) throw new Bad(`${field}.routes`, 'must list at least one route')
  const env: EnvelopeSpec = {
    start: str(o.start, `${field}.start`),
    headerEnd: str(o.headerEnd, `${field}.headerEnd`),
    ends: strings(o.ends, `${field}.ends`),
    routes: o.routes.map((r, i) => {
      const ro = obj(r, `${field}.routes[${i}]`, ['header', 'to'])
      return { header: regex(ro.header, `${field}.routes[${i}].header`), to: oneOf(ro.to, `${field}.routes[${i}].to`, ['call', 'reasoning', 'text']) }
    }),
  }
  if (o.promptOpens !== undefined) env.promptOpens = str(o.promptOpens, `${field}.promptOpens`)
  return env
}

/**
 * A dialect pack checked and copied (unknown fields refused), deep-frozen,
 * ready for the sieve and the writers.
 *
 * @throws {ToolsieveError} `invalid-dialect`, `field` naming the bad field.
 */
export function validateDialect(data: unknown): DialectPack {
  const o = obj(data, '', ['$schema', 'name', 'description', 'models', 'sources', 'grammar', 'tagSpelling', 'regions', 'envelope', 'values', 'blocks', 'limits'])
  const name = str(o.name, 'name')
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Bad('name', 'must be lower-case letters, digits, dots and dashes')
  const description = str(o.description, 'description')
  const models = strings(o.models, 'models')
  const sources = strings(o.sources, 'sources')
  const rules = values(o.values, 'values')
  if (!Array.isArray(o.blocks) || o.blocks.length === 0) throw new Bad('blocks', 'must list at least one block')
  const pack: DialectPack = { name, description, models, sources, values: rules, blocks: o.blocks.map((b, i) => block(b, `blocks[${i}]`)) }
  const seen = new Set<string>()
  pack.blocks.forEach((b, i) => {
    if (seen.has(b.name)) throw new Bad(`blocks[${i}].name`, `repeats ${JSON.stringify(b.name)}`)
    seen.add(b.name)
  })
  if (o.grammar !== undefined) pack.grammar = oneOf(o.grammar, 'grammar', ['default'] as const)
  if (o.tagSpelling !== undefined) {
    const t = obj(o.tagSpelling, 'tagSpelling', ['open', 'close', 'end'])
    pack.tagSpelling = { open: str(t.open, 'tagSpelling.open'), close: str(t.close, 'tagSpelling.close'), end: str(t.end, 'tagSpelling.end') }
  }
  if (o.regions !== undefined) {
    if (!Array.isArray(o.regions)) throw new Bad('regions', 'must be an array')
    pack.regions = o.regions.map((r, i) => region(r, `regions[${i}]`))
  }
  if (o.envelope !== undefined) pack.envelope = envelope(o.envelope, 'envelope')
  if (o.limits !== undefined) pack.limits = strings(o.limits, 'limits')
  if (o.$schema !== undefined) str(o.$schema, '$schema', { empty: true })
  return deepFreeze(pack)
}
