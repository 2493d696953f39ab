/**
 * `sieveChatCompletion`: the same as the stream, for a whole (non-streaming)
 * chat completion: each choice's `message.content` read at once.
 */
import type { ChatCompletion, ChatCompletionMessageFunctionToolCall, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions'
import {
  createActionSieve,
  isRecord,
  NativeConflictGate,
  optionalArray,
  optionalRecord,
  optionalString,
  record,
  resolveAdapterOptions,
  type AdapterAction,
  type ResolvedAdapterOptions,
} from '../adapters/index.js'
import { ToolsieveError } from '../errors.js'
import { legacyCallId } from './ids.js'
import type { OpenAIAdapterOptions } from './chat-stream.js'

type Message = ChatCompletion.Choice['message']

/** A completion as {@link sieveChatCompletion} gives it: the input's type, with DeepSeek's `message.reasoning_content`. */
export type SievedCompletion<T extends ChatCompletion = ChatCompletion> = Omit<T, 'choices'> & {
  choices: Array<T['choices'][number] & { message: { reasoning_content?: string | null } }>
}

/**
 * Rescues the tool calls written into a chat completion's text: for every
 * choice, `message.content` is cleaned of the markup, the rescued calls are
 * added to `message.tool_calls` (after any native ones; a legacy
 * `message.function_call` becomes one), reasoning goes to
 * `message.reasoning_content`, and `finish_reason` becomes `'tool_calls'`
 * when calls were rescued. The input is not changed.
 *
 * ```ts
 * const completion = sieveChatCompletion(await client.chat.completions.create({ model, messages, tools }), { tools })
 * for (const call of completion.choices[0].message.tool_calls ?? []) …
 * ```
 *
 * @throws {ToolsieveError} `invalid-option` for a bad option (or a
 *   `completion` that is not an object); `native-conflict` for a choice with
 *   native and rescued calls (unless `onConflict: 'prefer-native'`, which
 *   keeps the native ones); `invalid-chunk` (with `field`) for a completion
 *   of the wrong shape: `choices` not a list, a choice or `message` not an
 *   object, `content` not a string, `tool_calls` not a list.
 */
export function sieveChatCompletion<T extends ChatCompletion>(completion: T, options?: OpenAIAdapterOptions | null): SievedCompletion<T> {
  const resolved = resolveAdapterOptions(options)
  if (!isRecord(completion)) throw new ToolsieveError('invalid-option', 'completion: must be a chat completion object', 'completion')
  const list = optionalArray(completion.choices, 'choices') as ChatCompletion.Choice[] | undefined
  if (list === undefined) return { ...completion } as SievedCompletion<T>
  const choices = list.map((choice, i) => sieveChoice(record(choice, `choices[${i}]`) as unknown as ChatCompletion.Choice, `choices[${i}]`, resolved))
  return { ...completion, choices } as SievedCompletion<T>
}

function sieveChoice(choice: ChatCompletion.Choice, at: string, resolved: ResolvedAdapterOptions): ChatCompletion.Choice {
  // a choice without a message has nothing to read: it goes as it came
  if (choice.message === undefined || choice.message === null) return { ...choice }
  const message = record(choice.message, `${at}.message`) as unknown as Message & { reasoning_content?: string | null }
  const content = optionalString(message.content, `${at}.message.content`)
  const gate = new NativeConflictGate(resolved.onConflict)
  const { function_call: legacy, ...kept } = message
  const natives = [...((optionalArray(message.tool_calls, `${at}.message.tool_calls`) ?? []) as ChatCompletionMessageToolCall[])]
  if (optionalRecord(legacy, `${at}.message.function_call`) !== undefined) natives.push({ id: legacyCallId(resolved), type: 'function', function: { name: legacy!.name, arguments: legacy!.arguments } })
  if (natives.length > 0) gate.sawNative()
  const sieve = createActionSieve(resolved, { oneText: true })
  const actions = [...gate.pass([...sieve.push(content), ...sieve.end()]), ...gate.finish()]
  let text = ''
  let reasoning = ''
  const rescued: ChatCompletionMessageFunctionToolCall[] = []
  for (const a of actions) collect(a)
  function collect(a: AdapterAction): void {
    if (a.type === 'text') text += a.text
    else if (a.type === 'reasoning') reasoning += a.text
    else if (a.type === 'call-end') rescued.push({ id: a.id, type: 'function', function: { name: a.call.name, arguments: a.call.arguments } })
  }
  const out: Message & { reasoning_content?: string | null } = { ...kept } as Message
  if (typeof message.content === 'string') out.content = text === '' && rescued.length > 0 ? null : text
  if (reasoning !== '') out.reasoning_content = typeof message.reasoning_content === 'string' ? message.reasoning_content + reasoning : reasoning
  const calls = [...natives, ...rescued]
  if (calls.length > 0) out.tool_calls = calls
  const finish = choice.finish_reason
  const finish_reason = calls.length > 0 && (finish === 'stop' || finish === 'function_call' || finish === null || finish === undefined) ? 'tool_calls' : finish
  return { ...choice, message: out, finish_reason }
}
