/**
 * Options of `sieveFetch` and `repairResponse`: the OpenAI adapter's, less
 * what each request carries, plus a report of what was done to each
 * response. Checked once, when `sieveFetch` is called.
 */
import { resolveAdapterOptions } from '../adapters/index.js'
import { adapterOptionKeys } from '../adapters/options.js'
import { readOption, refuseUnknownOptions, ToolsieveError } from '../errors.js'
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import type { RequestCarried, RouteKind } from './request.js'

/** What was done to one response, for a log line. */
export interface RepairReport {
  /** The route the request took. */
  route: RouteKind
  /**
   * `stream` or `whole`: the body was read through the sieve (an event
   * stream, a JSON object); `passed`: it went to the caller as it came.
   */
  mode: 'stream' | 'whole' | 'passed'
  /** Calls rescued from the text (upstream's native calls are not counted). */
  rescued: number
  /** Why the body was not repaired, or what stopped it (`refused: native-conflict`, `stopped: call-aborted`). */
  note?: string
  /** The dialect the request's `model` picked (`qwen3-coder`…), when neither `dialect` nor `grammar` was given. */
  dialect?: string
}

/**
 * Options of {@link sieveFetch}: those of `toolsieve/openai` (the sieve's
 * options, `trimBlankLines`, `onConflict`, `onDiagnostic`,
 * `streamArguments`…) without `tools`, `quoted` and `thinking`, which each
 * request's body gives. Without `dialect` or `grammar`, the body's `model`
 * picks the dialect when `dialectForModel` names one the sieve reads
 * (`qwen3-coder`, `hermes`, `glm`, `kimi-k2`, `mistral`…); any other model is
 * read with the default grammar.
 */
export interface SieveFetchOptions extends Omit<OpenAIAdapterOptions, RequestCarried> {
  /**
   * Called once per repaired route's response, when its body is done (for a
   * stream: when it ended or was cancelled), with what was done to it.
   * What it throws fails the response's body (not the fetch), as an
   * `onDiagnostic`'s throw does. Default: none.
   */
  onReport?: ((report: RepairReport) => void) | null
  /**
   * Most characters of one line, and of one event's data, of an upstream
   * event stream: past it the stream ends with an error event
   * (`event-too-large`) and the upstream body is cancelled, so a stream that
   * never ends a line cannot grow memory without end. Default 64 Mi.
   */
  maxEventSize?: number | null
}

const carried: readonly RequestCarried[] = ['tools', 'quoted', 'thinking']

/** The options of `sieveFetch` and `repairResponse`; `carried` among them, to be refused with the reason. */
const fetchOptionKeys: readonly string[] = [...adapterOptionKeys, 'onReport', 'maxEventSize']

/** A `fetch` in the options is a slip for the base fetch, which is `sieveFetch`'s second argument. */
const baseFetchHint = 'the base fetch is sieveFetch\'s second argument: sieveFetch(options, fetch)'

/**
 * Refuses a key that is no option of {@link SieveFetchOptions} (a misspelling,
 * or the base `fetch` given in the options), naming it.
 *
 * @throws {ToolsieveError} `invalid-option`.
 */
export function refuseUnknownFetchOptions(options: SieveFetchOptions | null | undefined): void {
  if (options === null || options === undefined || typeof options !== 'object' || readOption('', () => Array.isArray(options))) return
  refuseUnknownOptions(options, fetchOptionKeys, { fetch: baseFetchHint, baseFetch: baseFetchHint })
}

/**
 * Checks the options as the adapter will use them, so a bad one fails when
 * the fetch is made, naming the field, not at the first request.
 *
 * @throws {ToolsieveError} `invalid-option`.
 */
export function checkFetchOptions(options: SieveFetchOptions | null | undefined): void {
  if (options === null || options === undefined) return
  if (typeof options !== 'object') throw new ToolsieveError('invalid-option', `options: must be an object, got ${typeof options}`, 'options')
  refuseUnknownFetchOptions(options)
  for (const field of carried) {
    if ((options as Record<string, unknown>)[field] !== undefined && (options as Record<string, unknown>)[field] !== null) {
      throw new ToolsieveError('invalid-option', `${field}: comes from each request's body, not from the fetch's options`, field)
    }
  }
  const report = options.onReport
  if (report !== undefined && report !== null && typeof report !== 'function') throw new ToolsieveError('invalid-option', `onReport: must be a function, got ${typeof report}`, 'onReport')
  const size = options.maxEventSize
  if (size !== undefined && size !== null && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1)) {
    throw new ToolsieveError('invalid-option', `maxEventSize: must be a whole number of characters, 1 or more, got ${typeof size === 'number' ? size : typeof size}`, 'maxEventSize')
  }
  resolveAdapterOptions(adapterPart(options))
}

/** The options without `onReport` and `maxEventSize`: what the adapter takes. */
export function adapterPart(options: SieveFetchOptions | null | undefined): OpenAIAdapterOptions {
  if (options === null || options === undefined) return {}
  const { onReport: _r, maxEventSize: _m, ...rest } = options
  return rest
}
