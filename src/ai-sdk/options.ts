/**
 * The middleware's options: the adapters' own (the sieve's options, `tools`,
 * `thinking`, `quoted`, `trimBlankLines`, `onConflict`, `onDiagnostic`) plus
 * what only the AI SDK needs. Checked once when the middleware is made; per
 * call they are completed from the call's params (its tools, its last user
 * message) and resolved into a sieve.
 */
import { dialects } from '../dialects/registry.js'
import { readableDialectOfModel } from '../dialects/model.js'
import { adapterOptionKeys, resolveAdapterOptions, type AdapterOptions, type AdapterTool, type ResolvedAdapterOptions } from '../adapters/options.js'
import { quotedTexts, type QuotedSource } from '../adapters/quoted.js'
import { refuseUnknownOptions, ToolsieveError } from '../errors.js'
import type { CallOptionsLike, CallToolLike, ToolChoiceLike } from './types.js'

/**
 * Options of {@link toolsieveMiddleware}. All optional; `null` and
 * `undefined` mean the default.
 */
export interface ToolsieveMiddlewareOptions extends Omit<AdapterOptions, 'tools' | 'quoted' | 'streamArguments' | 'dialect'> {
  /**
   * The tools calls are checked against (unknown names get `unknown-tool`,
   * schemas coerce and validate). Default: the call's own function tools
   * (`params.tools`), which is what `streamText` / `generateText` were given.
   */
  tools?: ReadonlyArray<AdapterTool> | null
  /**
   * Texts whose tool-call blocks are examples, not calls (see the core's
   * `quoted`): texts or messages, as the other adapters take them. Default:
   * the last user message of the call's prompt, so a model repeating a call
   * the user pasted does not run it. `false`: none. When `transformParams`
   * put the tool prompt in, its example call is always quoted too.
   */
  quoted?: QuotedSource | false | null
  /**
   * Rewrite the call for a model without native tools (prompt-based tool
   * calling): the tools go into the system prompt ({@link buildToolPrompt}),
   * earlier assistant tool calls into DSML text and tool results into user
   * text, and `tools` / `toolChoice` are removed (provider tools stay).
   * Default `false`: the call reaches the model as it was made, native
   * `tools` and prompt unchanged, and the middleware only repairs the answer
   * (the call's tools and last user message still feed the sieve), for a
   * model with native tools that sometimes writes its calls as text.
   */
  transformParams?: boolean | null
  /**
   * The model's dialect. `'dsml'` or `'xml'`: DeepSeek's markup in that
   * spelling. A pack name (`'hermes'`, `'glm'`, `'qwen3-coder'`…, see
   * `dialects`): the answer is read in that pack, and with `transformParams:
   * true` the prompt teaches it and earlier calls are written in it. Default:
   * the pack `dialectForModel` gives for the wrapped model's id when the
   * sieve reads it (`zai-org/GLM-4.6` reads GLM), else DSML; with `grammar`
   * given, that grammar.
   */
  dialect?: 'dsml' | 'xml' | (string & {}) | null
  /**
   * Stream each rescued call's input as it is written (`tool-input-start` as
   * soon as its name is read, `tool-input-delta` pieces, then
   * `tool-input-end` and `tool-call`). The AI SDK runs a tool only on its
   * `tool-call` part, so this is safe. `false`: the four parts come together
   * when the call is complete. Default `true`.
   */
  streamArguments?: boolean | null
}

/** The middleware's own fields, checked and with defaults. */
export interface MiddlewareSettings {
  base: Omit<AdapterOptions, 'tools' | 'quoted' | 'streamArguments'>
  tools: ReadonlyArray<AdapterTool> | undefined
  quoted: QuotedSource | false | undefined
  transformParams: boolean
  /** The prompt's dialect: `dsml`, `xml` or a pack name; with a pack name the sieve reads it too. Undefined: from the model's id (DSML when none). */
  dialect: string | undefined
  streamArguments: boolean
}

/** What `transformParams` knew of the call before it rewrote it, for the wrapStream / wrapGenerate of the same call. */
export interface CallState {
  tools: ReadonlyArray<CallToolLike> | undefined
  toolChoice: ToolChoiceLike | undefined
  /** Texts to quote: the last user message (unless turned off) and the tool prompt. */
  quoted: string[]
}

const absent = (v: unknown): v is null | undefined => v === undefined || v === null

/** The options of {@link ToolsieveMiddlewareOptions}: the adapters' and `transformParams`; any other key is refused. */
const middlewareOptionKeys: readonly string[] = [...adapterOptionKeys, 'transformParams']

function invalid(field: string, message: string): ToolsieveError {
  return new ToolsieveError('invalid-option', `${field}: ${message}`, field)
}

/**
 * Checks the options once, when the middleware is made.
 *
 * @throws {ToolsieveError} `invalid-option` naming the field (the core's and the adapters' checks included).
 */
export function middlewareSettings(given: ToolsieveMiddlewareOptions | null | undefined): MiddlewareSettings {
  if (!absent(given) && (typeof given !== 'object' || Array.isArray(given))) throw new ToolsieveError('invalid-option', 'the options must be an object', '')
  const options = given ?? {}
  refuseUnknownOptions(options, middlewareOptionKeys)
  const { transformParams, dialect, streamArguments, quoted, tools, ...base } = options
  for (const [field, v] of [['transformParams', transformParams], ['streamArguments', streamArguments]] as const) {
    if (!absent(v) && typeof v !== 'boolean') throw invalid(field, 'must be true or false')
  }
  if (!absent(dialect) && dialect !== 'dsml' && dialect !== 'xml') {
    if (typeof dialect !== 'string' || dialects[dialect] === undefined) throw invalid('dialect', `must be 'dsml', 'xml' or a pack name (${Object.keys(dialects).join(', ')})`)
    if (!absent(base.grammar)) throw invalid('dialect', 'give a dialect pack or a grammar, not both')
    // the pack is read as well as written: the core refuses one it cannot read yet, naming why
    resolveAdapterOptions({ ...base, dialect, tools: absent(tools) ? null : tools })
  }
  if (quoted !== false && !absent(quoted)) quotedTexts(quoted)
  // the adapters' and the core's checks, now rather than at the first call
  resolveAdapterOptions({ ...base, tools: absent(tools) ? null : tools })
  return {
    base,
    tools: absent(tools) ? undefined : tools,
    quoted: absent(quoted) ? undefined : quoted,
    transformParams: transformParams ?? false,
    dialect: dialect ?? undefined,
    streamArguments: streamArguments ?? true,
  }
}

/** The pack the sieve reads: the `dialect` option's when it names one, else the model's when the sieve reads it and no grammar is given. */
function readDialect(settings: MiddlewareSettings, modelId: string | undefined): string | undefined {
  const d = settings.dialect
  if (d !== undefined) return d === 'dsml' || d === 'xml' ? undefined : d
  return absent(settings.base.grammar) ? readableDialectOfModel(modelId) : undefined
}

/** The prompt's dialect: the option, else the pack the model's id picks, else DSML. */
export function promptDialect(settings: MiddlewareSettings, modelId: string | undefined): string {
  return settings.dialect ?? readDialect(settings, modelId) ?? 'dsml'
}

/** The last user message's text, as the adapters read it (a message of only files is skipped). */
export function lastUserText(params: CallOptionsLike): string[] {
  return quotedTexts(params.prompt as never, 'prompt') ?? []
}

/** The call's state as seen before any rewriting: its own tools, tool choice and the texts to quote. */
export function callState(settings: MiddlewareSettings, params: CallOptionsLike, prompt: string | undefined): CallState {
  const quoted = settings.quoted === false ? [] : settings.quoted === undefined ? lastUserText(params) : (quotedTexts(settings.quoted) ?? [])
  if (prompt !== undefined) quoted.push(prompt)
  return { tools: params.tools, toolChoice: params.toolChoice, quoted }
}

/**
 * The sieve settings for one call. With `toolChoice: 'none'` no call may run:
 * no tool is declared and a call is rejected, so any block is text.
 */
export function resolveCall(settings: MiddlewareSettings, state: CallState, modelId?: string): ResolvedAdapterOptions {
  const none = state.toolChoice?.type === 'none'
  const tools = none ? [] : (settings.tools ?? state.tools)
  const dialect = readDialect(settings, modelId)
  return resolveAdapterOptions({
    ...settings.base,
    ...(dialect === undefined ? {} : { dialect }),
    tools: tools === undefined ? null : (tools as ReadonlyArray<AdapterTool>),
    quoted: state.quoted,
    streamArguments: settings.streamArguments,
    ...(none ? { onInvalid: 'reject' as const } : {}),
  })
}
