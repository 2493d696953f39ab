/**
 * A repaired event stream: the upstream's body read event by event through
 * `sieveChatStream` or `sieveResponsesStream`, and written back as it goes
 * (a WHATWG `ReadableStream` that pulls one output event at a time, so
 * nothing waits for the whole body).
 *
 * What is not a chunk to repair keeps its place: comments (keep-alives) go
 * out when they arrive; data that is not a JSON object and chunks of a
 * shape the sieve does not read (a `null` choice, content as an array of
 * parts) go through the adapter unread, which writes them as they came
 * after the text its sieve held from before them. What ends the
 * input (`data: [DONE]`, an upstream error event, a cut connection) first
 * lets the sieve give out what it held, then goes out itself; anything
 * upstream sends after `[DONE]` or an error passes as it came. `[DONE]` is
 * the stream's end (a block it cut may still give its complete calls); an
 * error, a cut or an event over the limit is a break (`Sieve.abort`: what
 * was held is text, and no call comes from it). An error the caller's
 * `onDiagnostic` throws ends the output as a failed upstream body does: the
 * body fails with it, after what the sieve held.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { Passed } from '../adapters/index.js'
import { countedChatStream } from '../openai/chat-stream.js'
import { sieveResponsesStream } from '../openai/responses-stream.js'
import type { OpenAIAdapterOptions } from '../openai/chat-stream.js'
import { CallerError, described } from './caller-error.js'
import type { RouteKind } from './request.js'
import type { RepairReport } from './options.js'
import { readableChunk, readableResponsesEvent } from './shapes.js'
import { eventFrame, SseDecoder, SseLimitError, sseFrame, type SseEvent } from './sse.js'
import { errorBody, RescueCount } from './wire.js'

/** The upstream's events, read on demand; what the network cut is decoded across reads. */
class EventReader {
  private readonly decoder = new TextDecoder('utf-8')
  private readonly sse: SseDecoder
  private queue: SseEvent[] = []
  private head = 0
  private done = false

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    limit: number | undefined,
  ) {
    this.sse = new SseDecoder(limit)
  }

  /**
   * The next event; undefined at the end.
   *
   * @throws the body's read error, or {@link SseLimitError}.
   */
  async next(): Promise<SseEvent | undefined> {
    while (this.head === this.queue.length) {
      if (this.done) return undefined
      this.queue = []
      this.head = 0
      const { done, value } = await this.reader.read()
      if (done) {
        this.done = true
        this.sse.push(this.decoder.decode(), this.queue)
        this.sse.end(this.queue)
      } else this.sse.push(this.decoder.decode(value, { stream: true }), this.queue)
    }
    return this.queue[this.head++]
  }

  cancel(reason?: unknown): Promise<void> {
    this.done = true
    this.queue = []
    this.head = 0
    return this.reader.cancel(reason).catch(() => {})
  }
}

/** What stopped the upstream's events from going through the sieve, to be written once the sieve has given out what it held. */
type Stop =
  /** `data: [DONE]` or an upstream error event, written as it came; what follows passes as it comes. */
  | { kind: 'frame'; frame: string }
  /** A line or event over the limit: an error event, and the stream ends. */
  | { kind: 'limit'; frame: string }
  /** The body failed: the output fails with the same error. */
  | { kind: 'failed'; error: unknown }

/**
 * Thrown into the adapter when the upstream's events broke off (an error
 * event, a failed body, an event over the limit): the adapter gives out what
 * its sieve held as text, never as a call, and the stop is written after it.
 */
class UpstreamBrokeOff extends Error {}

/** True for an event the SDKs take as an error: named `error`, or data with an `error` member, or a Responses `error` event. */
function isUpstreamError(event: SseEvent & { kind: 'data' }, parsed: Record<string, unknown>, kind: RouteKind): boolean {
  return event.event === 'error' || (parsed.error !== undefined && parsed.error !== null) || (kind === 'responses' && parsed.type === 'error')
}

/**
 * The repaired body of an upstream event stream.
 *
 * @param limit most characters of one line or event (default 64 MiB)
 * @throws {ToolsieveError} `invalid-option` at once, before the body is
 *   touched, when the adapter refuses the options (a request's bad tool)
 */
export function repairEventStream(kind: RouteKind, body: ReadableStream<Uint8Array>, options: OpenAIAdapterOptions, report: RepairReport, onDone: () => { error: unknown } | undefined, limit?: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  /**
   * The caller's `onDiagnostic`, watched. What it throws ends the output
   * after what the sieve held, and the body fails with it as it fails with
   * an upstream body's error: an error event would carry a code of ours, or
   * a `code` of its own that reads as one of ours.
   */
  const caller = new CallerError()
  const adapterOptions = caller.options(options)
  // made first: the adapter checks its options when called, and the chunks are only read once the output is
  const input = chunks()
  const out = (kind === 'chat' ? countedChatStream(input as AsyncIterable<ChatCompletionChunk>, adapterOptions, () => void report.rescued++) : sieveResponsesStream(input as unknown as AsyncIterable<ResponseStreamEvent>, adapterOptions)) as AsyncIterable<Record<string, unknown>>
  const events = new EventReader(body.getReader(), limit)
  /** A Responses stream's rescued calls (a chat stream's are counted by its adapter). */
  const count = new RescueCount()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let stop: Stop | undefined
  /** The name of the upstream event the sieve's output comes from: chat chunks keep it. */
  let name: string | undefined
  /** Upstream named its events (OpenAI's Responses stream does): ours are named after their type too. */
  let named = false
  /** Chunks of a shape the sieve does not read, passed as they came. */
  let unread = 0
  const write = (text: string): void => controller.enqueue(encoder.encode(text))

  /** The upstream's chunks for the sieve; what is not one goes as it came, {@link Passed} through the adapter to keep its place. */
  async function* chunks(): AsyncGenerator<Record<string, unknown> | Passed> {
    for (;;) {
      let event: SseEvent | undefined
      try {
        event = await events.next()
      } catch (error) {
        stop = error instanceof SseLimitError ? { kind: 'limit', frame: errorFrame(kind, 'event-too-large', error.message) } : { kind: 'failed', error }
        throw new UpstreamBrokeOff()
      }
      if (event === undefined) return
      if (event.kind === 'comment') {
        write(eventFrame(event))
        continue
      }
      if (event.data.trim() === '[DONE]') {
        stop = { kind: 'frame', frame: eventFrame(event) }
        return
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(event.data)
      } catch {
        parsed = undefined
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        yield new Passed(eventFrame(event))
        continue
      }
      const chunk = parsed as Record<string, unknown>
      if (isUpstreamError(event, chunk, kind)) {
        stop = { kind: 'frame', frame: eventFrame(event) }
        throw new UpstreamBrokeOff()
      }
      if (!(kind === 'chat' ? readableChunk(chunk) : readableResponsesEvent(chunk))) {
        // the sieve would refuse it (invalid-chunk) and end the answer: it is the upstream's, so it goes on as it came
        unread++
        yield new Passed(eventFrame(event))
        continue
      }
      name = event.event
      if (name !== undefined) named = true
      if (kind === 'responses') count.upstream(chunk)
      yield chunk
    }
  }

  async function* frames(): AsyncGenerator<string> {
    try {
      for await (const chunk of out) {
        if (chunk instanceof Passed) {
          yield chunk.value
          continue
        }
        if (kind === 'responses') report.rescued += count.sent(chunk)
        const event = kind === 'responses' ? (named && typeof chunk.type === 'string' ? chunk.type : undefined) : name
        yield sseFrame(JSON.stringify(chunk), event)
      }
    } catch (error) {
      if (error instanceof UpstreamBrokeOff) return yield* stopped()
      if (caller.threw(error)) {
        report.note = `stopped: onDiagnostic threw: ${described(error)}`
        await events.cancel(error)
        throw error
      }
      // native-conflict, call-aborted or invalid-chunk (after what the sieve held): the stream stops rather than
      // send a call that could run twice or half
      const code = (error as { code?: unknown }).code
      report.note = `stopped: ${typeof code === 'string' ? code : (error as Error).message}`
      yield errorFrame(kind, typeof code === 'string' ? code : 'repair-failed', (error as Error).message)
      await events.cancel(error)
      return
    }
    yield* stopped()
  }

  /** What stopped the input, once the adapter gave out what its sieve held: written, or the failure thrown. */
  async function* stopped(): AsyncGenerator<string> {
    const why = stop
    if (why?.kind === 'failed') {
      report.note = `upstream failed: ${described(why.error)}`
      throw why.error
    }
    if (why === undefined) return
    yield why.frame
    if (why.kind === 'limit') {
      report.note = 'stopped: event-too-large'
      await events.cancel()
      return
    }
    for (;;) {
      let event: SseEvent | undefined
      try {
        event = await events.next()
      } catch (error) {
        if (!(error instanceof SseLimitError)) throw error
        report.note = 'stopped: event-too-large'
        yield errorFrame(kind, 'event-too-large', error.message)
        await events.cancel()
        return
      }
      if (event === undefined) return
      yield eventFrame(event)
    }
  }

  const iterator = frames()
  let finished = false
  /** The report, given once; what the caller's `onReport` threw, boxed. */
  const finish = (): { error: unknown } | undefined => {
    if (finished) return undefined
    finished = true
    if (unread > 0) {
      const why = `${unread} chunk${unread === 1 ? '' : 's'} passed as ${unread === 1 ? 'it' : 'they'} came (not a shape the repair reads)`
      report.note = report.note === undefined ? why : `${report.note}, ${why}`
    }
    return onDone()
  }
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    async pull(c) {
      let next: IteratorResult<string>
      try {
        next = await iterator.next()
      } catch (error) {
        // the body fails with its first error: onReport's reaction to it does not replace it
        finish()
        return c.error(error)
      }
      if (!next.done) return c.enqueue(encoder.encode(next.value))
      const threw = finish()
      if (threw === undefined) c.close()
      else c.error(threw.error)
    },
    async cancel(reason) {
      report.note ??= 'cancelled by the reader'
      // the read in flight ends first, so that the generator can be closed
      await events.cancel(reason)
      await iterator.return(undefined).catch(() => {})
      // the reader is done with the body: cancel() is where the caller's error can still reach it
      const threw = finish()
      if (threw !== undefined) throw threw.error
    },
  })
}

/**
 * An error event in OpenAI's shape, as OpenAI sends one on each route (chat:
 * an unnamed event whose data has `error`; Responses: an `error` event of
 * type `error`): the SDKs throw it as an API error.
 */
export function errorFrame(kind: RouteKind, code: string, message: string): string {
  const body = errorBody(code, message)
  return kind === 'responses' ? sseFrame(JSON.stringify({ type: 'error', code, message, param: null, ...body }), 'error') : sseFrame(JSON.stringify(body))
}
