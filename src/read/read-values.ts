/**
 * Values as a pack writes them, read back into nodes the schema code types
 * (`buildInput`): JSON kept lossless (numbers with their digits), a raw value
 * read the way the sieve reads raw-value dialects, a value its type attribute
 * names, Python keyword arguments, and Gemma 4's bare-key object literal.
 */
import type { Node } from '../values/node.js'
import { parseJson, type JsonResult } from '../values/json.js'
import { jsonLiteral } from '../values/json-literal.js'
import { JsonNumber, jsonNumber } from '../values/json-number.js'
import { isPlainObject, plainObject, setOwn } from '../values/own.js'
import { pythonLiteral } from '../values/python-literal.js'
import { trimXml } from '../values/text.js'
import type { JsonType, ValueRules } from '../dialects/types.js'
import { isBlank } from '../lexer/codes.js'
import { fail, jsonEnd, pythonEnd, type Scan, shown } from './read-scan.js'

/** Nesting past this in an object literal is refused: a hostile value must not take the stack. */
const maxDepth = 256

/**
 * A call's id field (`"id"` in a JSON call object) as the readers give it:
 * a string is the model's id; absent, null or empty is no id; anything
 * else is an id the model wrote that cannot be one (Mistral's `"id": 123`).
 * The call is still read (its name and arguments are what it asks for):
 * it gets a made id, and `idProblem` says why (an `invalid-call-id`).
 */
export function jsonId(value: unknown): { id?: string; idProblem?: string } {
  if (value === undefined || value === null || value === '') return {}
  if (typeof value === 'string') return { id: value }
  const what = typeof value === 'number' ? `the number ${value}` : value instanceof JsonNumber ? `the number ${value.source}` : typeof value === 'boolean' ? String(value) : Array.isArray(value) ? 'an array' : 'an object'
  return { idProblem: `the model's call id is ${what}, not a string` }
}

/** The JSON value at the cursor, read losslessly; the cursor after it. */
export function readJson(scan: Scan, what: string): { value: unknown; text: string } {
  const start = scan.at
  const end = jsonEnd(scan.text, start, scan.end)
  if (end === -1) fail(`${what} at offset ${start} is not complete JSON: ${shown(scan.text, start)}`)
  const text = scan.text.slice(start, end)
  const r = parseJson(text)
  if (!r.ok) fail(`${what} at offset ${start} is not valid JSON: ${shown(scan.text, start)}`)
  unique(r, `${what} at offset ${start}`)
  scan.at = end
  return { value: r.value, text }
}

/**
 * JSON a call is read from, with no key written twice in one object: JSON
 * parsers disagree on which one counts (`JSON.parse` keeps the last, others
 * the first, or refuse), so such a call could run as one reader's and not
 * another's (`{"name": "f", "arguments": {}, "name": "g"}`): it is no call.
 */
function unique(r: Extract<JsonResult, { ok: true }>, what: string): Extract<JsonResult, { ok: true }> {
  if (r.duplicate !== undefined) fail(`${what} has the key ${JSON.stringify(r.duplicate)} twice in one object`)
  return r
}

/** An arguments object: the object itself, or (`serialised`) a JSON string holding one. */
export function argumentsObject(value: unknown, serialised: boolean, what: string): Record<string, unknown> {
  if (isPlainObject(value)) return value
  if (serialised && typeof value === 'string') {
    const r = parseJson(value)
    if (r.ok && isPlainObject(r.value)) return unique(r, what).value as Record<string, unknown>
    fail(`${what} is a string that does not hold a JSON object`)
  }
  return fail(`${what} is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`)
}

/** Python's spellings of the JSON literals, as raw-value dialects write them (`str(True)`). */
const pythonWords: ReadonlyMap<string, boolean | null> = new Map([
  ['True', true],
  ['False', false],
  ['None', null],
])

/** The padding dropped once from each edge, as the sieve drops it (a `\n` padding takes `\r\n` too). */
function unpad(raw: string, padding: string): string {
  if (padding === '') return raw
  let text = raw
  if (padding === '\n' && text.startsWith('\r\n')) text = text.slice(2)
  else if (text.startsWith(padding)) text = text.slice(padding.length)
  if (padding === '\n' && text.endsWith('\r\n')) text = text.slice(0, -2)
  else if (text.endsWith(padding)) text = text.slice(0, -padding.length)
  return text
}

/**
 * A raw value with no type given: a Python literal word or container (where
 * the pack writes those) is a value, anything else text that rule 4 may read
 * as a JSON literal; the schema, when there is one, decides.
 */
function guessNode(text: string, rules: ValueRules): Node {
  const word = wordValue(text, rules)
  if (word !== undefined) return { kind: 'json', value: word, text }
  const c = text.charCodeAt(0)
  if (rules.containers === 'python' && (c === 0x7b || c === 0x5b || c === 0x28) && !jsonLiteral(text).ok) {
    const r = pythonLiteral(text)
    if (r.ok) return { kind: 'json', value: r.value, text }
  }
  return { kind: 'text', text, literal: true }
}

/** `true`, `false` or `null` when `text` spells one as Python does or as the pack does; undefined otherwise. */
function wordValue(text: string, rules: ValueRules): boolean | null | undefined {
  if (pythonWords.has(text)) return pythonWords.get(text)
  const l = rules.literals
  return text === l.true ? true : text === l.false ? false : text === l.null ? null : undefined
}

/**
 * The node of an element's or pair's value: `raw` is the exact text between
 * its tags; `type` the value of the pack's type attribute, when it has one.
 */
export function elementNode(raw: string, rules: ValueRules, type: string | undefined, where: string): Node {
  const text = unpad(raw, rules.padding ?? '')
  if (type !== undefined) return typedNode(text, rules, type, where)
  switch (rules.strings) {
    case 'json':
    case 'python': {
      const t = trimXml(text)
      const r = rules.strings === 'json' ? parseJson(t) : pythonLiteral(t)
      if (!r.ok) fail(`${where} is not a ${rules.strings === 'json' ? 'JSON' : 'Python'} value: ${JSON.stringify(t.slice(0, 40))}`)
      if (rules.strings === 'json') unique(r, where)
      return { kind: 'json', value: r.value, text: t }
    }
    case 'quoted': {
      const q = rules.quote ?? '"'
      if (text.length >= 2 * q.length && text.startsWith(q) && text.endsWith(q)) return { kind: 'text', text: text.slice(q.length, -q.length), literal: false }
      return guessNode(trimXml(text), rules)
    }
    default:
      return rules.untyped === 'string' ? { kind: 'text', text, literal: false } : guessNode(text, rules)
  }
}

/** A value whose type attribute names its JSON type: a string is its text; anything else must read as that type. */
function typedNode(text: string, rules: ValueRules, attr: string, where: string): Node {
  const values = rules.typeAttribute!.values
  const type = (Object.keys(values) as JsonType[]).find((t) => values[t] === attr)
  if (type === undefined) fail(`${where} has the type ${JSON.stringify(attr)}, which the pack does not name`)
  if (type === 'string') {
    if (rules.strings === 'raw' || rules.strings === 'xml') return { kind: 'text', text, literal: false }
    const node = elementNode(text, { ...rules, typeAttribute: undefined, padding: '' }, undefined, where)
    if (node.kind === 'text' || (node.kind === 'json' && typeof node.value === 'string')) return node
    fail(`${where} is typed string but holds ${JSON.stringify(text.slice(0, 40))}`)
  }
  const t = trimXml(text)
  const word = wordValue(t, rules)
  let value: unknown
  if (word !== undefined) value = word
  else {
    const python = rules.containers === 'python' && (type === 'object' || type === 'array')
    const r = python ? pythonLiteral(t) : parseJson(t)
    if (!r.ok) fail(`${where} is typed ${type} but is not one: ${JSON.stringify(t.slice(0, 40))}`)
    if (!python) unique(r, where)
    value = r.value
  }
  if (jsonTypeOf(value) !== type) fail(`${where} is typed ${type} but holds a ${jsonTypeOf(value)}`)
  return { kind: 'json', value, text: t }
}

function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (isPlainObject(v)) return 'object'
  return typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'boolean' : 'number'
}

const callee = /[\p{L}_][\p{L}\p{N}_.]*/uy
const keyword = /[\p{L}_][\p{L}\p{N}_]*/uy
const jsonNumberText = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/

/** A Python call at the cursor, `f(a='x', n=3)`: its callee and keyword arguments in written order. */
export function readPythonCall(scan: Scan, where: string): { name: string; params: Array<[string, Node]> } {
  const text = scan.text
  callee.lastIndex = scan.at
  const m = callee.exec(text)
  if (m === null || callee.lastIndex > scan.end) return fail(`${where}: expected a Python call, found ${shown(text, scan.at)}`)
  scan.at += m[0].length
  scan.blanks()
  scan.expect(['('], `"(" after ${where}'s callee ${m[0]}`)
  const params = new Map<string, Node>()
  for (;;) {
    scan.blanks()
    if (scan.eatAny([')']) !== null) break
    keyword.lastIndex = scan.at
    const k = keyword.exec(text)
    if (k === null || keyword.lastIndex > scan.end) fail(`${where}: expected a keyword argument, found ${shown(text, scan.at)}`)
    const key = k[0]
    scan.at += key.length
    scan.blanks()
    scan.expect(['='], `"=" after the keyword ${key}`)
    const end = pythonEnd(text, scan.at, scan.end)
    if (end === -1) fail(`${where}: the value of ${key} does not end: ${shown(text, scan.at)}`)
    const source = trimXml(text.slice(scan.at, end))
    // a number as written keeps its digits, as JSON's do
    const num = jsonNumberText.test(source) ? jsonNumber(source) : null
    const r = num !== null ? { ok: true as const, value: num } : pythonLiteral(source)
    if (!r.ok) fail(`${where}: the value of ${key} is not a Python literal: ${JSON.stringify(source.slice(0, 40))}`)
    if (params.has(key)) fail(`${where}: the keyword ${key} is given twice`)
    params.set(key, { kind: 'json', value: r.value, text: source })
    scan.at = end
    if (scan.eatAny([',']) === null) {
      scan.expect([')'], `"," or ")" after the value of ${key}`)
      break
    }
  }
  return { name: m[0], params: [...params] }
}

const bareKey = /[\p{L}\p{N}_$.-]+/uy
const numberRe = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y
const wordChar = /[\p{L}\p{N}_]/u

/** Gemma 4's object literal at the cursor, `{k:<|"|>v<|"|>,n:1}`: its keys in written order, each value a node. */
export function readObjectLiteral(scan: Scan, rules: ValueRules, where: string): Array<[string, Node]> {
  const out: Array<[string, Node]> = []
  const seen = new Set<string>()
  members(scan, rules, '}', where, () => {
    const key = literalKey(scan, where)
    if (seen.has(key)) fail(`${where}: the key ${key} is given twice`)
    seen.add(key)
    const start = scan.at
    const value = literalValue(scan, rules, 1, where)
    out.push([key, { kind: 'json', value, text: typeof value === 'string' ? value : trimXml(scan.text.slice(start, scan.at)) }])
  })
  return out
}

/** `open` at the cursor, then `item()` for each member up to `close`, commas between. */
function members(scan: Scan, rules: ValueRules, close: '}' | ']', where: string, item: () => void): void {
  scan.expect([close === '}' ? '{' : '['], close === '}' ? 'an object literal' : 'a list')
  scan.blanks()
  if (scan.eatAny([close]) !== null) return
  for (;;) {
    item()
    scan.blanks()
    if (scan.eatAny([close]) !== null) return
    scan.expect([','], `"," or "${close}" in ${where}`)
    scan.blanks()
  }
}

function literalKey(scan: Scan, where: string): string {
  bareKey.lastIndex = scan.at
  const m = bareKey.exec(scan.text)
  if (m === null || bareKey.lastIndex > scan.end) fail(`${where}: expected a key, found ${shown(scan.text, scan.at)}`)
  scan.at += m[0].length
  scan.blanks()
  scan.expect([':'], `":" after the key ${m[0]}`)
  scan.blanks()
  return m[0]
}

function literalValue(scan: Scan, rules: ValueRules, depth: number, where: string): unknown {
  if (depth > maxDepth) fail(`${where} nests deeper than ${maxDepth} levels`)
  const text = scan.text
  const q = rules.quote ?? '"'
  if (scan.startsWith(q)) {
    scan.at += q.length
    const end = scan.find(q)
    if (end === -1) fail(`${where}: a string opened at offset ${scan.at - q.length} is not closed`)
    const s = text.slice(scan.at, end)
    scan.at = end + q.length
    return s
  }
  const c = text[scan.at]
  if (c === '{') {
    const obj = plainObject()
    members(scan, rules, '}', where, () => {
      const key = literalKey(scan, where)
      setOwn(obj, key, literalValue(scan, rules, depth + 1, where))
    })
    return obj
  }
  if (c === '[') {
    const list: unknown[] = []
    members(scan, rules, ']', where, () => list.push(literalValue(scan, rules, depth + 1, where)))
    return list
  }
  const l = rules.literals
  for (const [words, v] of [[[l.true, 'true'], true], [[l.false, 'false'], false], [[l.null, 'null'], null]] as const) {
    for (const w of words) {
      if (scan.startsWith(w) && !wordChar.test(text[scan.at + w.length] ?? '')) {
        scan.at += w.length
        return v
      }
    }
  }
  numberRe.lastIndex = scan.at
  const m = numberRe.exec(text)
  const n = m === null || numberRe.lastIndex > scan.end || isWordAfter(text, numberRe.lastIndex) ? null : jsonNumber(m[0])
  if (n === null) return fail(`${where}: expected a value, found ${shown(text, scan.at)}`)
  scan.at += m![0].length
  return n
}

/** A number must end where a word could not go on (`12abc` is no number). */
function isWordAfter(text: string, i: number): boolean {
  const c = text[i]
  return c !== undefined && !isBlank(c.charCodeAt(0)) && (wordChar.test(c) || c === '.')
}
