/**
 * `formatToolCalls(calls, { dialect })`: one interpreter of a pack's data
 * writes calls the way the family's chat template writes them (the rendered
 * fixtures check it byte for byte). Nothing here knows a family: every
 * difference comes from the pack.
 *
 * What a reader could not give back is refused (`invalid-option`), never
 * written: a raw value holding its own closer, a quoted string holding the
 * quote token, a key a bare-key literal cannot spell.
 */
import { ToolsieveError } from '../errors.js'
import { defaultGrammar } from '../grammar/default.js'
import type { BlockSpec, CallSpec, Delimiter, DialectPack, NameSource, TagSpelling, ValueRules } from '../dialects/types.js'
import type { FormattableCall } from '../types.js'
import { attribute, callAt, inputOf, mayClose, safeJson } from './format.js'
import { tagStartChars } from './spelling.js'
import { spellingOf } from '../dialects/spelling.js'
import { entries, jsonType, pythonString, quoted, writeContainer, writeJson, writeObjectLiteral, writePython, writeScalar, WrittenJson } from './literals.js'


/** The call, its input and its id, checked once. */
interface Call {
  name: string
  input: Record<string, unknown>
  id: string | undefined
  index: number
  where: string
}

interface Ctx {
  pack: DialectPack
  sp: TagSpelling
  block: BlockSpec
  values: ValueRules
}

const fill = (template: string, c: Call) =>
  template.replace(/\{(name|index|number)\}/g, (_, k: string) => (k === 'name' ? c.name : k === 'index' ? String(c.index) : String(c.index + 1)))

function idOf(spec: CallSpec['id'], c: Call): string | undefined {
  if (spec === undefined) return undefined
  // a given id is cut to length as a template cuts it (Mistral's keeps the last nine characters); a call's place is its place
  const id = spec.position === true ? fill(spec.template, c) : (c.id ?? fill(spec.template, c))
  if (spec.length === undefined) return id
  return id.length > spec.length ? id.slice(id.length - spec.length) : id.padStart(spec.length, spec.pad ?? '0')
}

/** A tag's opener: `<name=value a="v">` in the pack's spelling. */
function tagOpen(sp: TagSpelling, name: string, attrs: Array<[string, string]>, value?: string): string {
  return sp.open + name + (value === undefined ? '' : '=' + value) + attrs.map(([k, v]) => ` ${k}="${attribute(v)}"`).join('') + sp.end
}

const tagClose = (sp: TagSpelling, name: string) => sp.close + name + sp.end

/** What a delimiter writes; a tag takes the slots it carries. */
function write(d: Delimiter, role: 'open' | 'close', sp: TagSpelling, attrs: Array<[string, string]> = [], value?: string): string {
  switch (d.kind) {
    case 'tag':
      return role === 'open' ? tagOpen(sp, d.name, attrs, value) : tagClose(sp, d.name)
    case 'literal':
      return d.written === false ? '' : d.text[0]!
    case 'regex':
      return d.write
    default:
      return ''
  }
}

/** The text that would end `d` early if a value held it. */
function closer(d: Delimiter | undefined, sp: TagSpelling): string | undefined {
  if (d === undefined) return undefined
  if (d.kind === 'tag') return tagClose(sp, d.name)
  if (d.kind === 'literal') return d.text[0]
  return undefined
}

/**
 * Every text that ends `d` as a reader takes it: a tag's closer, each of a
 * literal's alternatives (the writer writes the first, a reader ends at any:
 * Kimi-K2's `<|tool_call_section_end|>`). A regex's cannot be listed.
 */
function closers(d: Delimiter | undefined, sp: TagSpelling): string[] {
  if (d === undefined) return []
  if (d.kind === 'tag') return [tagClose(sp, d.name)]
  if (d.kind === 'literal') return d.text.filter((t) => t !== '')
  return []
}

/**
 * Refuses a written value or key that holds one of `ends`, the closers of its
 * call and block: a reader takes the block (or call) to its first closer,
 * quote tokens and element tags notwithstanding, so what follows it would be
 * cut off (Gemma 4's `<tool_call|>` inside a `<|"|>` string). `where` names
 * the value or key in the message; the error's field is the call's input.
 */
function refuseEnds(text: string, ends: readonly string[], c: Call, ctx: Ctx, where: string): string {
  const hit = ends.find((e) => text.includes(e))
  if (hit !== undefined) throw new ToolsieveError('invalid-option', `${where} holds ${JSON.stringify(hit)}, which ends the call in dialect "${ctx.pack.name}"`, `${c.where}.input`)
  return text
}

/** A value standing alone in an element, with the pack's padding: its text and the JSON type its type attribute names. */
function elementValue(v: unknown, ctx: Ctx, elementName: string, forbidden: string[], where: string): { text: string; type: string } {
  const out = bareValue(v, ctx, elementName, forbidden, where)
  const pad = ctx.values.padding ?? ''
  return pad === '' ? out : { text: pad + out.text + pad, type: out.type }
}

function bareValue(v: unknown, ctx: Ctx, elementName: string, forbidden: string[], where: string): { text: string; type: string } {
  const rules = ctx.values
  if (typeof v === 'string') {
    switch (rules.strings) {
      case 'xml': {
        const starts = ctx.pack.grammar === 'default' ? tagStartChars(defaultGrammar) : new Set([ctx.sp.open[0]!, ctx.sp.close[0]!])
        // DeepSeek's rule: raw, unless the text could spell its own closer; then JSON with tag starts escaped
        if (!mayClose(v, elementName, starts)) return { text: v, type: 'string' }
        return { text: safeJson(JSON.stringify(v), starts), type: 'object' }
      }
      case 'json':
        return { text: JSON.stringify(v), type: 'string' }
      case 'python':
        return { text: pythonString(v), type: 'string' }
      case 'quoted':
        return { text: quoted(v, rules, where), type: 'string' }
      default: {
        const text = v
        const hit = forbidden.find((f) => text.includes(f))
        if (hit !== undefined) throw new ToolsieveError('invalid-option', `${where} holds ${JSON.stringify(hit)}, which ends a raw value in dialect "${ctx.pack.name}"`, where.replace(/\.input\..*$/, '.input'))
        return { text, type: 'string' }
      }
    }
  }
  const type = jsonType(v)
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return { text: writeScalar(v, rules), type }
  const text = writeContainer(v, rules, where)
  if (rules.strings === 'xml') {
    const starts = ctx.pack.grammar === 'default' ? tagStartChars(defaultGrammar) : new Set([ctx.sp.open[0]!])
    return { text: safeJson(text, starts), type }
  }
  const hit = forbidden.find((f) => text.includes(f))
  if (hit !== undefined) throw new ToolsieveError('invalid-option', `${where} holds ${JSON.stringify(hit)}, which ends a value in dialect "${ctx.pack.name}"`, where.replace(/\.input\..*$/, '.input'))
  return { text, type }
}

/** The argument parts of a tag-structured call: one string per element or pair. */
function argumentParts(c: Call, ctx: Ctx, callClose: string | undefined, ends: readonly string[]): string[] {
  const spec = ctx.block.call.arguments
  const sp = ctx.sp
  const out: string[] = []
  for (const [key, v] of entries(c.input, ctx.values.sortKeys === true, `${c.where}.input`)) {
    if (key === '') throw new ToolsieveError('invalid-option', `${c.where} has an empty parameter name`, `${c.where}.input`)
    const where = `${c.where}.input.${key}`
    if (spec.kind === 'elements') {
      const tagName = spec.key.from === 'tag-name' ? key : spec.element.name
      const forbidden = [tagClose(sp, tagName), ...ends]
      if (spec.close === 'implicit') forbidden.push(sp.open + spec.element.name, ...(callClose === undefined ? [] : [callClose]))
      const { text, type } = elementValue(v, ctx, tagName, forbidden, where)
      const attrs: Array<[string, string]> = spec.key.from === 'attribute' ? [[spec.key.attribute, key]] : []
      const ta = ctx.values.typeAttribute
      if (ta !== undefined) attrs.push([ta.attribute, ta.values[type as keyof typeof ta.values]])
      if (spec.key.from === 'tag-name') slot(key, ctx, where, `${c.where}.input`)
      out.push(tagOpen(sp, tagName, attrs, spec.key.from === 'tag-value' ? slot(key, ctx, where, `${c.where}.input`) : undefined) + text + tagClose(sp, tagName))
    } else if (spec.kind === 'pairs') {
      const { text } = elementValue(v, ctx, spec.value.name, [tagClose(sp, spec.value.name), ...ends], where)
      if (key.includes(tagClose(sp, spec.key.name))) throw new ToolsieveError('invalid-option', `${where}: the key holds its own closer`, `${c.where}.input`)
      refuseEnds(key, ends, c, ctx, `${where}: the key`)
      out.push(tagOpen(sp, spec.key.name, []) + key + tagClose(sp, spec.key.name) + spec.gap + tagOpen(sp, spec.value.name, []) + text + tagClose(sp, spec.value.name))
    }
  }
  return out
}

/**
 * The input as an object literal (Gemma 4): its strings sit between quote
 * tokens with nothing escaped, so one holding a closer of the call or block
 * cannot be written.
 */
function objectLiteral(c: Call, ctx: Ctx, ends: readonly string[]): string {
  const text = writeObjectLiteral(c.input, ctx.values, `${c.where}.input`)
  if (!ends.some((e) => text.includes(e))) return text
  // named by the key whose value holds it (bare keys cannot hold a closer's `<`)
  for (const [k, v] of entries(c.input, false, `${c.where}.input`)) refuseEnds(writeObjectLiteral(v, ctx.values, `${c.where}.input.${k}`), ends, c, ctx, `${c.where}.input.${k}`)
  return refuseEnds(text, ends, c, ctx, `${c.where}.input`)
}

/**
 * Python literals that cannot hold `ends`: a closer that starts with `<` can
 * only stand inside a string there, where its `<` is written `\x3c` (read
 * back as `<`), as {@link guardJson} writes `\u003c`; any other closer
 * found is refused.
 */
function guardPython(text: string, ends: readonly string[], c: Call, ctx: Ctx): string {
  let out = text
  for (const end of ends) if (end.startsWith('<') && out.includes(end)) out = out.split(end).join('\\x3c' + end.slice(1))
  return refuseEnds(out, ends, c, ctx, `${c.where}.input`)
}

/** JSON text that cannot hold `closers`: where it would, the closer's first character is written as `\uXXXX`. */
function guardJson(json: string, closers: Array<string | undefined>): string {
  const hits = closers.filter((cl): cl is string => cl !== undefined && cl !== '' && json.includes(cl))
  return hits.length === 0 ? json : safeJson(json, new Set(hits.map((h) => h[0]!)))
}

/** A call written as one JSON object: name, arguments and id as fields, in that order. */
function jsonCall(c: Call, ctx: Ctx, closers: Array<string | undefined>): string {
  const call = ctx.block.call
  const id = idOf(call.id, c)
  const input = new WrittenJson(writeJson(c.input, ctx.values, `${c.where}.input`))
  let obj: Record<string, unknown>
  if (call.name.from === 'json-key') obj = { [c.name]: input }
  else {
    obj = {}
    if (call.name.from === 'json-field') obj[call.name.field] = c.name
    const args = call.arguments
    obj[args.kind === 'json' && args.field !== undefined ? args.field : 'arguments'] = input
    if (id !== undefined && call.id?.from === 'json-field') obj[call.id.field ?? 'id'] = id
  }
  return guardJson(writeJson(obj, ctx.values, c.where), closers)
}

function pythonCall(c: Call): string {
  const args = entries(c.input, false, `${c.where}.input`).map(([k, v]) => {
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(k)) throw new ToolsieveError('invalid-option', `${c.where} has the key ${JSON.stringify(k)}, which is not a Python keyword`, `${c.where}.input`)
    return `${k}=${writePython(v, `${c.where}.input.${k}`)}`
  })
  if (!/^[\p{L}_][\p{L}\p{N}_.]*$/u.test(c.name)) throw new ToolsieveError('invalid-option', `${c.where}.name ${JSON.stringify(c.name)} is not a Python callee`, `${c.where}.name`)
  return `${c.name}(${args.join(', ')})`
}

/**
 * The head (or header) written for a call: the call's id where the id is the
 * head and the pack's pattern reads the call's name from it (an id from
 * another provider, `call_abc`, would read as the name), else the template.
 * A name the pattern would not read back cannot be written.
 */
function headOf(name: NameSource & { write: string; pattern: string }, id: string | undefined, c: Call, ctx: Ctx): string {
  const pattern = new RegExp(name.pattern, 'u')
  const reads = (head: string) => pattern.exec(head)?.groups?.name === c.name
  if (id !== undefined && reads(id)) return id
  const head = fill(name.write, c)
  if (!reads(head)) throw new ToolsieveError('invalid-option', `${c.where}.name ${JSON.stringify(c.name)} cannot be written in dialect "${ctx.pack.name}": its pattern would not read it back`, `${c.where}.name`)
  return head
}

const tagValue = /^[^\s<>="'/]+$/u

/** A name or key in a tag's value slot (`<function=f>`): nothing that would end the slot. */
function slot(value: string, ctx: Ctx, what: string, field: string): string {
  if (!tagValue.test(value) || value.includes(ctx.sp.end)) throw new ToolsieveError('invalid-option', `${what} ${JSON.stringify(value)} cannot be written in a tag's value slot in dialect "${ctx.pack.name}"`, field)
  return value
}

/** One call's text, inside its block. `opener` receives the name slots when the block's own opener carries them. */
function writeCall(c: Call, ctx: Ctx): { text: string; blockAttrs: Array<[string, string]>; blockValue: string | undefined } {
  const spec = ctx.block.call
  const sp = ctx.sp
  const id = idOf(spec.id, c)
  const attrs: Array<[string, string]> = []
  let value: string | undefined
  if (spec.name.from === 'attribute') attrs.push([spec.name.attribute, c.name])
  if (spec.name.from === 'tag-value') value = slot(c.name, ctx, `${c.where}.name`, `${c.where}.name`)
  if (spec.id?.from === 'attribute' && id !== undefined) attrs.push([spec.id.field ?? 'id', id])
  const callClose = closer(spec.close, sp) ?? closer(ctx.block.close, sp)
  // every spelling a reader ends the block at (a raw value may hold the call's own closer: the readers take the call's elements in turn)
  const blockEnds = closers(ctx.block.close, sp)
  const ends = [...closers(spec.close, sp), ...blockEnds]
  const args = spec.arguments
  const parts: string[] = []
  if (spec.open !== undefined) parts.push(write(spec.open, 'open', sp, attrs, value))
  if (spec.name.from === 'head' || spec.name.from === 'header') {
    parts.push(headOf(spec.name, spec.id?.from === 'head' ? id : undefined, c, ctx) + (spec.headSeparator === undefined ? '' : write(spec.headSeparator, 'open', sp)))
  }
  if (spec.name.from === 'callee') parts.push(guardPython(pythonCall(c), ends, c, ctx))
  else if (spec.name.from === 'json-field' || spec.name.from === 'json-key') parts.push(jsonCall(c, ctx, ends))
  else if (args.kind === 'elements' || args.kind === 'pairs') parts.push(...argumentParts(c, ctx, callClose, blockEnds))
  else if (args.kind === 'object-literal') parts.push(objectLiteral(c, ctx, ends))
  else {
    const json = guardJson(writeJson(c.input, ctx.values, `${c.where}.input`), ends)
    parts.push(args.kind === 'json' && args.fence !== undefined ? '```' + args.fence + '\n' + json + '\n```' : json)
  }
  if (spec.close !== undefined) parts.push(write(spec.close, 'close', sp))
  let text = parts.filter((p) => p !== '').join(spec.gap)
  if (spec.outer !== undefined) text = write(spec.outer.open, 'open', sp) + text + write(spec.outer.close, 'close', sp)
  // a block that is its own call frame (a bare `<function=f>`) carries the name slots on its opener
  const own = spec.open === undefined
  return { text, blockAttrs: own ? attrs : [], blockValue: own ? value : undefined }
}

function checkCall(given: unknown, index: number): Call {
  const where = `calls[${index}]`
  const call = callAt(given, index)
  if (typeof call.name !== 'string' || call.name === '') throw new ToolsieveError('invalid-option', `${where} needs a non-empty name`, `${where}.name`)
  const id = (call as { id?: unknown }).id
  if (id !== undefined && typeof id !== 'string') throw new ToolsieveError('invalid-option', `${where}.id must be a string`, `${where}.id`)
  return { name: call.name, input: inputOf(call, index), id, index, where }
}

/** The block spec `variant` names (default: the pack's first). */
export function blockOf(pack: DialectPack, variant: string | undefined): BlockSpec {
  if (variant === undefined) return pack.blocks[0]!
  const block = pack.blocks.find((b) => b.name === variant)
  if (block === undefined) {
    const names = pack.blocks.map((b) => JSON.stringify(b.name)).join(', ')
    throw new ToolsieveError('invalid-option', `dialect "${pack.name}" has no variant ${JSON.stringify(variant)} (it has ${names})`, 'variant')
  }
  return block
}

/** The block's padding around `inner`; around nothing, equal paddings are one line break, not two. */
function padded(block: BlockSpec, inner: string): string {
  const { afterOpen, beforeClose } = block.padding
  return inner === '' && afterOpen === beforeClose ? afterOpen : afterOpen + inner + beforeClose
}

/** Calls as `pack` writes them: one block, or one block per call joined by the block's separator. */
export function formatDialect(calls: readonly FormattableCall[], pack: DialectPack, variant?: string): string {
  if (!Array.isArray(calls)) throw new ToolsieveError('invalid-option', 'calls must be an array', 'calls')
  const block = blockOf(pack, variant)
  const ctx: Ctx = { pack, sp: spellingOf(pack), block, values: pack.values }
  const written = calls.map((call, i) => writeCall(checkCall(call, i), ctx))
  if (block.layout === 'wrapper') {
    const inner = written.map((w) => w.text).join(block.separator.write)
    return write(block.open, 'open', ctx.sp) + padded(block, block.array === true ? `[${inner}]` : inner) + write(block.close, 'close', ctx.sp)
  }
  return written.map((w) => write(block.open, 'open', ctx.sp, w.blockAttrs, w.blockValue) + padded(block, w.text) + write(block.close, 'close', ctx.sp)).join(block.separator.write)
}
