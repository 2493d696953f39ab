/**
 * A dialect pack: one family's text-emitted tool-call format as plain data
 * (`grammar/dialects/<name>.json`, described by `grammar/dialect.schema.json`).
 * `formatToolCalls` and `buildToolPrompt` interpret it, and a reader takes
 * the same data, so a family differs from another only here.
 *
 * Where a string is written (`write`, `gap`, `padding`, separators), a reader
 * takes blanks (spaces, tabs, newlines) there as optional: the written form is
 * the template's, the read form is what models drift into.
 */
import type { TagSpelling } from '../types.js'

/** How a stretch of the stream begins or ends. */
export type Delimiter =
  /**
   * A tag of the pack's `tagSpelling` (default `<name …>` / `</name>`): as an
   * opener `<name …>`, as a closer `</name>`. A name or key read from the
   * tag's value slot makes it `<name=value>`.
   */
  | { kind: 'tag'; name: string }
  /**
   * One of `text` (alternatives, the first is written); `optional`: a
   * reader takes it as absent too; `written: false`: the writer leaves it out
   * (Llama's `<|python_tag|>`, which the template does not write).
   */
  | { kind: 'literal'; text: string[]; optional?: boolean; written?: boolean }
  /** A regular expression (JavaScript syntax, no flags) and the string written in its place. */
  | { kind: 'regex'; pattern: string; write: string }
  /** Where the JSON (or Python) value that starts the body ends: brackets balanced, strings skipped. */
  | { kind: 'json-end' }
  /** Only the end of the stream closes it. */
  | { kind: 'end-of-stream' }

/** How tags are spelled around their local name: `open` before an opener's name (`<`, `<｜DSML｜`, `<|open|>`), `close` before a closer's (`</`, `<|close|>`), `end` after the name and attributes (`>`, `<|sep|>`). */
export type { TagSpelling }

/** A stretch that is not scanned for calls unless `scan` says so. */
export interface Region {
  /** `reasoning`: split off as reasoning; `content`: a wrapper around the answer, unwrapped into text. */
  kind: 'reasoning' | 'content'
  open: Delimiter
  close: Delimiter
  /** The prompt opened it: the completion starts inside (the closer may still come first). */
  startsOpen?: boolean
  /** Calls written inside are read as calls. Default false: a call in reasoning is text. */
  scan?: boolean
}

/** Where a call's name (or id) is read. */
export type NameSource =
  /** An attribute of the call's opening tag (`<invoke name="f">`). */
  | { from: 'attribute'; attribute: string }
  /** The value slot of the call's opening tag (`<function=f>`). */
  | { from: 'tag-value' }
  /**
   * The head of the call's body, up to the call's `headSeparator` or where
   * the arguments start, matched by `pattern` (named groups `name`, and
   * optionally `index`); `write` is the template written, `{name}` and
   * `{index}` (the call's position, from 0) filled in.
   */
  | { from: 'head'; pattern: string; write: string }
  /** The message header (an envelope's), matched by `pattern` with a `name` group; written as `write`. */
  | { from: 'header'; pattern: string; write: string }
  /** A field of the call's JSON object. */
  | { from: 'json-field'; field: string }
  /** The only key of the call's JSON object (`{"f": {…}}`). */
  | { from: 'json-key' }
  /** The callee of a Python call (`f(a=1)`). */
  | { from: 'callee' }

/** A call id: where it is read, and how one is made when the call has none. */
export interface IdSpec {
  /**
   * `head`: the whole head is the id (Kimi's `functions.f:0`);
   * `json-field`: the call object's field `field`; `attribute`: the call
   * tag's attribute `field`, written after the name.
   */
  from: 'head' | 'json-field' | 'attribute'
  field?: string
  /** What is written when the call carries no id: `{name}`, `{index}` (from 0) and `{number}` (from 1) filled in. */
  template: string
  /** Ids have exactly this many characters: a longer one (given or made) keeps its end, as Mistral's template cuts it; a shorter one is padded at the start with `pad`. */
  length?: number
  pad?: string
  /**
   * The "id" is the call's place, which the template writes from its loop
   * whatever id the call has (Kimi K3's `index="1"`), not an id the model
   * gives the call: the writer always fills `template` in, and the sieve
   * never takes it for a call event's id (it would be `1` in every
   * message), for any block of the pack. Default `false`.
   */
  position?: boolean
}

/** How a value is written and read. */
export interface ValueRules {
  /**
   * Strings: `raw` as they are; `xml` raw unless the value could spell its
   * own closer, then JSON (DSML's rule); `json` as JSON strings; `python`
   * as Python string literals; `quoted` between `quote` tokens.
   */
  strings: 'raw' | 'xml' | 'json' | 'python' | 'quoted'
  /** The quote token of `quoted` strings (Gemma 4's `<|"|>`). */
  quote?: string
  /** Written on both edges of every value in an element or pair (Qwen3-Coder's `\n`); a reader strips at most one from each edge. */
  padding?: string
  /**
   * How `true`, `false` and `null` are written where a value is not JSON or
   * a Python container: JSON's, Python's (`True`, `None`) or Gemma's mix
   * (`true`, `None`). A reader takes these and JSON's.
   */
  literals: { true: string; false: string; null: string }
  /** Numbers: JSON's text, or Python's `repr` (`1e-07`, not `1e-7`). */
  numbers: 'json' | 'python'
  /** Objects and arrays: JSON, Python literals (`{'a': True}`), or `literal` (Gemma's bare-key object literal). */
  containers: 'json' | 'python' | 'literal'
  /** Reading a value whose type no schema gives: `guess` (JSON, then the scalar literals) or keep the `string`. */
  untyped: 'guess' | 'string'
  /** An attribute on each argument naming its type; `values` maps a JSON type to what is written. */
  typeAttribute?: { attribute: string; values: Record<JsonType, string> }
  /** JSON as written: Python's `json.dumps` defaults are `", "` and `": "`. */
  json?: { itemSeparator: string; keySeparator: string }
  /** Object keys written in sorted order (Gemma 4's template sorts them). */
  sortKeys?: boolean
}

/** The JSON types a `typeAttribute` tells apart. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array'

/** Where a call's arguments are. */
export type ArgumentsSpec =
  /** One element per argument, the key from an attribute, the tag's value slot or the tag's name. */
  | {
      kind: 'elements'
      element: Delimiter & { kind: 'tag' }
      key: { from: 'attribute'; attribute: string } | { from: 'tag-value' } | { from: 'tag-name' }
      /** `implicit`: the closer may be left out; the next element or the call's end closes it. */
      close: 'explicit' | 'implicit'
    }
  /** Key and value elements side by side (`<arg_key>k</arg_key><arg_value>v</arg_value>`), `gap` written between. */
  | { kind: 'pairs'; key: Delimiter & { kind: 'tag' }; value: Delimiter & { kind: 'tag' }; gap: string }
  /**
   * A JSON object: the call body itself (`field` absent) or a field of the
   * call object (`field`, with `aliases` read too); `fence` wraps it in
   * a Markdown fence (```` ```json ````); `serialised`: a JSON string holding
   * the object is read too.
   */
  | { kind: 'json'; field?: string; aliases?: string[]; fence?: string; serialised?: boolean }
  /** The value of the call object's only key (the key is the name). */
  | { kind: 'json-value' }
  /** Python keyword arguments of a callee: `f(a='x', n=3)`. */
  | { kind: 'python-kwargs' }
  /** An object literal with bare keys (Gemma 4: `{k:<|"|>v<|"|>,n:1}`). */
  | { kind: 'object-literal' }

/** One call. */
export interface CallSpec {
  /** The call's own frame inside its block (`<invoke …>`, `<function=f>`, `<|tool_call_begin|>`); absent when the block or a JSON object is the call. */
  open?: Delimiter
  close?: Delimiter
  /** Tokens around the call's frame that carry nothing (Step-3's `<｜tool_call_begin｜>function<｜tool_sep｜>` … `<｜tool_call_end｜>`). */
  outer?: { open: Delimiter & { kind: 'literal' }; close: Delimiter & { kind: 'literal' } }
  name: NameSource
  id?: IdSpec
  /** Written between the head and the arguments (`<｜tool▁sep｜>`, `[ARGS]`, `<|tool_call_argument_begin|>`). */
  headSeparator?: Delimiter & { kind: 'literal' }
  arguments: ArgumentsSpec
  /** Written between the call's parts (its frame, head, each argument element). */
  gap: string
}

/** A tool-call block. */
export interface BlockSpec {
  /** Shown in docs and chosen by `formatToolCalls(…, { variant })`. */
  name: string
  description?: string
  open: Delimiter
  close: Delimiter
  /**
   * `wrapper`: the block holds calls; `call`: the block is one call;
   * `per-opener`: the opener is repeated before each call and nothing closes
   * it but the end of the call's value.
   */
  layout: 'wrapper' | 'call' | 'per-opener'
  /** A wrapper's calls as one JSON array (`[{…}, {…}]`) instead of one after another. */
  array?: boolean
  /** Written after the opener and before the closer; around nothing, equal paddings are written once. */
  padding: { afterOpen: string; beforeClose: string }
  /**
   * Between calls: inside a wrapper, part of the block; between blocks of
   * the other layouts, `text` (what lies between two blocks is the answer's
   * text) or `block` (it belongs to the blocks, as Llama's `; `).
   */
  separator: { write: string; as: 'block' | 'text' }
  /** Read only at the start of the message (bare JSON or Python has nothing else to tell it from prose). */
  anchored?: boolean
  /** Tokens right after the block that belong to it (`</s>`, `<|python_end|>`); never written. */
  trailing?: string[]
  call: CallSpec
}

/** A message framing that routes whole messages by their header (gpt-oss harmony). */
export interface EnvelopeSpec {
  start: string
  /** What the prompt wrote of the first message: the completion may start after it. */
  promptOpens?: string
  headerEnd: string
  ends: string[]
  /** First match wins; `header` is a regular expression over the header. */
  routes: Array<{ header: string; to: 'call' | 'reasoning' | 'text' }>
}

/** A dialect pack. */
export interface DialectPack {
  name: string
  description: string
  /** The model families that write it. */
  models: string[]
  /** Where the format was read: templates, parsers, tests, each with its repository and commit. */
  sources: string[]
  /** `default`: the arguments and tag spellings are the default grammar's (`grammar/default.json`). */
  grammar?: 'default'
  tagSpelling?: TagSpelling
  regions?: Region[]
  envelope?: EnvelopeSpec
  values: ValueRules
  /** The block alternatives; several may share an opener (told apart by what follows). The first is written by default. */
  blocks: BlockSpec[]
  /** What the pack does not read, in words. */
  limits?: string[]
}
