/**
 * `sieveChatStream`: a chat completion stream with the tool calls its text
 * held rescued as `delta.tool_calls`, and its content cleaned of the markup.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { HeldError, index as indexOf, isAdapterStop, Passed, optionalArray, optionalRecord, record, resolveAdapterOptions, type AdapterOptions, type ResolvedAdapterOptions } from '../adapters/index.js'
import { ChoiceTurn, type Piece, type SievedDelta } from './chat-choice.js'
import { readThrough } from '../sieve/read-through.js'

/** A chunk as {@link sieveChatStream} gives it: the input's type, with DeepSeek's `delta.reasoning_content`. */
export type SievedChunk<T extends ChatCompletionChunk = ChatCompletionChunk> = Omit<T, 'choices'> & {
  choices: Array<T['choices'][number] & { delta: SievedDelta }>
}

/**
 * Options of the `toolsieve/openai` functions: the sieve's options plus the
 * adapter layer's (`tools` as the request declares them, `thinking`,
 * `quoted` from the request's `messages` or `input`, `trimBlankLines`,
 * `onConflict`, `onDiagnostic`, `streamArguments`).
 */
export type OpenAIAdapterOptions = AdapterOptions

/**
 * Rescues the tool calls a model wrote into its text, from a chat completion
 * stream (the `openai` SDK's `Stream<ChatCompletionChunk>`, or any async
 * iterable of chunks).
 *
 * - `delta.content` is cleaned: the markup of a rescued call is gone, text
 *   and examples in Markdown code stay.
 * - Each rescued call is `delta.tool_calls`: a chunk with its `index`, `id`,
 *   `type: 'function'` and `function.name`, then its `function.arguments`.
 *   By default a call goes out when it is complete; with `streamArguments`
 *   its name as soon as it is read and its arguments as they arrive (a call
 *   whose block then fails throws `call-aborted`: nothing half-sent is left).
 * - Reasoning (`<think>…</think>`, or `thinking: true`) is `delta.reasoning_content`.
 * - A turn with rescued calls finishes with `finish_reason: 'tool_calls'`
 *   (`length` and `content_filter` stay).
 * - One sieve per `choice.index`; chunks with no choices (usage) pass through;
 *   a stream that ends without a finish reason is flushed.
 * - Native `delta.tool_calls` pass through with indexes apart from rescued
 *   ones; a legacy `delta.function_call` becomes a tool call. A turn with
 *   native and rescued calls throws `native-conflict` (default), or with
 *   `onConflict: 'prefer-native'` its rescued calls are dropped.
 * - What passes through unsieved (a refusal, upstream reasoning, native
 *   calls; the role and null fields aside) keeps its place: it goes out
 *   after the text the sieve held from before it.
 *
 * ```ts
 * const stream = await client.chat.completions.create({ model, messages, stream: true })
 * for await (const chunk of sieveChatStream(stream, { tools, quoted: messages })) …
 * ```
 *
 * @throws {ToolsieveError} at once for a bad option (`invalid-option`, with
 *   `field`); while iterating, `native-conflict` or `call-aborted`, and
 *   `invalid-chunk` (with `field`, its path in the chunk) for a chunk of the
 *   wrong shape: not an object, `choices` not a list, a choice or `delta`
 *   not an object, `content` not a string, `tool_calls` not a list of
 *   objects with an index. Before `invalid-chunk`, or an error the upstream
 *   iterator throws, the text the sieves held goes out as `content` (and
 *   `reasoning_content`), never as a call.
 */
export function sieveChatStream<T extends ChatCompletionChunk>(chunks: AsyncIterable<T>, options?: OpenAIAdapterOptions | null): AsyncIterable<SievedChunk<T>> {
  const resolved = resolveAdapterOptions(options)
  return run(chunks, resolved) as AsyncIterable<SievedChunk<T>>
}

function run(chunks: AsyncIterable<ChatCompletionChunk>, given: ResolvedAdapterOptions): AsyncGenerator<ChatCompletionChunk> {
  const held = new HeldError()
  const resolved = held.options(given)
  const turns = new Map<number, ChoiceTurn>()
  /** The last chunk seen: what the chunks made at the stream's end copy their `id`, `model`, `created` from. */
  let last: ChatCompletionChunk | undefined
  /** The pieces of the chunk being read: when a later choice of it fails, those already made still go out. */
  let pieces: Array<[number, Piece[]]> = []
  /** A chunk passed unread goes out after the text every open choice held when it came. */
  const passOn = (passed: Passed): Iterable<ChatCompletionChunk> => {
    const open = [...turns].filter(([, turn]) => !turn.finished)
    if (last === undefined || open.length === 0) return [passed as never]
    const wait = { left: open.length, passed }
    const made: Array<[number, Piece[]]> = []
    for (const [index, turn] of open) add(made, index, turn.behind(wait))
    return chunksOf(last, made, false)
  }
  return readThrough(chunks, {
    item: (chunk) => {
      if (chunk instanceof Passed) return passOn(chunk)
      record(chunk, 'chunk')
      last = chunk
      const choices = optionalArray(chunk.choices, 'choices') as ChatCompletionChunk.Choice[] | undefined
      // usage-only chunks (and anything else without choices) are not ours to change
      if (choices === undefined || choices.length === 0) return [chunk]
      pieces = []
      for (const [i, choice] of choices.entries()) {
        record(choice, `choices[${i}]`)
        // a server that sends one choice may leave its index out
        const index = choice.index === undefined ? 0 : indexOf(choice.index, `choices[${i}].index`)
        let turn = turns.get(index)
        if (turn === undefined) turns.set(index, (turn = new ChoiceTurn(resolved)))
        // a choice that already finished is no longer a turn: what follows it goes as it came
        if (turn.finished) pieces.push([index, [{ delta: optionalRecord(choice.delta, `choices[${i}].delta`) ?? {}, ...(choice.finish_reason != null ? { finish_reason: choice.finish_reason } : {}), extra: rest(choice) }]])
        else pieces.push([index, turn.take(choice, `choices[${i}]`)])
      }
      const made = pieces
      pieces = []
      return chunksOf(chunk, made, true)
    },
    held: () => held.take(),
    // the upstream broke off (its iterator threw, or a chunk of the wrong shape came): what the sieves held goes
    // out first, as text, so that nothing of the answer is lost; a stop of the adapter's own (a conflict, an
    // aborted call) is a refusal to send more, and sends nothing more
    broke: (error) => {
      if (last === undefined || isAdapterStop(error)) return null
      for (const [index, turn] of turns) if (!turn.finished) add(pieces, index, turn.abort())
      return chunksOf(last, pieces, false)
    },
    end: () => {
      if (last === undefined) return []
      const ends: Array<[number, Piece[]]> = []
      for (const [index, turn] of turns) if (!turn.finished) ends.push([index, turn.end()])
      return chunksOf(last, ends, false)
    },
  })
}

/** Adds a choice's pieces after those it already has in `pieces`. */
function add(pieces: Array<[number, Piece[]]>, index: number, more: Piece[]): void {
  if (more.length === 0) return
  const own = pieces.find(([i]) => i === index)
  if (own === undefined) pieces.push([index, more])
  else own[1].push(...more)
}

/** A choice's fields other than its delta, finish and index (`logprobs`, provider extensions). */
function rest(choice: ChatCompletionChunk.Choice): Record<string, unknown> {
  const { delta: _d, finish_reason: _f, index: _i, ...extra } = choice
  return extra
}

/**
 * The output chunks for one input chunk: the k-th holds the k-th piece of
 * each choice that has one, so every choice keeps its own order. `usage`
 * (when the input carried it) rides on the last; with `keepEmpty`, an input
 * whose pieces were all held still gives a chunk when it carried usage.
 */
function* chunksOf(chunk: ChatCompletionChunk, pieces: Array<[number, Piece[]]>, keepEmpty: boolean): Generator<ChatCompletionChunk> {
  const { choices: _c, usage, ...top } = chunk
  const count = Math.max(0, ...pieces.map(([, p]) => p.length))
  if (count === 0) {
    if (keepEmpty && usage != null) yield { ...top, choices: [], usage } as ChatCompletionChunk
    return
  }
  for (let k = 0; k < count; k++) {
    const choices: ChatCompletionChunk.Choice[] = []
    const passed: Passed[] = []
    for (const [index, list] of pieces) {
      const piece = list[k]
      if (piece === undefined) continue
      if (piece.passed !== undefined) passed.push(piece.passed)
      else choices.push({ ...piece.extra, index, delta: piece.delta, finish_reason: piece.finish_reason ?? null } as ChatCompletionChunk.Choice)
    }
    const out = { ...top, choices } as ChatCompletionChunk
    if (k === count - 1 && usage !== undefined && keepEmpty) out.usage = usage
    if (choices.length > 0 || out.usage !== undefined) yield out
    // a chunk passed unread goes out as it came (toolsieve/fetch writes it)
    for (const p of passed) yield p as never
  }
}
