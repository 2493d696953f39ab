/**
 * `toolsieve/stream`: the sieve as a WHATWG `TransformStream` and over an
 * async iterable, for code that already speaks streams. Only the streams
 * global is used, no `node:` module, so it runs wherever WHATWG streams do
 * (Node 18+, Deno, Bun, browsers, edge runtimes).
 */
import { createSieve } from './sieve/create.js'
import { ToolsieveError } from './errors.js'
import { readThrough } from './sieve/read-through.js'
import type { SieveEvent, SieveOptions } from './types.js'

/**
 * A `TransformStream` of model text in, {@link SieveEvent}s out: one sieve
 * per stream, pushed each chunk, ended once when the writable side closes.
 *
 * ```ts
 * const events = textStream.pipeThrough(new SieveStream({ tools }))
 * for await (const event of events) if (event.type === 'tool-call') run(event)
 * ```
 *
 * The options are the sieve's and are checked here: a bad one throws a
 * `ToolsieveError` from the constructor. A chunk that is not a string
 * (`null` and `undefined` add nothing) errors the stream with `invalid-chunk`
 * (decode bytes first, e.g. with `TextDecoderStream`). A cancelled or
 * aborted stream never flushes: what the sieve held is dropped with it.
 * Backpressure is the stream's own: a chunk is transformed when the readable
 * side wants more.
 */
export class SieveStream extends TransformStream<string, SieveEvent> {
  constructor(options?: SieveOptions | null) {
    // created before super() so that a bad option throws from `new`, not at the first chunk
    const sieve = createSieve(options)
    super({
      transform(chunk, controller) {
        // a throw here errors both sides with the ToolsieveError, which is what the reader sees
        for (const event of sieve.push(chunk)) controller.enqueue(event)
      },
      // flush runs once, on close only (not after an error or a cancel), so end() is never called twice
      flush(controller) {
        for (const event of sieve.end()) controller.enqueue(event)
      },
    })
  }
}

/**
 * The sieve over an async iterable of text (an SDK's text stream, a
 * `ReadableStream<string>`, an async generator): the events of each chunk,
 * then those of `end()`.
 *
 * ```ts
 * for await (const event of sieveIterable(textChunks, { tools })) {
 *   if (event.type === 'text') write(event.text)
 *   else if (event.type === 'tool-call') await run(event.name, event.input)
 * }
 * ```
 *
 * The options and the source are checked when it is called (a bad one
 * throws a `ToolsieveError`, `invalid-option`), not at the first `next()`.
 * Leaving the loop early (`break`, `return()`, a throw) closes the source
 * (its `return()` is called). A non-string chunk throws `invalid-chunk` from
 * the iteration, after closing the source. When the source throws, or gives
 * a chunk that is not a string, what the sieve held comes first, as text
 * and reasoning and never as a call (`Sieve.abort`), then the error. The
 * result can be iterated once.
 */
export function sieveIterable(source: AsyncIterable<string | null | undefined> | Iterable<string | null | undefined>, options?: SieveOptions | null): AsyncIterableIterator<SieveEvent> {
  const iterable = source as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined
  if (iterable === null || typeof iterable !== 'object' || (typeof iterable[Symbol.asyncIterator] !== 'function' && typeof iterable[Symbol.iterator] !== 'function')) {
    throw new ToolsieveError('invalid-option', 'source: must be an async iterable of strings', 'source')
  }
  const sieve = createSieve(options)
  return run(source, sieve)
}

function run(source: AsyncIterable<string | null | undefined> | Iterable<string | null | undefined>, sieve: ReturnType<typeof createSieve>): AsyncGenerator<SieveEvent, void, undefined> {
  return readThrough(source, {
    // a chunk that is no text throws invalid-chunk: a break like the source's own throw
    item: (chunk) => sieve.push(chunk),
    // what the sieve held goes out first, never as a call
    broke: () => sieve.abort(),
    end: () => sieve.end(),
  })
}
