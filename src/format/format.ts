/**
 * `formatToolCalls`: calls back into markup, for putting earlier calls into
 * the conversation. Strings are `string="true"` in CDATA (a `]]>` inside is
 * split across two sections); everything else is `string="false"` with JSON.
 * The sieve reads the output back to the same input: the round-trip property
 * test checks that for every frame of the default grammar.
 */
import { refuseUnknownOptions, ToolsieveError } from '../errors.js'
import { defaultGrammar } from '../grammar/default.js'
import type { FormatOptions, FormattableCall, TagSpelling } from '../types.js'
import { isPlainObject } from '../values/own.js'
import { localName, resolveSpelling, tagStartChars } from './spelling.js'
import { formatDialect } from './dialect.js'
import { resolveDialect } from '../dialects/registry.js'

const edgeWs = /^[ \t\r\n]|[ \t\r\n]$/g

/**
 * An attribute value: `&`, `"` and `<` as entities, and whitespace at either
 * edge as a character reference, because names are trimmed before decoding.
 */
export function attribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(edgeWs, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * JSON text with every character that could start a tag written as
 * `\uXXXX` inside strings, so no closer can appear in a value. Structural
 * characters are left alone: a frame may start with `[` or `{`, and JSON's
 * own brackets never continue into a tag name.
 */
/** Whether `value` could spell a closer of a parameter named `local`: a tag start and the name, in any case. */
export function mayClose(value: string, local: string, starts: ReadonlySet<string>): boolean {
  if (!value.toLowerCase().includes(local.toLowerCase())) return false
  for (const ch of value) if (starts.has(ch)) return true
  return false
}

export function safeJson(json: string, starts: ReadonlySet<string>): string {
  let out = ''
  let inString = false
  for (let i = 0; i < json.length; i++) {
    const ch = json[i]!
    if (inString && ch === '\\') {
      out += ch + json[++i]!
      continue
    }
    if (ch === '"') inString = !inString
    out += inString && starts.has(ch) ? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0') : ch
  }
  return out
}

/** The options of {@link formatToolCalls}, in {@link FormatOptions}: any other key is refused. */
const formatOptionKeys = ['grammar', 'spelling', 'dialect', 'variant']

/** `calls[i]` as a call: an object (its fields are checked where they are read). */
export function callAt(call: unknown, i: number): FormattableCall {
  if (call === null || typeof call !== 'object' || Array.isArray(call)) throw new ToolsieveError('invalid-option', `calls[${i}] must be an object with a name and an input, got ${call === null ? 'null' : Array.isArray(call) ? 'an array' : typeof call}`, `calls[${i}]`)
  return call as FormattableCall
}

export function inputOf(call: FormattableCall, i: number): Record<string, unknown> {
  if (call.input !== undefined) {
    if (isPlainObject(call.input)) return call.input
  } else if (typeof call.arguments === 'string') {
    try {
      const parsed: unknown = JSON.parse(call.arguments)
      if (isPlainObject(parsed)) return parsed
    } catch {
      // reported below
    }
  }
  throw new ToolsieveError('invalid-option', `calls[${i}] needs an input object (or arguments holding a JSON object)`, `calls[${i}]`)
}

/**
 * Render calls as one tool-call block: DeepSeek DSML with U+FF5C bars by
 * default, or any frame of the grammar (`{ spelling: 'xml' }`), or explicit
 * tag strings; or as a dialect pack's chat template writes them
 * (`{ dialect: 'qwen3-coder' }`, a pack's name or the pack itself, with
 * `variant` naming one of its blocks), calls joined as the template joins
 * them. Values are read as `JSON.stringify(input)` reads them: keys whose
 * value is `undefined` (or a function) are left out, and a value with a
 * `toJSON` (a `Date`) is what that gives. Throws `invalid-option` for an empty tool or
 * parameter name, which no reader could give back.
 *
 * ```ts
 * formatToolCalls([{ name: 'read_file', input: { path: 'a.ts', limit: 20 } }])
 * // <｜DSML｜tool_calls>
 * // <｜DSML｜invoke name="read_file">
 * // <｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>
 * // <｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>
 * // </｜DSML｜invoke>
 * // </｜DSML｜tool_calls>
 *
 * formatToolCalls([{ name: 'read_file', input: { path: 'a.ts' } }], { dialect: 'hermes' })
 * // <tool_call>
 * // {"name": "read_file", "arguments": {"path": "a.ts"}}
 * // </tool_call>
 * ```
 *
 * With a dialect, a value the pack's readers could not give back (a raw value
 * holding its own closer or its block's, a quoted string holding the quote
 * token or its call's closer) throws
 * `invalid-option` rather than being written; a call's `id` is written where
 * the pack carries ids, made from the pack's template when absent. A key of
 * `options` that is no option throws `invalid-option` naming it; `null`
 * options are none, as for `createSieve`.
 */
export function formatToolCalls(calls: readonly FormattableCall[], given: FormatOptions | null = {}): string {
  const options = given ?? {}
  if (typeof options !== 'object' || Array.isArray(options)) throw new ToolsieveError('invalid-option', 'options must be an object', 'options')
  refuseUnknownOptions(options, formatOptionKeys)
  if (options.dialect !== undefined && options.dialect !== null) {
    if (options.grammar !== undefined || options.spelling !== undefined) throw new ToolsieveError('invalid-option', 'dialect cannot be combined with grammar or spelling: a pack says how its tags are spelled', 'dialect')
    return formatDialect(calls, resolveDialect(options.dialect), options.variant)
  }
  if (options.variant !== undefined) throw new ToolsieveError('invalid-option', 'variant names a block of a dialect: give dialect too', 'variant')
  if (!Array.isArray(calls)) throw new ToolsieveError('invalid-option', 'calls must be an array', 'calls')
  const grammar = options.grammar ?? defaultGrammar
  const { spelling, frame } = resolveSpelling(grammar, options.spelling)
  const names = { wrapper: localName(grammar, 'wrapper', frame), invoke: localName(grammar, 'invoke', frame), parameter: localName(grammar, 'parameter', frame) }
  const nameAttr = grammar.attributes?.name ?? 'name'
  const stringAttr = grammar.attributes?.string ?? 'string'
  const starts = tagStartChars(grammar)
  const sp: TagSpelling = spelling
  const open = (local: string, attrs: string) => sp.open + local + attrs + sp.end
  const close = (local: string) => sp.close + local + sp.end
  const lines = [open(names.wrapper, '')]
  calls.forEach((given, i) => {
    const call = callAt(given, i)
    if (typeof call.name !== 'string' || call.name === '') throw new ToolsieveError('invalid-option', `calls[${i}] needs a non-empty name`, `calls[${i}].name`)
    lines.push(open(names.invoke, ` ${nameAttr}="${attribute(call.name)}"`))
    for (const [key, value] of Object.entries(inputOf(call, i))) {
      if (key === '') throw new ToolsieveError('invalid-option', `calls[${i}] has an empty parameter name`, `calls[${i}].input`)
      let body: string
      let isString = true
      // a string is written raw, as DeepSeek's encoders write it, unless it could hold its own closer (the one
      // thing a raw value cannot carry): then it is JSON, tag starts escaped
      if (typeof value === 'string' && !mayClose(value, names.parameter, starts)) body = value
      // left out, as JSON.stringify leaves it out; and a function under the key `toJSON` would be the wrapper's own below
      else if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue
      else {
        // as JSON.stringify(input) writes the value: toJSON called once, with its key (a Date is its ISO text)
        let json: string
        try {
          json = JSON.stringify({ [key]: value })
        } catch (e) {
          throw new ToolsieveError('invalid-option', `calls[${i}].input.${key} cannot be written as JSON: ${(e as Error)?.message ?? String(e)}`, `calls[${i}].input`)
        }
        // left out, as JSON.stringify leaves it out (undefined, a function, a toJSON that gave nothing)
        if (json === '{}') continue
        body = safeJson(json.slice(JSON.stringify(key).length + 2, -1), starts)
        isString = false
      }
      lines.push(open(names.parameter, ` ${nameAttr}="${attribute(key)}" ${stringAttr}="${isString}"`) + body + close(names.parameter))
    }
    lines.push(close(names.invoke))
  })
  lines.push(close(names.wrapper))
  return lines.join('\n')
}
