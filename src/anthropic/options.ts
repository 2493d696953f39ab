/**
 * The options of the Anthropic adapter: the shared adapter options
 * (`src/adapters/`), with `tools` typed for Anthropic's definitions and ids
 * in Anthropic's look. Checked once, when the adapter is called.
 */
import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages'
import { resolveAdapterOptions, type AdapterOptions, type AdapterTool, type ResolvedAdapterOptions } from '../adapters/index.js'
import { randomCallId } from '../sieve/ids.js'

/**
 * Options of {@link sieveMessagesStream} and {@link sieveMessage}: the
 * sieve's (`grammar`, `captureLimit`, `onInvalid`, `strict`, `generateId`,
 * `reasoning`, `streamArguments`, …) and the adapters' (`thinking`,
 * `quoted`, `trimBlankLines`, `onConflict`, `onDiagnostic`). All optional;
 * `null` means the default.
 */
export interface AnthropicSieveOptions extends Omit<AdapterOptions, 'tools'> {
  /**
   * The request's `tools`: a tool's `input_schema` coerces and validates a
   * rescued call's input, a call to another name gets `unknown-tool`.
   * Server tools (`web_search_…`, `bash_…`) are left out: a rescued call is
   * a client tool call. Default: no checks.
   */
  tools?: ReadonlyArray<ToolUnion | AdapterTool> | null
}

/** `toolu_` + 24 hex digits: Anthropic's look for tool_use ids, made by the core's generator. */
export const toolUseId = (): string => `toolu_${randomCallId().slice(5)}`

/** Checks the options (a bad one throws `invalid-option` naming it) and fills in the defaults. */
export function anthropicSettings(options: AnthropicSieveOptions | null | undefined): ResolvedAdapterOptions {
  const given = options ?? {}
  return resolveAdapterOptions(typeof given === 'object' && !Array.isArray(given) ? ({ ...given, generateId: given.generateId ?? toolUseId } as AdapterOptions) : (given as AdapterOptions))
}
