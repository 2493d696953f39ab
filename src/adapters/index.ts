/**
 * The layer every adapter (`toolsieve/openai`, `/anthropic`, `/ai-sdk`,
 * `/stream`) builds on: options read from a request, sieve events as wire-
 * neutral actions, the blank-line trimming, and the native-call conflict
 * gate. Internal to the package (no subpath export): adapters import it from
 * here, and its exports stay few and stable.
 */
export {
  resolveAdapterOptions,
  sieveTools,
  type AdapterOptions,
  type AdapterTool,
  type ConflictPolicy,
  type ResolvedAdapterOptions,
} from './options.js'
export { quotedTexts, type QuotedMessage, type QuotedSource } from './quoted.js'
export { BlankLineTrimmer } from './trim.js'
export {
  abortedCallError,
  abortedText,
  isAdapterStop,
  type ActionSieve,
  type AdapterAction,
  type CallAbortAction,
  type CallDeltaAction,
  type CallEndAction,
  type CallStartAction,
  type MarkAction,
  type ReasoningAction,
  type ReasoningEndAction,
  type ReasoningStartAction,
  type TextAction,
} from './actions.js'
export { AnswerSieves, createActionSieve, type AnswerLayout } from './answer-sieves.js'
export { NativeConflictGate } from './conflict.js'
export { HeldError } from './held-error.js'
export { Passed } from './passed.js'
export { Lanes, type Barrier } from './lanes.js'
export { index, isRecord, keyText, malformed, optionalArray, optionalRecord, optionalString, record } from './chunks.js'
