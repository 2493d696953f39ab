/**
 * Public types of toolsieve. Everything a caller sees is declared here so the
 * contract can be read in one place.
 */
import type { Grammar } from './grammar/types.js'
import type { DialectPack } from './dialects/types.js'

/** UTF-16 offsets into the whole stream (across every chunk), `end` exclusive. */
export interface Span {
  start: number
  end: number
}

/** Text that is not part of a recognised tool call. Adjacent text events may be split anywhere. */
export interface TextEvent {
  type: 'text'
  text: string
}

/** One recognised `invoke`, decoded. */
export interface ToolCallEvent {
  type: 'tool-call'
  /**
   * `call_` followed by 24 hex digits, or whatever `generateId` returns
   * (not checked for repeats). Without `generateId`, a call whose markup
   * carries the model's own id (a dialect pack's: Kimi K2's
   * `functions.get_weather:0`, Mistral's `"id"`) has that id, unless it
   * is longer than 128 characters, holds a control, format or blank
   * character or half a surrogate pair, is no string, an earlier call of
   * the stream has it, or the stream has taken 1,024 of the model's ids
   * already: then a made id and an `invalid-call-id` diagnostic. The ids
   * the sieve makes or takes are unique per call in the stream.
   */
  id: string
  /** The tool name from the invoke's `name` attribute. */
  name: string
  /**
   * The decoded arguments; always a plain object, and always what
   * `JSON.parse(arguments)` gives. Numbers are JavaScript numbers: one the
   * model wrote with more precision than a double holds (an integer past
   * 2^53, such as `9007199254740993`, or 20 significant digits) is the nearest
   * double here, while `arguments` keeps its digits. Read `arguments` with a
   * lossless parser, or give the parameter a `string` schema (it then gets
   * the digits as text), when they matter.
   */
  input: Record<string, unknown>
  /**
   * The arguments as JSON text: what OpenAI-style consumers expect as
   * `arguments`. The same as `JSON.stringify(input)` except that every number
   * is written exactly as the model wrote it (`9007199254740993`, `1.0`,
   * `1e5`), so a Python or Go client gets the value the model meant. Input
   * nested too deep for `JSON.stringify` is written too.
   */
  arguments: string
  /**
   * The exact markup this call was recognised from. The raw text of a block is
   * split between its calls, so concatenating text events and raws gives the input back.
   */
  raw: string
  /** Where `raw` sits in the stream. */
  span: Span
  /**
   * Present only when the call was emitted despite problems (`onInvalid:
   * 'emit'`): `bad-json-value`, `unknown-tool`, `invalid-arguments`; or when
   * its id is not the one asked for (`invalid-call-id`: `generateId`
   * failed, or the model's own id could not be used; `onInvalid` ignores
   * it: the call is good). Each is also emitted as its own event right
   * after the call.
   */
  diagnostics?: DiagnosticEvent[]
}

/** Stable codes of diagnostics and errors. */
export type DiagnosticCode =
  /** A block that looked like a tool call did not parse; released verbatim as text. */
  | 'malformed-block'
  /** The stream ended inside an open block; released verbatim as text. */
  | 'unterminated-block'
  /** A capture grew past `captureLimit`; released as text, scanning resumed after its opener. */
  | 'capture-limit'
  /** A bug in toolsieve: what it held was released as text unparsed. Please report it. */
  | 'internal-error'
  /** A parameter marked `string="false"` is not JSON; its text was kept as a string. */
  | 'bad-json-value'
  /**
   * The arguments do not satisfy the tool's input schema (after coercion);
   * `path` says where. Also when they could not be checked: nested deeper
   * than 256 levels, or a schema the validator cannot run.
   */
  | 'invalid-arguments'
  /** The call names a tool that is not among the `tools` option. */
  | 'unknown-tool'
  /**
   * The stream ended inside a block after complete invokes: those became calls
   * (the `unclosedWrapper` repair) and the unfinished rest went out as text.
   */
  | 'unclosed-wrapper'
  /**
   * The call got a default id instead of the one asked for: `generateId`
   * threw or returned something other than a non-empty string, or the id
   * the model wrote in the markup is too long, holds a control, format or
   * blank character or half a surrogate pair, is no string (`"id": 123`),
   * was given to an earlier call of the stream, or came after the 1,024
   * the stream remembers.
   */
  | 'invalid-call-id'
  /** A block whose calls are those of a block in one of the `quoted` texts: the model repeating an example; released as text. */
  | 'quoted-example'
  /** A value's CDATA section had no `]]>` when its block ended: its content ran to the parameter's closer (the `unclosedCdata` repair). */
  | 'repaired-cdata'
  /**
   * With `streamArguments`: a call's final arguments do not continue what was
   * already streamed of them (a parameter given twice, a value its schema
   * turned into another type); its block is released as text.
   */
  | 'streamed-arguments-changed'

/**
 * Something the sieve noticed and handled. For a block problem the markup
 * went out as text; for a call problem (`bad-json-value`, `invalid-arguments`,
 * `unknown-tool`) see `onInvalid`.
 */
export interface DiagnosticEvent {
  type: 'diagnostic'
  code: DiagnosticCode
  message: string
  /** The block (or, for a call problem, the call's `raw`) in the stream. */
  span: Span
  /**
   * JSON Pointer into the call's input the problem is about: the validator's
   * `instancePath` for `invalid-arguments` (`''` is the whole input), the
   * parameter for `bad-json-value`. Absent for block problems.
   */
  path?: string
}

/**
 * A diagnostic in strict mode (`strict: true`): same code, message, span and
 * path, but the caller asked to treat it as a failure.
 */
export interface ErrorEvent {
  type: 'error'
  code: DiagnosticCode
  message: string
  span: Span
  path?: string
}

/**
 * With `streamArguments`: a call has begun. Its invoke's name is known and its
 * block is live (not in code, not held after an unmatched backtick, not what
 * may still be a quoted example). Exactly one {@link ToolCallEvent} with the
 * same `id` or one {@link ToolCallAbortEvent} follows, later.
 */
export interface ToolCallStartEvent {
  type: 'tool-call-start'
  id: string
  name: string
  /** The stream's calls counted from 0, in the order they start (an aborted call keeps its number). */
  index: number
  /** Where the call's markup begins in the stream. */
  span: { start: number }
}

/**
 * With `streamArguments`: the next piece of a started call's `arguments`. The
 * deltas of one id, concatenated, are exactly that call's final `arguments`.
 */
export interface ToolCallDeltaEvent {
  type: 'tool-call-delta'
  id: string
  delta: string
}

/**
 * With `streamArguments`: a started call will not be emitted (its block broke,
 * grew past the limit, ended unterminated, is a quoted example, was rejected
 * by `onInvalid: 'reject'`, …). Its markup follows as text, with the diagnostic
 * whose code this is.
 */
export interface ToolCallAbortEvent {
  type: 'tool-call-abort'
  id: string
  code: DiagnosticCode
}

/**
 * The model's reasoning (DeepSeek's thinking mode): text between `<think>` at
 * the start of the stream (or the stream's start, with `startInReasoning`)
 * and the first `</think>`. Adjacent reasoning events may be split anywhere.
 */
export interface ReasoningEvent {
  type: 'reasoning'
  text: string
}

/** The reasoning's opening tag (`<think>`): its exact text and where it stands, so that nothing of the input is lost. */
export interface ReasoningStartEvent {
  type: 'reasoning-start'
  raw: string
  span: Span
}

/** The reasoning's closing tag (`</think>`), as {@link ReasoningStartEvent}. */
export interface ReasoningEndEvent {
  type: 'reasoning-end'
  raw: string
  span: Span
}

/** What `push()` and `end()` return, in stream order. The three `tool-call-start` / `-delta` / `-abort` events come only with `streamArguments`. */
export type SieveEvent =
  | TextEvent
  | ReasoningEvent
  | ReasoningStartEvent
  | ReasoningEndEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallAbortEvent
  | ToolCallEvent
  | DiagnosticEvent
  | ErrorEvent

/** A JSON Schema: an object, or `true`/`false`. */
export type JsonSchema = Record<string, unknown> | boolean

/**
 * An input schema as the AI SDK passes one: its `jsonSchema()` wrapper (the
 * JSON Schema is read from `.jsonSchema`), a Standard Schema such as Zod 4's
 * (read from `~standard.jsonSchema.input()`), or a function returning either.
 * A schema with no JSON Schema to read (Zod 3) is refused at creation, with
 * the fix in the message.
 */
export type SchemaCarrier = { readonly jsonSchema: unknown } | { readonly '~standard': unknown } | (() => unknown)

/**
 * A tool the caller declares: a name alone (any input), an OpenAI chat tool
 * (`{ type: 'function', function: { name, parameters } }`), an OpenAI
 * Responses tool (`{ type: 'function', name, parameters }`), or
 * `{ name, inputSchema }` (MCP, the AI SDK; Anthropic's `input_schema`).
 */
export type ToolDefinition =
  | string
  | { name: string; inputSchema?: JsonSchema | SchemaCarrier | null; input_schema?: JsonSchema | null }
  | { type: 'function'; function: { name: string; parameters?: JsonSchema | null } }
  | { type: 'function'; name: string; parameters?: JsonSchema | null }

/**
 * Options of {@link createSieve}. Every field is optional, and `undefined`
 * or `null` means the default (so does passing `null` for the whole object).
 * A value of the wrong type or range throws a {@link ToolsieveError} at
 * creation whose `field` names the option.
 */
export interface SieveOptions {
  /**
   * The dialect to recognise. Default: {@link defaultGrammar}. A grammar from
   * `loadGrammar` / `extendGrammar` is used as is; any other object is
   * validated first (`invalid-grammar`, `field` `grammar.…` naming the bad part).
   */
  grammar?: Grammar
  /**
   * Read a dialect pack's calls instead of the default grammar's: a name of
   * `dialects` (`'qwen3-coder'`, `'hermes'`, `'glm'`, `'kimi-k2'`…), a pack,
   * or a list of them, merged (a block is read by the first pack that reads
   * it: packs that share an opener are told apart by what follows). A pack
   * the sieve cannot read yet (see `docs/reference/dialects.md`) is refused
   * with `invalid-option` naming what the reader lacks; its calls can still
   * be written by `formatToolCalls` and prompted by `buildToolPrompt`. Not
   * with `grammar`.
   */
  dialect?: string | DialectPack | ReadonlyArray<string | DialectPack>
  /**
   * Most UTF-16 units one capture (one block's markup, or text held while an
   * unmatched backtick decides whether a tag is an example) may hold before it
   * is released as text with a `capture-limit` diagnostic.
   * Default: the grammar's `limits.captureLimit` (256 KiB). At least the
   * grammar's longest delimiter (a few dozen units for the default grammar):
   * a smaller limit could not hold one tag (`invalid-option`).
   */
  captureLimit?: number
  /**
   * The tools the caller declared. When given (even empty), a call to any
   * other name gets an `unknown-tool` diagnostic; a tool's input schema makes
   * values coerce to its types and validates the result (`invalid-arguments`).
   * Schemas compile when the sieve is created (one that does not compile
   * throws `invalid-option`), once per schema content: a new array of the
   * same tools per request compiles nothing after the first (a bounded LRU
   * of 2,048 schemas). Recursive schemas (`$ref: '#'`, `$defs` that refer to
   * themselves) are supported. A name declared twice with the same schema is
   * one tool; with different schemas, `invalid-option`. Default: no checks.
   */
  tools?: ReadonlyArray<ToolDefinition>
  /**
   * What a call with a problem (`bad-json-value`, `unknown-tool`,
   * `invalid-arguments`) becomes. `'emit'`: the call is emitted with the
   * diagnostics in its `diagnostics` field, and each diagnostic follows it as
   * an event. `'reject'`: its whole block is released as text, followed by
   * the diagnostics. Default `'emit'`.
   */
  onInvalid?: 'emit' | 'reject'
  /**
   * Every diagnostic becomes an `error` event with the same code, and a call
   * whose body had content but decoded to no arguments (a silent `{}`) is
   * refused as a `malformed-block`. Default `false`.
   */
  strict?: boolean
  /**
   * Makes call ids; default `call_` + 24 random hex digits, or, for a call
   * whose markup carries the model's own id (Kimi K2, Mistral; see
   * {@link ToolCallEvent.id}), that id. When given, it makes every id, the
   * model's too (your ids keep your scheme; the Anthropic adapter's
   * `toolu_` ids are made so). Handy for deterministic tests. Called once
   * per emitted call (not for calls of a block `onInvalid: 'reject'`
   * released). If it throws or returns anything but a non-empty string, the
   * call still goes out, with a default id and an `invalid-call-id`
   * diagnostic.
   */
  generateId?: () => string
  /**
   * Continue from a {@link SieveCheckpoint} taken from a sieve with the same
   * grammar, the same calls in `quoted`, and `streamArguments` /
   * `reasoningCalls: 'call'` if the checkpoint's state uses them. Every field
   * of its state is checked against what the state can be (types, ranges,
   * the fields agreeing with each other and with the captured text): anything
   * else throws `invalid-checkpoint` whose `field` names the field
   * (`resume.state.capture.length`, `resume.quoted`).
   */
  resume?: SieveCheckpoint
  /**
   * Split off the model's reasoning: a stream that starts (after optional
   * whitespace) with `<think>` has everything up to the first `</think>` as
   * `reasoning` events, never lexed, so a fence left open in it or a block
   * written in it does not reach the answer. A `<think>` later in the text is
   * text. Default `true`; `false`: the tags and reasoning are text.
   */
  reasoning?: boolean
  /**
   * The stream starts inside the reasoning, with no `<think>`: for prompts
   * that end in `<think>`, as DeepSeek's own encoder writes them in thinking
   * mode. Default `false`.
   */
  startInReasoning?: boolean
  /**
   * What a tool-call block in the reasoning is. `'text'`: part of the
   * reasoning, never run. `'call'`: a call like one in the answer (DeepSeek
   * sometimes writes its calls in its reasoning); the reasoning is sieved
   * with its own Markdown state, so code in it stays an example. Default `'text'`.
   */
  reasoningCalls?: 'text' | 'call'
  /**
   * Texts whose tool calls are examples, typically the user's latest
   * message. Every call-shaped thing in them is read, wherever it stands (a
   * bare or self-closing invoke, one in a code span or fence or in another
   * invoke's value, a block broken by prose; any spelling family), decoded
   * as a live call is (value rules, `tools` schemas) within `captureLimit`.
   * A block with ANY call equal to one of those (same name; inputs equal
   * with keys in any order and scalars compared as text, so `string="true">1`
   * and `>1` are one call) is released as text, all of it, with a
   * `quoted-example` diagnostic: fail closed, so a model echoing the example
   * inside a block of its own calls does not run it either. With
   * `streamArguments`, a block starts no further call while one of its calls
   * has the name of a quoted call and its arguments are still being read.
   * A checkpoint records the quoted calls (a fingerprint) and a resume must
   * give the same. Default: none.
   */
  quoted?: ReadonlyArray<string>
  /**
   * Stream each call as it is written: `tool-call-start` (id, name, index) as
   * soon as its invoke's name is read and its block is live, then
   * `tool-call-delta` pieces of its `arguments` (a string value as it arrives,
   * any other value whole at its closer), then the final `tool-call` with the
   * same id, or `tool-call-abort` when the block fails. Default `false`: only
   * the final `tool-call` events.
   */
  streamArguments?: boolean
}

/**
 * Everything a sieve carries between chunks, as plain JSON.
 * `createSieve({ ...options, resume: checkpoint })` continues exactly where it left off.
 */
export interface SieveCheckpoint {
  version: 1
  /** Fingerprint of the grammar the checkpoint was taken with. */
  grammar: string
  /**
   * Fingerprint of the calls in the `quoted` texts it was taken with; absent
   * when they held none (or none were given). A resume must find the same.
   */
  quoted?: string
  state: unknown
}

/**
 * Counters for tests and benchmarks. The lexer's counts are its work for
 * this sieve: a tag whose tokens a lexer run of the same grammar made
 * before, in the same context (in any sieve), is recalled, not lexed, so
 * they can be lower once a grammar has been used.
 */
export interface SieveStats {
  /** Characters handed to the lexer, counting every re-lex. */
  charsLexed: number
  /** Tokens the lexer produced. */
  tokens: number
  /** Blocks handed to the parser. */
  blocksParsed: number
  /** Calls the lexer was invoked. */
  lexerRuns: number
  /** Largest held tail (outside a capture) seen so far. */
  maxHeldTail: number
}

/** The streaming sieve. */
export interface Sieve {
  /**
   * Feed the next piece of the stream. Never throws on any string. `null`
   * and `undefined` add nothing (an OpenAI stream's last delta has
   * `content: null`); any other non-string throws a {@link ToolsieveError}
   * `invalid-chunk`. A push after `end()` throws `sieve-finished`.
   */
  push(chunk: string | null | undefined): SieveEvent[]
  /** The stream is over: flush everything held. The sieve is finished afterwards; a second `end()` returns `[]`. */
  end(): SieveEvent[]
  /**
   * The stream broke off (an upstream error, a malformed chunk, a cut
   * connection): everything held goes out as it was classified, in stream
   * order, and no call is made from any of it. Held answer text (an
   * undecided tag start, a block being captured, a tag held after a
   * backtick) is `text`; held reasoning (a closer's prefix inside
   * `<think>`, and with `reasoningCalls: 'call'` a block being captured
   * there) is `reasoning`. Unlike {@link end}, no repair runs: a block the
   * break cut is text with an `unterminated-block` diagnostic even when its
   * invokes are complete, and with `streamArguments` each call already
   * started for it gets its `tool-call-abort` (code `unterminated-block`).
   * Calls that were complete before the break were emitted already and stay.
   *
   * The sieve is finished afterwards, as after `end()`: `push()` throws
   * `sieve-finished`, and `abort()` or `end()` again returns `[]` (so does
   * `abort()` after `end()`). A checkpoint taken afterwards holds nothing.
   */
  abort(): SieveEvent[]
  /** A plain-JSON snapshot to resume from. */
  checkpoint(): SieveCheckpoint
  /** Internal counters (characters lexed, tokens, blocks parsed). */
  stats(): SieveStats
}

/** A tool call as {@link parseToolCalls} returns it. */
export type ParsedToolCall = Omit<ToolCallEvent, 'type'>

/** The result of {@link parseToolCalls}. */
export interface ParseResult {
  calls: ParsedToolCall[]
  /** All text that was not part of a call or the reasoning, concatenated. */
  text: string
  /** The reasoning (see {@link SieveOptions.reasoning}), without its tags; '' when there was none. */
  reasoning: string
  diagnostics: DiagnosticEvent[]
  /** Strict mode's errors (empty unless `strict: true`). */
  errors: ErrorEvent[]
  /** True when any tool-call markup (a wrapper or invoke tag outside Markdown code) was seen. */
  sawToolCallSyntax: boolean
}

/** How tags are written: `open + localName + attributes + end`, `close + localName + end`. */
export interface TagSpelling {
  open: string
  close: string
  end: string
}

/** Options of {@link formatToolCalls}. */
export interface FormatOptions {
  /** Grammar whose local names, attribute names and frames to write. Default: {@link defaultGrammar}. */
  grammar?: Grammar
  /**
   * A frame of the grammar by name (`'dsml'`, `'fullwidth'`, `'xml'` in the
   * default grammar), or explicit tag strings. Default: DeepSeek's own
   * spelling, `<｜DSML｜…>` with U+FF5C bars.
   */
  spelling?: string | TagSpelling
  /**
   * Write the calls as a dialect pack's chat template does: a name of
   * `dialects` (`'qwen3-coder'`, `'hermes'`…) or a pack. Not with `grammar`
   * or `spelling`.
   */
  dialect?: string | DialectPack | null
  /** The pack's block to write, by name (`'array'` for Mistral before tokenizer v11). Default: its first. */
  variant?: string
}

/** A call to write back: any {@link ToolCallEvent} or {@link ParsedToolCall} fits, and so does `{ name, arguments }`. */
export interface FormattableCall {
  name: string
  /** Written by dialects whose calls carry an id (Kimi K2's head, Mistral's `id`); made from the pack's template when absent. */
  id?: string
  input?: Record<string, unknown>
  /** JSON text of the input, read when `input` is absent. */
  arguments?: string
}
