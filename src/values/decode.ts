/**
 * Decoding an invoke into a tool name and arguments. All value rules live in
 * `src/values/` so the sieve and `parseToolCalls` share them; README lists
 * them in order:
 *
 * 1. A `string` attribute is DeepSeek's own marking, read exactly as its
 *    decoder reads it: `string="true"` is the exact text between the tags
 *    (`<![CDATA[x]]>` included, literally); `string="false"` is JSON of that
 *    exact text, else the text plus `bad-json-value`.
 * 2. One CDATA section (whitespace around ignored) is its content verbatim;
 *    text and CDATA otherwise join in order.
 * 3. Plain text is trimmed and entity-decoded once.
 * 4. A plain or CDATA value that is a JSON literal decodes to it, except for
 *    raw-text parameter names (`content`, `path`, … in the grammar config).
 * 5. Nested elements become an object; `<item>` lists an array.
 * 6. A parameter given twice is an array; a JSON invoke body is the input.
 * 7. Keys are own properties whatever their name (`__proto__` included).
 *
 * Every number read from JSON keeps the text it was written with
 * (`JsonNumber`, `json-number.ts`): `arguments` carries it, `input` gets the
 * nearest double.
 */
import type { ParsedInvoke, ParsedParam } from '../parser/block-parser.js'
import type { DiagnosticCode } from '../types.js'
import { parseJson } from './json.js'
import { jsonLiteral } from './json-literal.js'
import { contentNode, leafNode, type Node } from './node.js'
import { isPlainObject } from './own.js'
import { decodeEntities, partsText, soleCdata, trimXml } from './text.js'
import { parseElements } from './xml.js'
import { stringFlagOf, tagValueKey } from '../parser/tag-attributes.js'
import { pythonLiteral } from './python-literal.js'

/** What value decoding needs from the grammar. */
export interface ValueOptions {
  nameAttr: string
  stringAttr: string
  /** Names and keys come from the tag's own value (`<function=f>`), not the name attribute (`Grammar.attributes.from`). */
  fromTagValue?: boolean
  /** Every value is raw text (`Grammar.values.strings`: 'raw'). */
  rawValues?: boolean
  /** Raw values' objects and arrays are Python literals (`Grammar.values.containers`: 'python'). */
  pythonContainers?: boolean
  /** What a raw value may be padded with at each edge, dropped once there (`Grammar.values.padding`); '' for none. */
  padding?: string
  /** Raw-text parameter names, lower-cased. */
  rawText: ReadonlySet<string>
}

/** A problem with one call that still decoded: reported, and `onInvalid` decides. */
export interface CallProblem {
  code: DiagnosticCode
  message: string
  /** JSON Pointer into the input. */
  path?: string
}

/** Why an invoke could not become a call at all. */
export type InvokeProblem = 'missing-name' | 'missing-parameter-name' | 'repeated-attribute' | 'bad-json-body'

export type DecodedInvoke =
  | {
      ok: true
      name: string
      /** Parameters in first-seen order, or null for a JSON body. */
      params: Array<[string, Node]> | null
      /** The JSON body's object (rule 6), when the invoke had one. */
      body: Record<string, unknown> | null
      problems: CallProblem[]
    }
  | { ok: false; problem: InvokeProblem }

const wrapperKeys = ['input', 'arguments', 'parameters']

/** A JSON Pointer token for `key` (RFC 6901). */
export function pointer(key: string): string {
  return '/' + key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** An attribute value: trimmed first, so `&#32;` can keep an edge space, then entity-decoded. */
function attrValue(v: string | undefined): string {
  return v === undefined ? '' : decodeEntities(trimXml(v))
}

/** The attribute a tag's name is read from: the tag's own value (`<function=f>`), or the name attribute. */
const nameKey = (opts: ValueOptions): string => (opts.fromTagValue === true ? tagValueKey : opts.nameAttr)

/** A tag's name from its attributes: a parameter's key, an invoke's tool ('' when it has none). */
export function paramKey(attrs: ParsedParam['attrs'], opts: ValueOptions): string {
  return attrValue(attrs.get(nameKey(opts)))
}

/**
 * A tag that writes its name or its `string` flag twice (`<invoke name="f"
 * name="g">`): other readers take the last where this one takes the first,
 * so the tag names no call or key for sure.
 */
export function ambiguousTag(attrs: ParsedParam['attrs'], opts: ValueOptions): boolean {
  return attrs.repeated(nameKey(opts)) || attrs.repeated(opts.stringAttr)
}

export function decodeInvoke(inv: ParsedInvoke, opts: ValueOptions): DecodedInvoke {
  const name = paramKey(inv.attrs, opts)
  if (name === '') return { ok: false, problem: 'missing-name' }
  if (ambiguousTag(inv.attrs, opts)) return { ok: false, problem: 'repeated-attribute' }
  const problems: CallProblem[] = []
  if (inv.json !== null) {
    if (inv.params.length > 0) return { ok: false, problem: 'bad-json-body' }
    const body = jsonBody(inv.json)
    return body === null ? { ok: false, problem: 'bad-json-body' } : { ok: true, name, params: null, body, problems }
  }
  // a Map: a parameter named `__proto__` is a key like any other
  const params = new Map<string, Node>()
  for (const p of inv.params) {
    const key = paramKey(p.attrs, opts)
    if (key === '') return { ok: false, problem: 'missing-parameter-name' }
    if (ambiguousTag(p.attrs, opts)) return { ok: false, problem: 'repeated-attribute' }
    const node = paramNode(p, key, opts, problems)
    const seen = params.get(key)
    if (seen === undefined) params.set(key, node)
    else if (seen.kind === 'repeated') seen.nodes.push(node)
    else params.set(key, { kind: 'repeated', nodes: [seen, node] })
  }
  return { ok: true, name, params: [...params], body: null, problems }
}

/** Rule 6: a JSON object body, unwrapping a lone `input` / `arguments` / `parameters` object (or OpenAI-style JSON string). */
function jsonBody(json: string): Record<string, unknown> | null {
  const r = parseJson(json)
  // the parser makes every key an own property (`__proto__` too), as JSON.parse does; a key written twice in one
  // object is read differently by other JSON parsers (the first, the last, or none): the body is no call's
  if (!r.ok || r.duplicate !== undefined || !isPlainObject(r.value)) return null
  const parsed = r.value
  const keys = Object.keys(parsed)
  if (keys.length === 1 && wrapperKeys.includes(keys[0]!)) {
    let inner = parsed[keys[0]!]
    if (typeof inner === 'string') {
      const l = jsonLiteral(trimXml(inner))
      if (l.ok && l.duplicate !== undefined) return null
      if (l.ok) inner = l.value
    }
    if (isPlainObject(inner)) return inner
  }
  return parsed
}

/** Python's spellings of the JSON literals, as raw-value dialects write them (`str(True)`). */
const pythonLiterals: ReadonlyMap<string, boolean | null> = new Map([['True', true], ['False', false], ['None', null]])

/**
 * A raw value: the text between the tags, with the dialect's padding (a
 * line feed, as Qwen3-Coder's template writes it; CRLF too) dropped once at
 * each edge; the schema types it, or
 * with none it is read as a JSON literal where it is one (`42`, `{"a": 1}`)
 * or a Python one (`True`, `None`), else kept as text.
 */
function rawNode(raw: string, padding: string, python: boolean): Node {
  let text = raw
  if (padding === '\n' && text.startsWith('\r\n')) text = text.slice(2)
  else if (padding !== '' && text.startsWith(padding)) text = text.slice(padding.length)
  if (padding === '\n' && text.endsWith('\r\n')) text = text.slice(0, -2)
  else if (padding !== '' && text.endsWith(padding) && text.length >= padding.length) text = text.slice(0, -padding.length)
  const py = pythonLiterals.get(text)
  if (py !== undefined) return { kind: 'json', value: py, text }
  // a dict or a list as Python's str() writes it (`{'k': True}`): JSON reads none of it
  const c = text.charCodeAt(0)
  if (python && (c === 0x7b || c === 0x5b || c === 0x28) && !jsonLiteral(text).ok) {
    const r = pythonLiteral(text)
    if (r.ok) return { kind: 'json', value: r.value, text }
  }
  return { kind: 'text', text, literal: true }
}

function paramNode(p: ParsedParam, key: string, opts: ValueOptions, problems: CallProblem[]): Node {
  if (opts.rawValues === true) return rawNode(p.raw, opts.padding ?? '', opts.pythonContainers === true)
  const mode = stringFlagOf(p.attrs, opts.stringAttr)
  // DeepSeek's encoder writes these raw and its decoder reads them back exactly: nothing inside is markup
  if (mode === 'true') return { kind: 'text', text: p.raw, literal: false }
  if (mode === 'false') {
    // the writer said this is JSON: a number is a JSON number, however many digits
    const l = parseJson(p.raw)
    const text = trimXml(p.raw)
    if (l.ok) return { kind: 'json', value: l.value, text }
    problems.push({ code: 'bad-json-value', message: `parameter "${key}" is marked ${opts.stringAttr}="false" but its value is not JSON; kept as a string`, path: pointer(key) })
    return { kind: 'text', text, literal: false }
  }
  const isRaw = (n: string) => opts.rawText.has(n.toLowerCase())
  if (!isRaw(key) && soleCdata(p.parts) === null && trimXml(p.raw).startsWith('<')) {
    const elements = parseElements(p.raw)
    if (elements !== null) {
      // a single child named like the parameter is a wrapper around its value
      const only = elements.length === 1 ? elements[0]! : null
      if (only !== null && only.name.toLowerCase() === key.toLowerCase()) return contentNode(only.content, only.name, isRaw)
      const children = elements.map((e) => ({ name: e.name, node: contentNode(e.content, e.name, isRaw) }))
      return { kind: 'elements', text: partsText(p.parts), children }
    }
  }
  return leafNode(p.parts, !isRaw(key))
}
