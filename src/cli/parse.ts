/**
 * `toolsieve parse [FILE|-]`: an input's turns through the sieve, written as
 * events, OpenAI messages or cleaned text.
 */
import { createSieve, type SieveEvent, type SieveOptions } from '../index.js'
import { choiceFlag, exit, parseCommand, UsageError } from './args.js'
import { chunker, parseChunking, type Chunking } from './chunk.js'
import { eventsSink, openaiSink, Output, textSink, type TurnSink } from './output.js'
import { sieveFlags, sieveOptions } from './sieve-options.js'
import { openSource } from './source.js'
import { readInput, type InputFormat } from './turns.js'

export const parseHelp = `Usage: toolsieve parse [FILE|-] [options]

Reads plain text, JSONL (one turn per line) or a recorded SSE stream from
FILE (default: stdin) and writes what the sieve finds.

Options:
  --format events|openai|text  events: one JSON event per line, with "turn" for
                               JSONL and SSE inputs (default); openai: one
                               assistant message with tool_calls per turn;
                               text: the cleaned text (a JSON string per line
                               for JSONL and SSE inputs)
  --chunk input|token|N|whole  how each turn is pushed: as the input gives it
                               (SSE deltas, a JSONL turn whole, a text file in
                               64 KiB reads; default), token-sized pieces
                               (1-12 characters, seeded), N characters, or whole
  --input text|jsonl|sse       the input's format (default: detected from its
                               first non-blank line: data:/event:/id:/: is SSE,
                               a JSON object is JSONL, anything else text)
  --field PATH                 a JSONL turn's text field (a.b.0.c); default the
                               first of text, content, output,
                               choices[0].message.content
  --grammar FILE               a grammar config (JSON)
  --dialect NAME               a dialect pack to read (qwen3-coder, hermes, glm,
                               kimi-k2, …; see docs/reference/dialects.md)
  --model ID                   the dialect the model writes (dialectForModel):
                               Qwen/Qwen3-Coder-480B-A35B-Instruct, glm-4.6, …
  --tools FILE                 declared tools (an array, or a request with "tools")
  --strict                     diagnostics are errors; exit 1 if any
  --thinking                   each turn starts inside the reasoning (<think>)
  -h, --help                   this help

Exit: 0 ok, 1 diagnostics or unreadable lines under --strict, 2 usage.
`

const FORMATS = ['events', 'openai', 'text'] as const
const INPUTS = ['text', 'jsonl', 'sse'] as const

/** Counts for the summary and the exit code. */
interface Tally {
  errors: number
  unreadable: number
  diagnostics: Map<string, number>
}

/** Runs `parse`; resolves to the exit code. */
export async function parseCommandMain(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('parse', argv, {
    ...sieveFlags,
    format: { type: 'string' },
    chunk: { type: 'string' },
    input: { type: 'string' },
    field: { type: 'string' },
  })
  if (values.help === true) {
    process.stdout.write(parseHelp)
    return exit.ok
  }
  if (positionals.length > 1) throw new UsageError(`parse: one input at a time (got ${positionals.length}); bench takes several`)
  const file = positionals[0] ?? '-'
  if (file === '-' && process.stdin.isTTY === true) throw new UsageError('parse: no input: give a FILE or pipe one in (see --help)')
  const format = choiceFlag('parse', 'format', values.format, FORMATS, 'events')
  const chunking = parseChunking('parse', values.chunk ?? 'input')
  const inputFormat: InputFormat | undefined = values.input === undefined ? undefined : choiceFlag('parse', 'input', values.input, INPUTS, 'text')
  const options = sieveOptions('parse', values)

  const source = openSource('parse', file)
  const input = await readInput(source, { format: inputFormat, field: values.field })
  const out = new Output()
  const tally: Tally = { errors: 0, unreadable: 0, diagnostics: new Map() }
  const multi = input.format !== 'text'
  const sinkFor = (turn: number): TurnSink =>
    format === 'events' ? eventsSink(out, multi ? turn : undefined) : format === 'openai' ? openaiSink(out) : textSink(out, multi)

  if (input.format === 'text') {
    // The one turn is streamed as read: a plain-text input is never held whole (except by --chunk whole).
    await runTurn(options, chunking, 0, input.pieces, sinkFor(0), tally)
  } else {
    for await (const turn of input.turns()) {
      if (turn.kind === 'unreadable') {
        tally.unreadable++
        process.stderr.write(`toolsieve parse: ${turn.where}: ${turn.message}; skipped\n`)
        continue
      }
      await runTurn(options, chunking, turn.index, turn.pieces, sinkFor(turn.index), tally)
    }
  }
  await out.flush()
  if (format !== 'events' && tally.diagnostics.size > 0) {
    const codes = [...tally.diagnostics].map(([code, n]) => `${code} ${n}`).join(', ')
    process.stderr.write(`toolsieve parse: ${[...tally.diagnostics.values()].reduce((a, b) => a + b, 0)} diagnostics (${codes})\n`)
  }
  return options.strict === true && tally.errors + tally.unreadable > 0 ? exit.diagnostics : exit.ok
}

async function runTurn(
  options: SieveOptions,
  chunking: Chunking,
  index: number,
  pieces: Iterable<string> | AsyncIterable<string>,
  sink: TurnSink,
  tally: Tally,
): Promise<void> {
  const sieve = createSieve(options)
  const split = chunker(chunking, index)
  const give = async (events: SieveEvent[]): Promise<void> => {
    for (const e of events) {
      if (e.type === 'diagnostic' || e.type === 'error') {
        tally.diagnostics.set(e.code, (tally.diagnostics.get(e.code) ?? 0) + 1)
        if (e.type === 'error') tally.errors++
      }
      await sink.event(e)
    }
  }
  for await (const piece of pieces) for (const push of split.feed(piece)) await give(sieve.push(push))
  for (const push of split.flush()) await give(sieve.push(push))
  await give(sieve.end())
  await sink.end()
}
