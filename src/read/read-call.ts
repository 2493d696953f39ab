/**
 * One call inside a block, read as the pack's `call` spec says it is
 * written: its frame (tokens, tag), its name (attribute, tag value, head,
 * JSON field or key, Python callee), its id, and its arguments. Blanks
 * between parts are optional; anything else the spec does not explain
 * fails the read.
 */
import type { Node } from '../values/node.js'
import { isPlainObject } from '../values/own.js'
import type { TagSpelling } from '../types.js'
import type { BlockSpec, CallSpec, Delimiter, DialectPack } from '../dialects/types.js'
import { spellings } from '../dialects/spelling.js'
import { closeTag, fail, isBlankText, openTag, type OpenTag, type Scan, shown } from './read-scan.js'
import { argumentsObject, elementNode, jsonId, readJson, readObjectLiteral, readPythonCall } from './read-values.js'

/** A call as read, before the block gives it its end. */
export interface CallRead {
  name: string
  /** The call's id where the markup carries one (Kimi K2's head `functions.f:0`, Kimi K3's `index`, a JSON `id` field); never empty: the readers leave an empty one out. */
  id?: string
  /** Why the id the call's markup carries is no id (a JSON `"id": 123`): the call is read, and gets a made id and an `invalid-call-id` saying so. */
  idProblem?: string
  /** Arguments as key → value nodes in written order (elements, pairs, Python keyword arguments, object literal), or null when `body` is set. */
  params: Array<[string, Node]> | null
  /** Arguments as one JSON object (JSON arguments, numbers with their digits), or null. */
  body: Record<string, unknown> | null
}

/** One call read from a block, by any of the pack readers (the sieve's `WholeCall`). */
export interface ReadCall extends CallRead {
  /** Offset in the block's text just past this call's markup, where the block's raw text is cut between its calls; the last call's is the text's length (the block's closer goes with it). */
  end: number
}

export interface CallContext {
  pack: DialectPack
  block: BlockSpec
  sp: TagSpelling
  /** `call 2`, for reasons. */
  where: string
  /** The block's own opening tag when the block is the call's frame. */
  blockTag: OpenTag | null
}

function openDelimiter(scan: Scan, d: Delimiter, sp: TagSpelling, what: string): OpenTag | null {
  if (d.kind === 'tag') return openTag(scan, sp, d.name)
  if (d.kind === 'literal') {
    if (scan.eatAny(d.text) === null && d.optional !== true) scan.expect(d.text, what)
    return null
  }
  return fail(`${what} is not a tag or a literal`)
}

function closeDelimiter(scan: Scan, d: Delimiter, sp: TagSpelling, what: string): void {
  if (d.kind === 'tag') closeTag(scan, sp, d.name)
  else if (d.kind === 'literal') {
    if (scan.eatAny(d.text) === null && d.optional !== true) scan.expect(d.text, what)
  } else fail(`${what} is not a tag or a literal`)
}

const patterns = new Map<string, RegExp>()

function compiled(pattern: string): RegExp {
  let re = patterns.get(pattern)
  if (re === undefined) {
    re = new RegExp(pattern, 'u')
    patterns.set(pattern, re)
  }
  return re
}

/** The strings where a head ends without a separator: where its arguments (or the call) start or end. */
function headStops(call: CallSpec, ctx: CallContext): string[] {
  const args = call.arguments
  const stops = [...spellings(call.close, 'close', ctx.sp)]
  if (call.headSeparator !== undefined) stops.push(...call.headSeparator.text.filter((t) => t !== ''))
  if (args.kind === 'pairs') stops.push(ctx.sp.open + args.key.name)
  else if (args.kind === 'elements') stops.push(ctx.sp.open + args.element.name)
  else if (args.kind === 'json' && args.fence !== undefined) stops.push('```')
  else if (args.kind === 'json' || args.kind === 'object-literal') stops.push('{')
  return stops
}

/** The head at the cursor (a name pattern's text), up to its separator or its arguments; the cursor after the separator. */
function readHead(scan: Scan, call: CallSpec, pattern: string, ctx: CallContext): { name: string; head: string } {
  const start = scan.at
  let end = -1
  for (const s of headStops(call, ctx)) {
    const i = scan.find(s)
    if (i !== -1 && (end === -1 || i < end)) end = i
  }
  // a call that is its block ends where the block's closer starts (the scan stops there)
  if (end === -1 && call.close === undefined) end = scan.end
  if (end === -1) fail(`${ctx.where}: its head does not end: ${shown(scan.text, start)}`)
  const head = scan.text.slice(start, end).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')
  if (head === '') fail(`${ctx.where} has no name at offset ${start}`)
  const name = compiled(pattern).exec(head)?.groups?.name
  if (name === undefined || name === '') fail(`${ctx.where}: the head ${JSON.stringify(head.slice(0, 60))} is not the pack's name pattern ${pattern}`)
  scan.at = end
  const sep = call.headSeparator
  if (sep !== undefined && scan.eatAny(sep.text) === null && sep.optional !== true && !sep.text.every(isBlankText)) {
    fail(`${ctx.where}: expected ${sep.text.map((t) => JSON.stringify(t)).join(' or ')} after the head, found ${shown(scan.text, scan.at)}`)
  }
  return { name, head }
}

/** The call at the cursor, its frame included; the cursor after it. */
export function readCall(scan: Scan, ctx: CallContext): CallRead {
  const call = ctx.block.call
  const sp = ctx.sp
  const { where } = ctx
  if (call.outer !== undefined) {
    scan.expect(call.outer.open.text, `the opener of ${where}`)
    scan.blanks()
  }
  const tag = call.open === undefined ? ctx.blockTag : openDelimiter(scan, call.open, sp, `the opener of ${where}`)
  scan.blanks()
  const out: CallRead = { name: '', params: null, body: null }
  const known = new Set<string>()
  const nameSpec = call.name
  if (nameSpec.from === 'attribute') {
    out.name = tag?.attrs.get(nameSpec.attribute) ?? ''
    known.add(nameSpec.attribute)
  } else if (nameSpec.from === 'tag-value') out.name = tag?.value ?? ''
  if (call.id?.from === 'attribute') {
    const field = call.id.field ?? 'id'
    known.add(field)
    const id = tag?.attrs.get(field)
    if (id !== undefined && id !== '') out.id = id
  }
  if (tag !== null) {
    for (const k of tag.attrs.keys()) if (!known.has(k)) fail(`${where}: its tag has the attribute ${k}, which the pack does not write`)
    if (tag.value !== undefined && nameSpec.from !== 'tag-value') fail(`${where}: its tag has a value slot the pack does not write`)
  }
  if (nameSpec.from === 'head') {
    const h = readHead(scan, call, nameSpec.pattern, ctx)
    out.name = h.name
    if (call.id?.from === 'head' && h.head !== '') out.id = h.head
    scan.blanks()
  } else if (nameSpec.from === 'header') fail(`${where}: names from a message header are read by an envelope, not a block`)
  readArguments(scan, call, ctx, out)
  if (out.name === '') fail(`${where} has no name`)
  scan.blanks()
  if (call.close !== undefined) closeDelimiter(scan, call.close, sp, `the closer of ${where}`)
  if (call.outer !== undefined) {
    scan.blanks()
    scan.expect(call.outer.close.text, `the closer of ${where}`)
  }
  return out
}

function readArguments(scan: Scan, call: CallSpec, ctx: CallContext, out: CallRead): void {
  const args = call.arguments
  const { where } = ctx
  switch (args.kind) {
    case 'json': {
      if (call.name.from === 'json-field') return jsonCall(scan, call, ctx, out)
      if (args.fence !== undefined) {
        scan.expect(['```' + args.fence], `the fence of ${where}'s arguments`)
        scan.blanks()
      }
      out.body = argumentsObject(readJson(scan, `${where}'s arguments`).value, args.serialised === true, `${where}'s arguments`)
      if (args.fence !== undefined) {
        scan.blanks()
        scan.expect(['```'], `the fence closing ${where}'s arguments`)
      }
      return
    }
    case 'json-value': {
      const { value } = readJson(scan, where)
      if (!isPlainObject(value)) return fail(`${where} is not a JSON object`)
      const keys = Object.keys(value)
      if (keys.length !== 1) return fail(`${where} has ${keys.length} keys; its only key is its name`)
      out.name = keys[0]!
      out.body = argumentsObject(value[keys[0]!], false, `${where}'s arguments`)
      return
    }
    case 'python-kwargs': {
      const r = readPythonCall(scan, where)
      out.name = r.name
      out.params = r.params
      return
    }
    case 'object-literal':
      out.params = readObjectLiteral(scan, ctx.pack.values, `${where}'s arguments`)
      return
    case 'pairs':
      out.params = readPairs(scan, args, ctx)
      return
    case 'elements':
      out.params = readElements(scan, args, call, ctx)
      return
  }
}

/** A call as one JSON object: name, arguments (or an alias) and id fields, nothing else. */
function jsonCall(scan: Scan, call: CallSpec, ctx: CallContext, out: CallRead): void {
  const { where } = ctx
  const args = call.arguments as Extract<CallSpec['arguments'], { kind: 'json' }>
  const { value } = readJson(scan, where)
  if (!isPlainObject(value)) return fail(`${where} is not a JSON object`)
  const nameField = (call.name as { field: string }).field
  const argFields = [args.field ?? 'arguments', ...(args.aliases ?? [])]
  const idField = call.id?.from === 'json-field' ? (call.id.field ?? 'id') : undefined
  for (const k of Object.keys(value)) {
    if (k !== nameField && k !== idField && !argFields.includes(k)) fail(`${where} has the field ${JSON.stringify(k)}, which the pack does not write`)
  }
  const name = value[nameField]
  if (typeof name !== 'string' || name === '') fail(`${where} has no name (a non-empty string in "${nameField}")`)
  out.name = name
  const given = argFields.filter((f) => Object.hasOwn(value, f))
  if (given.length > 1) fail(`${where} has its arguments twice (${given.join(', ')})`)
  // the writer always writes them ({} for none): a call without its arguments is not one the template explains
  if (given.length === 0) fail(`${where} has no ${argFields.map((f) => JSON.stringify(f)).join(' or ')} field`)
  out.body = argumentsObject(value[given[0]!], args.serialised === true, `${where}'s ${given[0]!}`)
  // an id that is no string leaves the call good: a made id, and why (as the blocks that end with their JSON read it)
  if (idField !== undefined) Object.assign(out, jsonId(value[idField]))
}

/** Adds a value under `key`; a key given again makes a list, as the sieve reads a parameter given twice. */
function add(params: Map<string, Node>, key: string, node: Node): void {
  const seen = params.get(key)
  if (seen === undefined) params.set(key, node)
  else if (seen.kind === 'repeated') seen.nodes.push(node)
  else params.set(key, { kind: 'repeated', nodes: [seen, node] })
}

/** Raw text from the cursor to `closer` (which must come), the cursor then at the closer. */
function upTo(scan: Scan, closer: string, what: string): string {
  const i = scan.find(closer)
  if (i === -1) fail(`${what} is not closed by ${JSON.stringify(closer)}`)
  const raw = scan.text.slice(scan.at, i)
  scan.at = i
  return raw
}

function readPairs(scan: Scan, args: Extract<CallSpec['arguments'], { kind: 'pairs' }>, ctx: CallContext): Array<[string, Node]> {
  const sp = ctx.sp
  const params = new Map<string, Node>()
  const keyOpen = sp.open + args.key.name
  for (let n = 1; ; n++) {
    scan.blanks()
    if (!scan.startsWith(keyOpen)) break
    const what = `${ctx.where}'s argument ${n}`
    if (openTag(scan, sp, args.key.name).attrs.size > 0) fail(`${what}: its key tag has attributes`)
    const key = upTo(scan, sp.close + args.key.name, `${what}'s key`)
    closeTag(scan, sp, args.key.name)
    if (key === '') fail(`${what} has an empty key`)
    scan.blanks()
    const tag = openTag(scan, sp, args.value.name)
    const ta = ctx.pack.values.typeAttribute?.attribute
    for (const k of tag.attrs.keys()) if (k !== ta) fail(`${what}: its value tag has the attribute ${k}`)
    const raw = upTo(scan, sp.close + args.value.name, `${what}'s value`)
    closeTag(scan, sp, args.value.name)
    add(params, key, elementNode(raw, ctx.pack.values, ta === undefined ? undefined : tag.attrs.get(ta), `${what} (${key})`))
  }
  return [...params]
}

function readElements(scan: Scan, args: Extract<CallSpec['arguments'], { kind: 'elements' }>, call: CallSpec, ctx: CallContext): Array<[string, Node]> {
  const sp = ctx.sp
  const params = new Map<string, Node>()
  const name = args.element.name
  if (args.key.from === 'tag-name') fail(`${ctx.where}: argument keys from tag names are not read`)
  const keyAttr = args.key.from === 'attribute' ? args.key.attribute : undefined
  const ta = ctx.pack.values.typeAttribute?.attribute
  const closer = sp.close + name + sp.end
  // an element left open ends at the next element or at the call's closer
  const ends = args.close === 'implicit' ? [closer, sp.open + name, ...spellings(call.close ?? ctx.block.close, 'close', sp)] : [closer]
  for (let n = 1; ; n++) {
    scan.blanks()
    if (!scan.startsWith(sp.open + name)) break
    const what = `${ctx.where}'s argument ${n}`
    const tag = openTag(scan, sp, name)
    for (const k of tag.attrs.keys()) if (k !== keyAttr && k !== ta) fail(`${what}: its tag has the attribute ${k}`)
    const key = keyAttr === undefined ? tag.value : tag.attrs.get(keyAttr)
    if (key === undefined || key === '') fail(`${what} has no name`)
    let end = -1
    for (const e of ends) {
      const i = scan.find(e)
      if (i !== -1 && (end === -1 || i < end)) end = i
    }
    if (end === -1) fail(`${what} (${key}) is not closed by ${JSON.stringify(closer)}`)
    const raw = scan.text.slice(scan.at, end)
    scan.at = end
    if (scan.startsWith(sp.close + name)) closeTag(scan, sp, name)
    add(params, key, elementNode(raw, ctx.pack.values, ta === undefined ? undefined : tag.attrs.get(ta), `${what} (${key})`))
  }
  return [...params]
}
