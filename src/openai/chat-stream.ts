/**
 * `sieveChatStream`: a chat completion stream with the tool calls its text
 * held rescued as `delta.tool_calls`, and its content cleaned of the markup.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { HeldError, index as indexOf, isAdapterStop, Lanes, Passed, optionalArray, record, resolveAdapterOptions, type AdapterOptions, type ResolvedAdapterOptions } from '../adapters/index.js'
import { ChoiceTurn, type Piece, type SievedDelta, type Waiting } from './chat-choice.js'
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
 *   a stream that ends without a finish reason is flushed. After a choice's
 *   finish, what upstream still sends for it goes out in its place: content
 *   and reasoning raw (never read for calls), usage, logprobs and empty
 *   deltas as they came, a native call as before the finish (an index apart
 *   from rescued ones, the conflict check), a repeated finish as the one
 *   the turn gave.
 * - Native `delta.tool_calls` pass through with indexes apart from rescued
 *   ones; a legacy `delta.function_call` becomes a tool call. A turn with
 *   native and rescued calls throws `native-conflict` (default), or with
 *   `onConflict: 'prefer-native'` its rescued calls are dropped.
 * - What passes through unsieved (a refusal, upstream reasoning, native
 *   calls, a chunk with no choices; the role and null fields aside) keeps
 *   its place: it goes out after the text the sieve held from before it.
 *   Such a chunk, or one passed unread, stands in every open choice's
 *   text: it goes out once each has given out what it held from before it,
 *   and what a choice makes after it waits behind it until then (a few
 *   dozen pieces at most), as does a choice that first comes after it, or
 *   what a finished choice still sends.
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
 *   objects with an index. Before `invalid-chunk`, or an error
 *   the upstream iterator throws, the text the sieves held goes out as
 *   `content` (and `reasoning_content`), never as a call; the rescued calls
 *   `prefer-native` held go out as their markup, in `content`, after the
 *   text that followed them.
 */
export function sieveChatStream<T extends ChatCompletionChunk>(chunks: AsyncIterable<T>, options?: OpenAIAdapterOptions | null): AsyncIterable<SievedChunk<T>> {
  return countedChatStream(chunks, options, () => {})
}

/**
 * {@link sieveChatStream}, telling `rescued` of each rescued call as its
 * first chunk is made (after what it waited for, if anything). Not public: toolsieve/fetch counts the calls it
 * rescued so, since a rescued call's id can be the model's own and equal a
 * native call's (Kimi's `functions.get_weather:0`, which vLLM's parser
 * gives native calls too), so ids cannot tell the two apart.
 */
export function countedChatStream<T extends ChatCompletionChunk>(chunks: AsyncIterable<T>, options: OpenAIAdapterOptions | null | undefined, rescued: () => void): AsyncIterable<SievedChunk<T>> {
  const resolved = resolveAdapterOptions(options)
  return run(chunks, resolved, rescued) as AsyncIterable<SievedChunk<T>>
}

function run(chunks: AsyncIterable<ChatCompletionChunk>, given: ResolvedAdapterOptions, rescued: () => void): AsyncGenerator<ChatCompletionChunk> {
  const held = new HeldError()
  const resolved = held.options(given)
  const turns = new Map<number, ChoiceTurn>()
  /** The last chunk seen: what the chunks made at the stream's end copy their `id`, `model`, `created` from. */
  let last: ChatCompletionChunk | undefined
  /** What the chunk being read made, in order, until taken: when a later choice of it fails, what is already made still goes out. */
  let made: Made[] = []
  /** Items passed through unread, each between what every open choice sent before it and what it sends after it. */
  const lanes = new Lanes<number, Waiting>((item) => void made.push({ item }))
  /** A choice's pieces: written in its lane, a piece at an item's mark as that lane reaching it. */
  const write = (index: number, pieces: Piece[]): void => {
    for (const piece of pieces) {
      if (piece.barrier !== undefined) lanes.reach(index, piece.barrier)
      else
        lanes.write(index, () => {
          made.push({ index, piece })
          if (piece.rescued === true) rescued()
        })
    }
  }
  /** The chunks of what was made since the last take (see {@link chunksOf}). */
  const take = (chunk: ChatCompletionChunk, keepEmpty: boolean): ChatCompletionChunk[] => {
    const out = chunksOf(chunk, made, keepEmpty)
    made = []
    return out
  }
  /**
   * An item passed unread goes out after the text every open choice held
   * when it came; a finished choice holds none, but what it still sends
   * after its finish goes after the item too.
   */
  const passOn = (item: Waiting): void => {
    const wait = lanes.wait(turns.size, item)
    for (const [index, turn] of turns) {
      if (turn.finished) lanes.reach(index, wait)
      else write(index, turn.behind(wait))
    }
  }
  return readThrough(chunks, {
    item: (chunk) => {
      if (chunk instanceof Passed) {
        passOn(chunk)
        // before any chunk no choice is open: the item alone goes out, and needs no chunk's fields
        return take(last ?? ({ choices: [] } as unknown as ChatCompletionChunk), false)
      }
      record(chunk, 'chunk')
      last = chunk
      const choices = optionalArray(chunk.choices, 'choices') as ChatCompletionChunk.Choice[] | undefined
      // usage-only chunks (and anything else without choices) are not ours to change, but keep their place
      if (choices === undefined || choices.length === 0) {
        passOn(chunk)
        return take(chunk, false)
      }
      for (const [i, choice] of choices.entries()) {
        record(choice, `choices[${i}]`)
        // a server that sends one choice may leave its index out
        const index = choice.index === undefined ? 0 : indexOf(choice.index, `choices[${i}].index`)
        let turn = turns.get(index)
        if (turn === undefined) {
          turns.set(index, (turn = new ChoiceTurn(resolved)))
          // a choice that first comes now is after every item passed before it, even one still waiting for another choice
          lanes.join(index)
        }
        write(index, turn.take(choice, `choices[${i}]`))
      }
      return take(chunk, true)
    },
    held: () => held.take(),
    // the upstream broke off (its iterator threw, or a chunk of the wrong shape came): what the sieves held goes
    // out first, as text, so that nothing of the answer is lost; a stop of the adapter's own (a conflict, an
    // aborted call) is a refusal to send more, and sends nothing more
    broke: (error) => {
      if (last === undefined || isAdapterStop(error)) return null
      for (const [index, turn] of turns) if (!turn.finished) write(index, turn.abort())
      return take(last, false)
    },
    end: () => {
      if (last === undefined) return []
      for (const [index, turn] of turns) if (!turn.finished) write(index, turn.end())
      return take(last, false)
    },
  })
}

/** What went out of one input, in order: a choice's piece, or an item passed through unread. */
type Made = { index: number; piece: Piece } | { item: Waiting }

/**
 * The output chunks for one input chunk. Between two items passed through,
 * the k-th chunk holds the k-th piece of each choice that has one, so every
 * choice keeps its own order; an item goes out as it came, where it stands.
 * `usage` (when the input carried it) rides on the last chunk after the
 * last item; with `keepEmpty`, an input whose pieces were all held still
 * gives a chunk when it carried usage.
 */
function chunksOf(chunk: ChatCompletionChunk, made: readonly Made[], keepEmpty: boolean): ChatCompletionChunk[] {
  const { choices: _c, usage, ...top } = chunk
  const out: ChatCompletionChunk[] = []
  /** The choices' pieces since the last item, by choice in the order they first came. */
  let run = new Map<number, Piece[]>()
  const close = (): void => {
    const count = Math.max(0, ...[...run.values()].map((p) => p.length))
    for (let k = 0; k < count; k++) {
      const choices: ChatCompletionChunk.Choice[] = []
      for (const [index, list] of run) {
        const piece = list[k]
        if (piece !== undefined) choices.push({ ...piece.extra, index, delta: piece.delta, finish_reason: piece.finish_reason ?? null } as ChatCompletionChunk.Choice)
      }
      out.push({ ...top, choices } as ChatCompletionChunk)
    }
    run = new Map()
  }
  let afterItem = 0
  for (const m of made) {
    if ('item' in m) {
      close()
      // an item passed unread goes out as it came (toolsieve/fetch writes a Passed one)
      out.push(m.item as ChatCompletionChunk)
      afterItem = out.length
      continue
    }
    const list = run.get(m.index)
    if (list === undefined) run.set(m.index, [m.piece])
    else list.push(m.piece)
  }
  close()
  if (keepEmpty && usage !== undefined) {
    if (out.length > afterItem) out[out.length - 1]!.usage = usage
    else if (usage !== null) out.push({ ...top, choices: [], usage } as ChatCompletionChunk)
  }
  return out
}
