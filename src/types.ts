/**
 * Public types of toolsieve. Everything a caller sees is declared here so the
 * contract can be read in one place.
 */
import type { Grammar } from './grammar/types.js'

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
  /** Unique per call: `call_` followed by 24 hex digits (or whatever `generateId` returns). */
  id: string
  /** The tool name from the invoke's `name` attribute. */
  name: string
  /** The decoded arguments; always a plain object. */
  input: Record<string, unknown>
  /** `JSON.stringify(input)`: what OpenAI-style consumers expect as `arguments`. */
  arguments: string
  /**
   * The exact markup this call was recognised from. The raw text of a block is
   * split between its calls, so concatenating text events and raws gives the input back.
   */
  raw: string
  /** Where `raw` sits in the stream. */
  span: Span
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

/** Something the sieve noticed and handled: the affected input went out as text. */
export interface DiagnosticEvent {
  type: 'diagnostic'
  code: DiagnosticCode
  message: string
  span: Span
}

/** What `push()` and `end()` return, in stream order. */
export type SieveEvent = TextEvent | ToolCallEvent | DiagnosticEvent

/** Options of {@link createSieve}. Every field is optional. */
export interface SieveOptions {
  /** The dialect to recognise. Default: {@link defaultGrammar}. */
  grammar?: Grammar
  /**
   * Most UTF-16 units one capture (one block's markup, or text held while an
   * unmatched backtick decides whether a tag is an example) may hold before it
   * is released as text with a `capture-limit` diagnostic.
   * Default: the grammar's `limits.captureLimit` (256 KiB).
   */
  captureLimit?: number
  /**
   * Tool names the caller declared. Accepted now so callers can pass them;
   * schema coercion and validation use them (see README).
   */
  tools?: ReadonlyArray<string | { name: string } | { type: 'function'; function: { name: string } }>
  /** Makes call ids; default `call_` + 24 random hex digits. Handy for deterministic tests. */
  generateId?: () => string
  /** Continue from a {@link SieveCheckpoint} taken from a sieve with the same grammar. */
  resume?: SieveCheckpoint
}

/**
 * Everything a sieve carries between chunks, as plain JSON.
 * `createSieve({ ...options, resume: checkpoint })` continues exactly where it left off.
 */
export interface SieveCheckpoint {
  version: 1
  /** Fingerprint of the grammar the checkpoint was taken with. */
  grammar: string
  state: unknown
}

/** Counters for tests and benchmarks. */
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
  /** Feed the next piece of the stream. Never throws on any input. */
  push(chunk: string): SieveEvent[]
  /** The stream is over: flush everything held. The sieve is finished afterwards. */
  end(): SieveEvent[]
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
  /** All text that was not part of a call, concatenated. */
  text: string
  diagnostics: DiagnosticEvent[]
  /** True when any tool-call markup (a wrapper or invoke tag outside Markdown code) was seen. */
  sawToolCallSyntax: boolean
}
