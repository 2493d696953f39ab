/**
 * Options every adapter takes: the sieve's, plus what a request already
 * carries (its tools, whether thinking is on, its messages for the
 * prompt-example guard) and the few choices an adapter makes on the wire.
 * Read once, when the adapter is called, so a bad option fails before the
 * first chunk is read.
 */
import { createSieve, sieveOptionKeys } from '../sieve/create.js'
import { readOption, refuseUnknownOptions, ToolsieveError } from '../errors.js'
import type { DiagnosticEvent, ErrorEvent, JsonSchema, Sieve, SieveOptions, ToolDefinition } from '../types.js'
import { quotedTexts, type QuotedSource } from './quoted.js'

/**
 * A tool as a request declares it. Besides the core's
 * {@link ToolDefinition}s: a Responses or AI SDK function tool
 * (`{ type: 'function', name, parameters | inputSchema }`). Tools of any
 * other `type` (OpenAI's `custom`, built-ins such as `web_search`, Anthropic
 * server tools) are left out: a rescued call is always a function call, so
 * it cannot be one of them.
 */
export type AdapterTool =
  | ToolDefinition
  | { type: 'function'; name: string; parameters?: JsonSchema | null; inputSchema?: JsonSchema }
  | { type: string }

/** What an adapter does when upstream sent native tool calls in a turn that also has calls rescued from its text. */
export type ConflictPolicy = 'error' | 'prefer-native'

/**
 * Options of every adapter. All optional; `null` and `undefined` mean the
 * default. A bad value throws a {@link ToolsieveError} `invalid-option`
 * naming the field when the adapter is called.
 */
export interface AdapterOptions extends Omit<SieveOptions, 'tools' | 'quoted'> {
  /**
   * The request's tools, as the request declares them (see
   * {@link AdapterTool}): unknown names get `unknown-tool`, schemas coerce
   * and validate. Default: no checks.
   */
  tools?: ReadonlyArray<AdapterTool> | null
  /**
   * The request has thinking on, so the completion starts inside the
   * reasoning (the core's `startInReasoning`). `true`, or the request's own
   * `thinking` parameter (`{ type: 'enabled' }` is on, any other type off).
   * Default: `startInReasoning`, else off.
   */
  thinking?: boolean | { type: string } | null
  /**
   * Examples the model may repeat without meaning to run them: texts, or the
   * request's messages (the last user message's text is used). See
   * {@link QuotedSource}. Default: none.
   */
  quoted?: QuotedSource | null
  /**
   * Drop the blank lines a model writes around a block (the whitespace
   * before it, the line breaks after it) from the content, as an answer
   * without the block would read. The core keeps every character; this
   * only touches whitespace next to a rescued call. Default `true`.
   */
  trimBlankLines?: boolean | null
  /**
   * A turn with native calls from upstream and calls rescued from its text:
   * `'error'` throws `native-conflict` before a rescued call could go out
   * after a native one, or a native one after a rescued one (either could be
   * the other again); `'prefer-native'` holds rescued calls to the turn's end
   * and drops them if native calls came. Default `'error'`.
   */
  onConflict?: ConflictPolicy | null
  /**
   * Called with every diagnostic (or, in strict mode, error) the sieve
   * reports: the adapters' wire formats have no place for them. Default: none.
   * A throw ends the answer with its error, as an upstream break does: every
   * diagnostic of that chunk is still reported, and a stream first sends
   * everything the chunk made (text, calls) and what its sieve held, as
   * text. The first error is the one thrown.
   */
  onDiagnostic?: ((event: DiagnosticEvent | ErrorEvent) => void) | null
}

/** {@link AdapterOptions}, checked and with defaults applied. */
export interface ResolvedAdapterOptions {
  /** What each sieve of the adapter is created with. */
  sieve: SieveOptions
  trimBlankLines: boolean
  onConflict: ConflictPolicy
  streamArguments: boolean
  onDiagnostic: ((event: DiagnosticEvent | ErrorEvent) => void) | undefined
  /**
   * A new sieve with {@link sieve}: an answer's first (`AnswerSieves` makes
   * the later ones of a response read in pieces). The first was made while
   * resolving, so options the core refuses failed there.
   */
  newSieve(): Sieve
}

const absent = (v: unknown): v is null | undefined => v === undefined || v === null

// `Array.isArray` throws on a revoked proxy: for describing and sorting values, one is no list
function isList(v: unknown): boolean {
  try {
    return Array.isArray(v)
  } catch {
    return false
  }
}

function invalid(field: string, message: string): ToolsieveError {
  return new ToolsieveError('invalid-option', `${field}: ${message}`, field)
}

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (isList(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : typeof v === 'string' ? JSON.stringify(v) : `${typeof v} ${String(v)}`
}

/**
 * The request's tools as the core reads them, with the index each came from
 * in the caller's list (tools of other types are left out, so the core's
 * `tools[i]` must be mapped back to name the caller's entry).
 */
export function sieveTools(tools: unknown): { defs: ToolDefinition[]; from: number[] } {
  if (!isList(tools)) throw invalid('tools', `must be an array of tools, got ${describe(tools)}`)
  const list = tools as unknown[]
  const defs: ToolDefinition[] = []
  const from: number[] = []
  const length = readOption('tools', () => Number(list.length))
  for (let i = 0; i < length; i++) {
    const field = `tools[${i}]`
    // a hole is skipped, as `forEach` skipped it
    if (!readOption(field, () => i in list)) continue
    const def = readOption(field, () => sieveTool(list[i], i))
    if (def === undefined) continue
    defs.push(def)
    from.push(i)
  }
  return { defs, from }
}

function sieveTool(tool: unknown, i: number): ToolDefinition | undefined {
  if (typeof tool === 'string') return tool
  if (tool === null || typeof tool !== 'object' || isList(tool)) throw invalid(`tools[${i}]`, `must be a tool name or a tool object, got ${describe(tool)}`)
  const t = tool as Record<string, unknown>
  // an OpenAI chat function tool, and Anthropic / MCP tools, are the core's own shapes
  if (t.function !== null && typeof t.function === 'object') return t.type === undefined || t.type === 'function' ? (tool as ToolDefinition) : undefined
  if ('input_schema' in t || 'inputSchema' in t) {
    if (t.type === 'function' && t.parameters !== undefined) throw invalid(`tools[${i}]`, 'has both parameters and inputSchema')
    return tool as ToolDefinition
  }
  if (t.type === 'function') {
    // Responses function tools write `parameters: null` for "no schema"
    const parameters = t.parameters
    return absent(parameters) ? { name: t.name as string } : { name: t.name as string, inputSchema: parameters as JsonSchema }
  }
  if (t.type === undefined) return tool as ToolDefinition
  return undefined
}

/** The `thinking` option as a `startInReasoning` flag; `undefined` when it was not given. */
function thinkingFlag(thinking: unknown): boolean | undefined {
  if (absent(thinking)) return undefined
  if (typeof thinking === 'boolean') return thinking
  const type = readOption('thinking', () => (typeof thinking === 'object' && !isList(thinking) ? (thinking as { type?: unknown }).type : undefined))
  if (typeof type === 'string') return type === 'enabled'
  throw invalid('thinking', `must be true, false or { type: 'enabled' | 'disabled' }, got ${describe(thinking)}`)
}

function flag(options: AdapterOptions, field: 'trimBlankLines' | 'streamArguments', fallback: boolean): boolean {
  const v = readOption(field, () => options[field])
  if (absent(v)) return fallback
  if (typeof v !== 'boolean') throw invalid(field, `must be true or false, got ${describe(v)}`)
  return v
}

/**
 * Checks an adapter's options and turns them into the sieve's.
 *
 * @throws {ToolsieveError} `invalid-option` (or the core's `invalid-grammar`,
 *   `invalid-checkpoint`) with `field` naming the option; for a tool, the
 *   index in the caller's `tools` list.
 */
export function resolveAdapterOptions(given: AdapterOptions | null | undefined): ResolvedAdapterOptions {
  if (!absent(given) && (typeof given !== 'object' || readOption('', () => Array.isArray(given)))) {
    throw new ToolsieveError('invalid-option', `the options must be an object, got ${describe(given)}`, '')
  }
  const options: AdapterOptions = given ?? {}
  refuseUnknownOptions(options, adapterOptionKeys)
  const sieve = copyOptions(options)
  // the adapter's own fields are not the core's: the core reads its options by name, so they go
  for (const field of adapterFields) delete (sieve as Record<string, unknown>)[field]
  const tools = readOption('tools', () => options.tools)
  const converted = absent(tools) ? undefined : sieveTools(tools)
  if (converted !== undefined) sieve.tools = converted.defs
  const inReasoning = thinkingFlag(readOption('thinking', () => options.thinking))
  if (inReasoning !== undefined) sieve.startInReasoning = inReasoning
  const texts = quotedTexts(readOption('quoted', () => options.quoted))
  if (texts !== undefined) sieve.quoted = texts
  const conflictPolicy = readOption('onConflict', () => options.onConflict)
  const onConflict = absent(conflictPolicy) ? 'error' : conflictPolicy
  if (onConflict !== 'error' && onConflict !== 'prefer-native') throw invalid('onConflict', `must be 'error' or 'prefer-native', got ${describe(onConflict)}`)
  const onDiagnostic = readOption('onDiagnostic', () => options.onDiagnostic)
  if (!absent(onDiagnostic) && typeof onDiagnostic !== 'function') throw invalid('onDiagnostic', `must be a function, got ${describe(onDiagnostic)}`)
  const trimBlankLines = flag(options, 'trimBlankLines', true)
  const streamArguments = flag(options, 'streamArguments', false)
  // the first sieve is made now: the core checks its own options (grammar, schemas) before any chunk is read
  let first: Sieve | undefined = createFirst(sieve, converted?.from)
  return {
    sieve,
    trimBlankLines,
    onConflict,
    streamArguments,
    onDiagnostic: onDiagnostic ?? undefined,
    newSieve: () => {
      if (first === undefined) return createSieve(sieve)
      const s = first
      first = undefined
      return s
    },
  }
}

/** `{ ...options }`, with a getter that throws refused as its field: the spread itself cannot tell which. */
function copyOptions(options: AdapterOptions): SieveOptions {
  try {
    return { ...options } as SieveOptions
  } catch {
    for (const key of readOption('', () => Reflect.ownKeys(options))) readOption(String(key), () => options[key as keyof AdapterOptions])
    throw new ToolsieveError('invalid-option', 'the options: could not be read (a getter or proxy threw)', '')
  }
}

const adapterFields = ['thinking', 'trimBlankLines', 'onConflict', 'onDiagnostic'] as const

/** The options every adapter reads, in {@link AdapterOptions}: the sieve's and the adapters' own; any other key is refused. */
export const adapterOptionKeys: readonly string[] = [...sieveOptionKeys, ...adapterFields]

/** The core's `tools[j]` names the j-th converted tool: name the caller's entry instead. */
function createFirst(sieve: SieveOptions, from: number[] | undefined): Sieve {
  try {
    return createSieve(sieve)
  } catch (e) {
    if (!(e instanceof ToolsieveError) || from === undefined) throw e
    const m = /^tools\[(\d+)\]/.exec(e.field ?? '')
    const original = m === null ? undefined : from[Number(m[1])]
    if (m === null || original === undefined || original === Number(m[1])) throw e
    const field = `tools[${original}]${e.field!.slice(m[0].length)}`
    throw new ToolsieveError(e.code, e.message.split(m[0]).join(field), field)
  }
}
