/**
 * Coercion to a tool's JSON Schema. The model writes everything as text; the
 * schema says what each value is. A string-typed parameter gets its text as
 * written (never JSON-decoded: `"123"` stays `"123"`, a file `content` of
 * `{…}` stays text); numbers, booleans, null, objects and arrays are read
 * from the text or the nested elements. A value that cannot be read as the
 * schema asks stays as decoded, and validation says why.
 */
import { defaultValue, groupChildren, isItemList, textView, type NamedNode, type Node } from '../values/node.js'
import { isPlainObject, plainObject, setOwn } from '../values/own.js'
import { trimXml } from '../values/text.js'
import { allows, branchesOf, declaredTypes, enumOf, itemSchema, propertySchema, resolve, typeOf, type JsonType, type Schema } from './keywords.js'

type Result = { ok: true; value: unknown } | { ok: false }
const no: Result = { ok: false }
const yes = (value: unknown): Result => ({ ok: true, value })

const numberRe = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/
const integerRe = /^-?[0-9]+$/

/** A number from text, by JSON's grammar; non-finite and inexact integers are refused. */
function readNumber(text: string, integer: boolean): Result {
  const t = trimXml(text)
  if (!numberRe.test(t)) return no
  const n = Number(t)
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || (integerRe.test(t) && !Number.isSafeInteger(n))) return no
  return yes(n)
}

function readJson(text: string, type: 'object' | 'array'): Result {
  try {
    const v: unknown = JSON.parse(trimXml(text))
    return typeOf(v) === type ? yes(v) : no
  } catch {
    return no
  }
}

/** A scalar from text. */
function fromText(text: string, t: JsonType): Result {
  switch (t) {
    case 'string':
      return yes(text)
    case 'integer':
    case 'number':
      return readNumber(text, t === 'integer')
    case 'boolean': {
      const b = trimXml(text).toLowerCase()
      return b === 'true' ? yes(true) : b === 'false' ? yes(false) : no
    }
    case 'null': {
      const n = trimXml(text).toLowerCase()
      return n === 'null' || n === '' ? yes(null) : no
    }
    default:
      return readJson(text, t)
  }
}

/** Coerces a decoded parameter (or child element) to `schema`. */
export function coerceNode(node: Node, schema: unknown, root: Schema): unknown {
  const s = resolve(schema, root)
  if (s === null) return defaultValue(node)
  if (node.kind === 'json') return coerceValue(node.value, s, root, node.text)
  const natural = defaultValue(node)
  const branches = branchesOf(s)
  if (branches !== null) return pickBranch(branches, root, natural, (b) => coerceNode(node, b, root))
  const members = enumOf(s)
  if (members !== null) {
    const text = textView(node)
    for (const m of members) {
      if (sameJson(m, natural) || (typeof m === 'string' && m === text)) return m
      if (text !== null && m !== null && typeof m !== 'object') {
        const r = fromText(text, typeOf(m))
        if (r.ok && r.value === m) return m
      }
    }
  }
  const types = declaredTypes(s)
  const own = typeOf(natural)
  if (allows(types, own)) {
    const r = nodeAs(node, own, s, root, natural)
    return r.ok ? r.value : natural
  }
  for (const t of types!) {
    const r = nodeAs(node, t, s, root, natural)
    if (r.ok) return r.value
  }
  return natural
}

/** `node` read as type `t`, recursing into properties and items. */
function nodeAs(node: Node, t: JsonType, s: Schema, root: Schema, natural: unknown): Result {
  if (node.kind === 'repeated') return t === 'array' ? yes(listOf(node.nodes, s, root)) : no
  if (node.kind === 'elements') {
    if (t === 'string') return yes(node.text)
    if (t === 'object') return yes(objectOf(groupChildren(node.children), s, root))
    if (t === 'array') return yes(listOf(listNodes(node.children), s, root))
    return no
  }
  if (node.kind === 'json') return yes(coerceValue(node.value, s, root, node.text))
  if (t === 'object' || t === 'array') {
    // a literal the default rules already read, or JSON text under a raw-text name the schema says is structured
    const v = typeOf(natural) === t ? yes(natural) : readJson(node.text, t)
    if (v.ok) return yes(refine(v.value, s, root))
    return t === 'array' ? yes([coerceNode(node, itemSchema(s, 0), root)]) : no
  }
  return fromText(node.text, t)
}

/** The nodes of a list written as elements: `<item>`s, one name repeated, or a single child. */
function listNodes(children: readonly NamedNode[]): Node[] {
  if (isItemList(children)) return children.map((c) => c.node)
  const groups = groupChildren(children)
  if (groups.length === 1) {
    const only = groups[0]![1]
    return only.kind === 'repeated' ? only.nodes : [only]
  }
  return children.map((c) => c.node)
}

function listOf(nodes: readonly Node[], s: Schema, root: Schema): unknown[] {
  return nodes.map((n, i) => coerceNode(n, itemSchema(s, i), root))
}

/** An object from named nodes, each coerced to its property's schema (rule 7: own keys only). */
export function objectOf(entries: ReadonlyArray<readonly [string, Node]>, s: Schema | null, root: Schema): Record<string, unknown> {
  const obj = plainObject()
  for (const [key, node] of entries) setOwn(obj, key, s === null ? defaultValue(node) : coerceNode(node, propertySchema(s, key), root))
  return obj
}

/** Coerces a plain JSON value (a JSON body, `string="false"`) to `schema`; `source` is its exact text, when known. */
export function coerceValue(v: unknown, schema: unknown, root: Schema, source?: string): unknown {
  const s = resolve(schema, root)
  if (s === null) return v
  const branches = branchesOf(s)
  if (branches !== null) return pickBranch(branches, root, v, (b) => coerceValue(v, b, root, source))
  const members = enumOf(s)
  if (members !== null) {
    for (const m of members) {
      if (sameJson(m, v)) return m
      if (m !== null && typeof m !== 'object' && v !== null && typeof v !== 'object' && String(m) === String(v)) return m
    }
  }
  const types = declaredTypes(s)
  if (allows(types, typeOf(v))) return refine(v, s, root)
  for (const t of types!) {
    const r = valueAs(v, t, s, root, source)
    if (r.ok) return r.value
  }
  return v
}

function valueAs(v: unknown, t: JsonType, s: Schema, root: Schema, source: string | undefined): Result {
  if (typeof v === 'string') {
    const r = fromText(v, t)
    return r.ok && (t === 'object' || t === 'array') ? yes(refine(r.value, s, root)) : r
  }
  if (t === 'string') {
    if (source !== undefined) return yes(source)
    return typeof v === 'number' || typeof v === 'boolean' ? yes(String(v)) : v !== null ? yes(JSON.stringify(v)) : no
  }
  if (t === 'array') return yes([coerceValue(v, itemSchema(s, 0), root)])
  return no
}

/** Recurses into an object's properties and an array's items. */
function refine(v: unknown, s: Schema, root: Schema): unknown {
  if (Array.isArray(v)) return v.map((x, i) => coerceValue(x, itemSchema(s, i), root))
  if (!isPlainObject(v)) return v
  const obj = plainObject()
  for (const k of Object.keys(v)) setOwn(obj, k, coerceValue(v[k], propertySchema(s, k), root))
  return obj
}

/**
 * `anyOf`/`oneOf`: the first branch whose types allow the value as decoded
 * keeps it; otherwise the first branch the value can be read as.
 */
function pickBranch(branches: readonly unknown[], root: Schema, natural: unknown, coerce: (branch: unknown) => unknown): unknown {
  const t = typeOf(natural)
  for (const b of branches) {
    const r = resolve(b, root)
    if (r === null || allows(declaredTypes(r), t)) return coerce(b)
  }
  for (const b of branches) {
    const out = coerce(b)
    if (allows(declaredTypes(resolve(b, root)!), typeOf(out))) return out
  }
  return natural
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  return JSON.stringify(a) === JSON.stringify(b)
}
