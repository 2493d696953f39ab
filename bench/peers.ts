/**
 * The peer: `@ai-sdk-tool/parser` (a devDependency, exact-pinned), the AI SDK
 * tool-call middleware, through two of its protocols:
 *
 * - `hermes`: `<tool_call>{"name":…,"arguments":{…}}</tool_call>`;
 * - `xml` (its morph-XML protocol): `<read_file><path>…</path></read_file>`.
 *
 * Neither knows DeepSeek DSML, and neither has a Markdown guard: a call
 * written in its own format inside a code fence is taken as a real call.
 * The benchmark writes each turn's real blocks in the peer's own format (with
 * the peer's own `formatToolCall`, so the peer can read what it gets) and
 * leaves everything else, including fenced DSML examples, as it is.
 *
 * How it is driven: the middleware runs each protocol's stream parser as a
 * WHATWG `TransformStream` of AI SDK stream parts. To time the parser and not
 * the stream machinery, the transformer object is captured when the protocol
 * builds its stream, and its `transform()` is called directly, synchronously,
 * with one `text-delta` part per chunk, then a `finish` part and `flush()`.
 * That is the cheapest way to run it, so it favours the peer. The hermes
 * parser schedules a progress timer per chunk inside a call; those fire after
 * the clock stops (the caller drains them with `drainTimers`).
 */
import { hermesProtocol, morphXmlProtocol } from '@ai-sdk-tool/parser'
import type { TCMProtocol } from '@ai-sdk-tool/parser'
import { TOOLS } from './corpus.js'
import { inputOf } from './generate.js'
import type { BlockSpec, ManifestCall } from './generate.js'
import type { TurnFormat } from './transcripts.js'

/** The subset of AI SDK stream parts the harness reads. */
interface Part {
  type: string
  delta?: string
  toolName?: string
  input?: string
}

interface Controller {
  enqueue(part: Part): void
}

interface Transformer {
  transform(part: Part, controller: Controller): void
  flush?(controller: Controller): void
}

/** One streamed turn through a peer: feed chunks, then `end()`. */
export interface PeerParser {
  push(chunk: string): void
  end(): void
  /** Calls found so far; `input` is the parsed JSON of the part's `input`. */
  readonly calls: ManifestCall[]
  /** Characters of text the peer passed through. */
  readonly textChars: number
}

export interface Peer {
  id: 'hermes' | 'xml'
  label: string
  /** Real blocks written in the peer's format; fenced examples kept as generated. */
  format: TurnFormat
  /** The same, with fenced examples also written in the peer's format. */
  formatWithExamples: TurnFormat
  create(): PeerParser
}

/** The tools every transcript uses, as AI SDK function tools (every parameter a string). */
const FUNCTION_TOOLS = TOOLS.map(([name, keys]) => ({
  type: 'function' as const,
  name,
  description: `The ${name} tool.`,
  inputSchema: {
    type: 'object' as const,
    properties: Object.fromEntries(keys.map((k) => [k, { type: 'string' as const }])),
    required: keys,
    additionalProperties: false,
  },
}))

/** Build the protocol's stream parser and keep its transformer instead of the stream. */
function captureTransformer(protocol: TCMProtocol): Transformer {
  const Real = globalThis.TransformStream
  let captured: Transformer | undefined
  class Capture {
    constructor(transformer: Transformer) {
      captured = transformer
    }
  }
  globalThis.TransformStream = Capture as unknown as typeof TransformStream
  try {
    protocol.createStreamParser({ tools: FUNCTION_TOOLS as never })
  } finally {
    globalThis.TransformStream = Real
  }
  if (captured === undefined) throw new Error('the peer built no TransformStream')
  return captured
}

/** A protocol's stream parser, driven through its captured transformer (see above). */
export function parser(protocol: TCMProtocol): PeerParser {
  const transformer = captureTransformer(protocol)
  const calls: ManifestCall[] = []
  let textChars = 0
  const controller: Controller = {
    enqueue(part) {
      if (part.type === 'text-delta') textChars += part.delta?.length ?? 0
      else if (part.type === 'tool-call') {
        calls.push({ name: part.toolName ?? '', input: JSON.parse(part.input ?? '{}') as Record<string, string> })
      }
    },
  }
  return {
    push(chunk) {
      transformer.transform({ type: 'text-delta', delta: chunk }, controller)
    },
    end() {
      transformer.transform({ type: 'finish' }, controller)
      transformer.flush?.(controller)
    },
    calls,
    get textChars() {
      return textChars
    },
  }
}

function formatOf(protocol: TCMProtocol): (block: BlockSpec) => string {
  return (block) =>
    block.calls
      .map((call) =>
        protocol.formatToolCall({
          type: 'tool-call',
          toolCallId: 'call_0',
          toolName: call.name,
          input: JSON.stringify(inputOf(call)),
        }),
      )
      .join('\n')
}

function peer(id: Peer['id'], label: string, make: () => TCMProtocol): Peer {
  const render = formatOf(make())
  return {
    id,
    label,
    format: { block: render },
    formatWithExamples: { block: render, example: render },
    create: () => parser(make()),
  }
}

export const PEERS: readonly Peer[] = [
  peer('hermes', '@ai-sdk-tool/parser hermes', () => hermesProtocol()),
  peer('xml', '@ai-sdk-tool/parser morph-xml', () => morphXmlProtocol()),
]

/** Let the peer's deferred timers run (outside any timed section). */
export function drainTimers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5))
}
