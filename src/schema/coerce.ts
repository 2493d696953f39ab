/**
 * Coercion to a tool's JSON Schema. The model writes everything as text; the
 * schema says what each value is. A string-typed parameter gets its text as
 * written (never JSON-decoded: `"123"` stays `"123"`, a file `content` of
 * `{…}` stays text); numbers, booleans, null, objects and arrays are read
 * from the text or the nested elements. A value that cannot be read as the
 * schema asks stays as decoded, and validation says why.
 *
 * This file walks decoded parameters (nodes), whose nesting is bounded by
 * the XML reader's depth limit; JSON inside them, which is not bounded, goes
 * to `coerce-value.ts`.
 */
import { defaultValue, groupChildren, isItemList, textView, type NamedNode, type Node } from '../values/node.js'
import { plainObject, setOwn } from '../values/own.js'
import { coerceValue, maxHops, refine } from './coerce-value.js'
import { allows, branchesOf, declaredTypes, enumOf, itemSchema, propertySchema, resolve, typeOf, type JsonType, type Schema } from './keywords.js'
import { fromText, no, sameJson, scalar, yes, type Result } from './read.js'

export { coerceValue } from './coerce-value.js'

/**
 * Coerces a decoded parameter (or child element) to `schema`. `hops` counts
 * steps taken without going into the value (see {@link maxHops}).
 */
export function coerceNode(node: Node, schema: unknown, root: Schema, hops = 0): unknown {
  const s = resolve(schema, root)
  if (s === null || hops > maxHops) return defaultValue(node)
  if (node.kind === 'json') return coerceValue(node.value, s, root, node.text)
  const natural = defaultValue(node)
  const branches = branchesOf(s)
  if (branches !== null) return pickBranch(branches, root, natural, (b) => coerceNode(node, b, root, hops + 1))
  const members = enumOf(s)
  if (members !== null) {
    const text = textView(node)
    for (const m of members) {
      if (sameJson(m, natural) || (typeof m === 'string' && m === text)) return m
      if (text !== null && m !== null && typeof m !== 'object') {
        const r = fromText(text, typeOf(m))
        if (r.ok && scalar(r.value) === m) return m
      }
    }
  }
  const types = declaredTypes(s)
  const own = typeOf(natural)
  if (allows(types, own)) {
    const r = nodeAs(node, own, s, root, natural, hops)
    return r.ok ? r.value : natural
  }
  for (const t of types!) {
    const r = nodeAs(node, t, s, root, natural, hops)
    if (r.ok) return r.value
  }
  return natural
}

/** `node` read as type `t`, recursing into properties and items. */
function nodeAs(node: Node, t: JsonType, s: Schema, root: Schema, natural: unknown, hops: number): Result {
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
    const v = typeOf(natural) === t ? yes(natural) : fromText(node.text, t)
    if (v.ok) return yes(refine(v.value, s, root))
    return t === 'array' ? yes([coerceNode(node, itemSchema(s, 0), root, hops + 1)]) : no
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
