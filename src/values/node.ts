/**
 * A decoded parameter before it becomes a value. Keeping the text beside
 * the structure is what lets a schema ask for a string and get the exact
 * text (`"1.0"`, not `1`), while no schema gets rules 4–6.
 */
import type { ValuePart } from '../parser/block-parser.js'
import { jsonLiteral } from './json-literal.js'
import { plainObject, setOwn } from './own.js'
import { hasCdata, partsText, soleCdata } from './text.js'
import { rawParts, type XmlContent } from './xml.js'

export type Node =
  /** A string; `literal`: rule 4 may read it as a JSON literal. */
  | { kind: 'text'; text: string; literal: boolean }
  /** Nested elements (rule 5); `text` is the same value read as a string (rule 3). */
  | { kind: 'elements'; text: string; children: NamedNode[] }
  /** Already a value (`string="false"`), numbers with their digits (`JsonNumber`); `text` is its source, trimmed. */
  | { kind: 'json'; value: unknown; text: string }
  /** The same parameter, or child element, given more than once (rule 6). */
  | { kind: 'repeated'; nodes: Node[] }

export interface NamedNode {
  name: string
  node: Node
}

/** A leaf: one CDATA section verbatim, plain text trimmed and decoded, or the two joined (never a literal). */
export function leafNode(parts: readonly ValuePart[], literal: boolean): Node {
  const sole = soleCdata(parts)
  if (sole !== null) return { kind: 'text', text: sole, literal }
  return { kind: 'text', text: partsText(parts), literal: literal && !hasCdata(parts) }
}

/** The node of an element's content; `isRaw` says whether a name carries raw text. */
export function contentNode(content: XmlContent, name: string, isRaw: (name: string) => boolean): Node {
  const raw = isRaw(name)
  if (content.children.length === 0) return leafNode(content.parts, !raw)
  const text = partsText(rawParts(content.raw))
  if (content.mixed || raw) return { kind: 'text', text, literal: false }
  return { kind: 'elements', text, children: content.children.map((c) => ({ name: c.name, node: contentNode(c.content, c.name, isRaw) })) }
}

/** A body of only `<item>` children is a list, even of one. */
export function isItemList(children: readonly NamedNode[]): boolean {
  return children.every((c) => c.name.toLowerCase() === 'item')
}

/** Children by name in first-seen order; a repeated name becomes one `repeated` node. */
export function groupChildren(children: readonly NamedNode[]): Array<[string, Node]> {
  // a Map, not an object: a child named `__proto__` is just a key
  const groups = new Map<string, Node[]>()
  for (const c of children) {
    const g = groups.get(c.name)
    if (g) g.push(c.node)
    else groups.set(c.name, [c.node])
  }
  return [...groups].map(([name, nodes]) => [name, nodes.length === 1 ? nodes[0]! : { kind: 'repeated', nodes }])
}

/** The value with no schema: rules 4–6; numbers keep their digits (`JsonNumber`) until the call is written. */
export function defaultValue(node: Node): unknown {
  switch (node.kind) {
    case 'text': {
      if (!node.literal) return node.text
      const l = jsonLiteral(node.text)
      return l.ok ? l.value : node.text
    }
    case 'json':
      return node.value
    case 'repeated':
      return node.nodes.map(defaultValue)
    case 'elements': {
      if (isItemList(node.children)) return node.children.map((c) => defaultValue(c.node))
      const obj = plainObject()
      for (const [name, child] of groupChildren(node.children)) setOwn(obj, name, defaultValue(child))
      return obj
    }
  }
}

/** The same node read as a string, when it has one reading (a repeated parameter has none). */
export function textView(node: Node): string | null {
  return node.kind === 'repeated' ? null : node.text
}
