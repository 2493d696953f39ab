/**
 * `createSieve`: the factory (docs/STYLE.md §1) that wires the compiled lexer, the
 * driver and the checkpoint format together behind `{ push, end, abort, checkpoint, stats }`.
 */
import { defaultGrammar } from '../grammar/default.js'
import { derived, keepsDerived } from '../grammar/derived.js'
import { grammarFingerprint, sharedGrammar } from '../grammar/fingerprint.js'
import { validateGrammar } from '../grammar/load.js'
import { compileLexer } from '../lexer/lexer.js'
import { GrammarError, readOption, refuseUnknownOptions, ToolsieveError } from '../errors.js'
import type { Sieve, SieveCheckpoint, SieveEvent, SieveOptions, ToolCallEvent } from '../types.js'
import { initialState, type DriverOptions } from './state.js'
import { initialReasoning } from './reasoning.js'
import type { QuotedCalls } from './quoted.js'
import { readQuoted, type ReadOptions } from './quoted-reader.js'
import { extendGrammar } from '../grammar/extend.js'
import { Driver } from './driver.js'
import { restoreState, saveState } from './checkpoint.js'
import { randomCallId } from './ids.js'
import { toolTable } from '../schema/tools.js'
import type { ValueOptions } from '../values/decode.js'
import type { Grammar } from '../grammar/types.js'
import { dialects, resolveDialect } from '../dialects/registry.js'
import { grammarOfDialect } from '../dialects/grammar.js'
import type { DialectPack } from '../dialects/types.js'
import { dialectList, wholeReader } from './dialect-list.js'
import { readQuotedWhole } from './quoted-whole.js'
import type { WholeReader } from './calls.js'

/** What value decoding reads from each grammar: its Set alone took a microsecond, a fifth of a sieve's creation. */
const valueOptionsOf = new WeakMap<Grammar, ValueOptions>()
/** Each grammar with no Markdown guard, which reads the `quoted` texts. */
const unguarded = new WeakMap<Grammar, Grammar>()

/** What value decoding reads from the grammar; kept, since a sieve per turn is common. */
function valueOptions(grammar: Grammar): ValueOptions {
  return derived(grammar, valueOptionsOf, () => ({
    nameAttr: grammar.attributes?.name ?? 'name',
    stringAttr: grammar.attributes?.string ?? 'string',
    rawText: new Set((grammar.rawTextParameters ?? []).map((n) => n.toLowerCase())),
    fromTagValue: grammar.attributes?.from === 'tagValue',
    rawValues: grammar.values?.strings === 'raw',
    pythonContainers: grammar.values?.containers === 'python',
    padding: grammar.values?.padding ?? '',
  }))
}

/** What `v` is, for a refusal's message; never throws (a revoked Proxy throws on any look at it). */
function describe(v: unknown): string {
  if (v === null) return 'null'
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'function') return 'a function'
  if (typeof v !== 'object') return `${typeof v} ${String(v)}`
  try {
    return Array.isArray(v) ? 'an array' : 'an object'
  } catch {
    return 'an object that cannot be read'
  }
}

/** The options the sieve reads, in {@link SieveOptions}: any other key is refused (the adapters' options add theirs to these). */
export const sieveOptionKeys = ['grammar', 'dialect', 'captureLimit', 'tools', 'onInvalid', 'strict', 'generateId', 'resume', 'reasoning', 'startInReasoning', 'reasoningCalls', 'quoted', 'streamArguments'] as const

/**
 * Reads each option once, as the checks below will: the options object or
 * one of its values that throws when looked at (a revoked Proxy, a getter
 * that throws) is refused naming it, not let out as the engine's TypeError.
 */
function readable(given: object): void {
  if (readOption('', () => Array.isArray(given))) return
  for (const key of sieveOptionKeys) {
    const v: unknown = readOption(key, () => (given as Record<string, unknown>)[key])
    if (v !== null && typeof v === 'object') readOption(key, () => Array.isArray(v))
  }
}

function invalid(field: string, message: string): ToolsieveError {
  return new ToolsieveError('invalid-option', field === '' ? message : `${field}: ${message}`, field)
}

/** Not given: `undefined`, or `null` (a JSON config can only say "absent" that way). */
const absent = (v: unknown): v is null | undefined => v === undefined || v === null

/**
 * The grammar option, validated. A grammar `validateGrammar` made (what
 * `loadGrammar`, `extendGrammar` and `defaultGrammar` give) is deep-frozen
 * and checked already, and keeps what is compiled from it (`derived.ts`), so
 * its lexer compiles once; anything else, even an object frozen by hand, is
 * checked for every sieve, into the grammar equal to it that a recent sieve
 * had (`sharedGrammar`), so that its lexer, too, compiles once.
 */
function grammarOption(g: unknown): Grammar {
  if (absent(g)) return defaultGrammar
  if (typeof g === 'object' && keepsDerived(g)) return noBlocks(g as Grammar)
  try {
    return noBlocks(sharedGrammar(validateGrammar(g)))
  } catch (e) {
    if (!(e instanceof GrammarError)) throw e
    const inner = e.field === undefined || e.field === '(grammar)' ? '' : e.field
    const field = inner === '' ? 'grammar' : inner.startsWith('[') ? `grammar${inner}` : `grammar.${inner}`
    const detail = e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field!.length + 2) : e.message
    throw new GrammarError(detail, field)
  }
}

/** A grammar given as `grammar` has no reader for blocks read whole: those are a dialect pack's. */
function noBlocks(g: Grammar): Grammar {
  if (g.blocks !== undefined) throw invalid('grammar.blocks', 'blocks read whole are read by a dialect pack\'s reader: give the pack as the dialect option')
  return g
}

/** The grammar that reads the `dialect` option's pack (`dialects/grammar.ts`), and its reader of blocks read whole; with `grammar` too it is refused. */
function dialectOption(dialect: unknown, grammar: unknown): { grammar: Grammar; readWhole: WholeReader | null } {
  if (!absent(grammar)) throw invalid('dialect', 'give a dialect or a grammar, not both')
  if (Array.isArray(dialect)) return dialectList(dialect)
  if (typeof dialect !== 'string' && (typeof dialect !== 'object' || dialect === null)) throw invalid('dialect', `must be a pack name (${Object.keys(dialects).join(', ')}), a pack or a list of them, got ${describe(dialect)}`)
  const pack = resolveDialect(dialect as string | DialectPack)
  return { grammar: grammarOfDialect(pack), readWhole: wholeReader(pack) }
}

/** Strict mode: each diagnostic event becomes an error event with the same fields. */
function toErrors(events: SieveEvent[]): SieveEvent[] {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    if (e.type !== 'diagnostic') continue
    const err: SieveEvent = { type: 'error', code: e.code, message: e.message, span: e.span }
    if (e.path !== undefined) err.path = e.path
    events[i] = err
  }
  return events
}

/**
 * Create a streaming sieve.
 *
 * ```ts
 * const sieve = createSieve()
 * for await (const chunk of stream) for (const e of sieve.push(chunk)) handle(e)
 * for (const e of sieve.end()) handle(e)
 * ```
 *
 * Options are checked here: a bad one throws a {@link ToolsieveError}
 * (`invalid-option`, `invalid-grammar`, `invalid-checkpoint`) whose `field`
 * names it. `push()` never throws on a string; it throws `invalid-chunk` for
 * a non-string other than `null`/`undefined` (which add nothing), and
 * `sieve-finished` after `end()` or `abort()`. A second `end()` or `abort()`
 * (or either after the other) returns `[]`.
 */
export function createSieve(options?: SieveOptions | null): Sieve & { sawToolCallSyntax(): boolean } {
  return sieveWith(options, {})
}

/** What tests may set beyond {@link SieveOptions}: internal, not exported from the package. */
export interface SieveInternals {
  /** The driver's lexer window ({@link DriverOptions.windowSize}). */
  windowSize?: number
  /** See {@link DriverOptions.onBlock}. */
  onBlock?: (calls: ToolCallEvent[]) => void
}

/**
 * The calls of the `quoted` texts (`quoted-reader.ts`), read with the sieve's
 * spellings but no Markdown guard (a user quotes an example in a code fence
 * or span as often as not, and it is the example either way), decoded with
 * the sieve's tools and read within its capture limit.
 */
function quotedCalls(texts: unknown, base: Grammar, opts: ReadOptions, readWhole: WholeReader | null): QuotedCalls {
  if (!Array.isArray(texts)) throw invalid('quoted', `must be an array of strings, got ${describe(texts)}`)
  texts.forEach((text, i) => {
    if (typeof text !== 'string') throw invalid(`quoted[${i}]`, `must be a string, got ${describe(text)}`)
  })
  // a grammar of blocks read whole and no tags (one pack read whole) has no invoke to read
  const tags = base.roles.invoke.length > 0
  if (readWhole !== null && !tags) return readQuotedWhole(texts as string[], base, readWhole, opts)
  // made once per grammar and kept on it, so its lexer compiles once too: a sieve per request is common
  const grammar = derived(base, unguarded, () => extendGrammar(base, { markdown: { fences: false, codeSpans: false } }))
  const found = readQuoted(texts as string[], compileLexer(grammar), opts)
  // a list with a pack read by tags beside packs read whole: the calls of both kinds
  return readWhole === null ? found : readQuotedWhole(texts as string[], base, readWhole, opts, found)
}

/** {@link createSieve} with internals set. */
export function sieveWith(given: SieveOptions | null | undefined, internals: SieveInternals): Sieve & { sawToolCallSyntax(): boolean } {
  const w = internals.windowSize
  // a window of 0 never moves on and NaN slices text away: only a positive integer makes sense
  if (w !== undefined && !(Number.isInteger(w) && w >= 1)) throw new ToolsieveError('invalid-option', `windowSize must be a positive integer, got ${String(w)}`, 'windowSize')
  if (!absent(given) && typeof given === 'object') readable(given)
  if (!absent(given) && (typeof given !== 'object' || Array.isArray(given))) throw invalid('', `the options must be an object, got ${describe(given)}`)
  const options: SieveOptions = given ?? {}
  refuseUnknownOptions(options, sieveOptionKeys)
  const { grammar, readWhole } = absent(options.dialect) ? { grammar: readOption('grammar', () => grammarOption(options.grammar)), readWhole: null } : readOption('dialect', () => dialectOption(options.dialect, options.grammar))
  const lexer = compileLexer(grammar)
  // an opener a block at the message start may begin with is a delimiter too: a capture must hold it
  const anchored = grammar.blocks?.json?.anchored?.open ?? []
  const captureLimit = captureLimitOption(options.captureLimit, grammar, Math.max(lexer.maxDelimiter, ...anchored.map((o) => o.length)))
  const onInvalid = options.onInvalid ?? 'emit'
  if (onInvalid !== 'emit' && onInvalid !== 'reject') throw invalid('onInvalid', `must be 'emit' or 'reject', got ${describe(onInvalid)}`)
  if (!absent(options.strict) && typeof options.strict !== 'boolean') throw invalid('strict', `must be true or false, got ${describe(options.strict)}`)
  const strict = options.strict === true
  if (!absent(options.generateId) && typeof options.generateId !== 'function') throw invalid('generateId', `must be a function returning a string, got ${describe(options.generateId)}`)
  // compiled here, once: a schema that does not compile fails at creation, not mid-stream
  const tools = absent(options.tools) ? null : toolTable(options.tools)
  const fingerprint = grammarFingerprint(grammar)
  for (const field of ['reasoning', 'startInReasoning', 'streamArguments'] as const) {
    if (!absent(options[field]) && typeof options[field] !== 'boolean') throw invalid(field, `must be true or false, got ${describe(options[field])}`)
  }
  const reasoning = options.reasoning !== false
  const reasoningCalls = options.reasoningCalls ?? 'text'
  if (reasoningCalls !== 'text' && reasoningCalls !== 'call') throw invalid('reasoningCalls', `must be 'text' or 'call', got ${describe(reasoningCalls)}`)
  const values = valueOptions(grammar)
  const read = absent(options.quoted) ? null : quotedCalls(options.quoted, grammar, { values, tools, captureLimit }, readWhole)
  // no call in the quoted texts is no guard: the same checkpoints as without the option
  const quoted = read === null || read.empty ? null : read
  const quotedPrint = quoted?.fingerprint() ?? ''
  const state = absent(options.resume) ? { ...initialState(), reasoning: initialReasoning(options.startInReasoning === true, reasoning) } : restoreState(options.resume, { grammar: fingerprint, quoted: quotedPrint, lexer, captureLimit, streamArguments: options.streamArguments === true, reasoningCalls: reasoningCalls === 'call' })
  const reasoningTags = { open: grammar.reasoning?.open ?? ['<think>'], close: grammar.reasoning?.close ?? ['</think>'] }
  const driver = new Driver(lexer, {
    captureLimit, newId: options.generateId ?? randomCallId, modelIds: absent(options.generateId), values, tools, onInvalid, strict, windowSize: internals.windowSize, reasoningTags, readWhole,
    quoted, streamArguments: options.streamArguments === true, reasoningCalls: reasoningCalls === 'call', onBlock: internals.onBlock,
  }, state)
  let finished = false

  function events(): SieveEvent[] {
    const out = driver.out.take()
    return strict ? toErrors(out) : out
  }

  /** The stream's last word, `end` or `abort`: once; an internal error in it releases what is held, as in a push. */
  function finish(last: () => void): SieveEvent[] {
    if (finished) return []
    try {
      last()
    } catch (e) {
      driver.recover(e)
    }
    finished = true
    return events()
  }

  // push catches inline, not through `finish`'s callback: a closure per chunk showed in profiles at token-sized chunks
  return {
    push: (chunk: string | null | undefined) => {
      if (finished) throw new ToolsieveError('sieve-finished', 'the sieve has ended; create a new one')
      if (typeof chunk !== 'string') {
        // an OpenAI stream's last delta has `content: null`: nothing to add
        if (absent(chunk)) return []
        throw new ToolsieveError('invalid-chunk', `push() takes a string (or null or undefined for nothing), got ${describe(chunk)}`)
      }
      try {
        driver.push(chunk)
      } catch (e) {
        // a bug must not lose input or throw into the caller's stream: release everything held as text
        driver.recover(e)
      }
      return events()
    },
    // a second end (a `finally` after the normal one) has nothing left to say, nor an abort after an end or an abort
    end: () => finish(() => driver.end()),
    abort: () => finish(() => driver.abort()),
    checkpoint: (): SieveCheckpoint => (quotedPrint === '' ? { version: 1, grammar: fingerprint, state: saveState(driver.s) } : { version: 1, grammar: fingerprint, quoted: quotedPrint, state: saveState(driver.s) }),
    stats: () => ({ ...driver.stats }),
    sawToolCallSyntax: () => driver.s.sawSyntax,
  }
}

/**
 * The capture limit: the option, else the grammar's. Below the longest
 * delimiter not even one tag fits, so every block would be text.
 */
function captureLimitOption(option: unknown, grammar: Grammar, minimum: number): number {
  const field = absent(option) ? 'grammar.limits.captureLimit' : 'captureLimit'
  const limit = absent(option) ? (grammar.limits?.captureLimit ?? 262144) : option
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw invalid(field, `must be a positive integer, got ${describe(limit)}`)
  if (limit < minimum) throw invalid(field, `must be at least ${minimum}, the grammar's longest delimiter (a smaller capture cannot hold one tag), got ${limit}`)
  return limit
}
