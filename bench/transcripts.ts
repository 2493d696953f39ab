/**
 * Seeded transcripts of assistant turns for `npm run bench`, shared with
 * `test/bench-transcripts.test.ts`: a JSONL transcript (one assistant turn per
 * line) and a manifest of the calls each turn holds.
 *
 * A turn is a list of segments: prose in English and Chinese (with inline
 * code spans, some mentioning tags), headings, lists, ``` and ~~~ fences (some
 * holding tool-call examples that must stay text), and real blocks in every
 * default-grammar spelling, the canonical `<｜DSML｜tool_calls>` most often.
 * Parameters run from short paths to rare 20–200 KB file contents.
 *
 * Segments keep the calls as data, so the same turn can be written in another
 * parser's format (`renderTurn` with a block renderer): the peer benchmark
 * streams the same turns through `@ai-sdk-tool/parser`'s protocols.
 *
 * What the generator promises is the list at the top of `generate.ts`; every
 * value is an unambiguous string (paths, prose, code in CDATA).
 *
 * As a command: `tsx bench/transcripts.ts --mb 20 --seed 1 --out DIR` writes
 * `DIR/transcript.jsonl` and `DIR/manifest.jsonl` (default DIR: the OS temp folder).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  blockSpec,
  fenceSpec,
  heading,
  int,
  list,
  manifestOf,
  mulberry32,
  paragraph,
  renderBlock,
  renderFence,
} from './generate.js'
import type { BlockSpec, FenceSpec, ManifestCall, Rng } from './generate.js'

export type Segment =
  | { kind: 'text'; text: string }
  /** A fenced code block; an example inside it is text, never a call. */
  | { kind: 'fence'; fence: FenceSpec }
  /** A real tool-call block. */
  | { kind: 'block'; block: BlockSpec }

export interface Turn {
  id: number
  segments: Segment[]
  /** The turn as the model wrote it (default-grammar spellings). */
  text: string
  /** The calls a correct sieve finds in `text`, in order. */
  calls: ManifestCall[]
}

export interface TurnsOptions {
  seed: number
  /** Target size of all turns' `text`, in UTF-8 bytes; generation stops at the first turn past it. */
  size: number
  /** Probability that a `content` parameter is a 20–200 KB file. Default 0.012 (roughly one turn in 450 writes one). */
  big?: number
}

/** How a turn is written: real blocks, and the examples inside fences. */
export interface TurnFormat {
  block(block: BlockSpec): string
  /** Default: the example's own spelling (`renderBlock`), whatever the format. */
  example?(block: BlockSpec): string
}

/** The default grammar's spellings, as generated. */
export const MODEL_FORMAT: TurnFormat = { block: renderBlock }

const CLOSERS = [
  'I will wait for the result before going on.',
  '等结果出来后我再继续。',
  'Once that returns I will summarise the change.',
]

function turnSegments(rng: Rng, big: number): Segment[] {
  const segments: Segment[] = []
  const text = (t: string): void => {
    segments.push({ kind: 'text', text: t })
  }
  text(rng() < 0.15 ? heading(rng) : paragraph(rng))
  const body = int(rng, 0, 4)
  for (let i = 0; i < body; i++) {
    const r = rng()
    if (r < 0.4) text(paragraph(rng))
    else if (r < 0.5) text(heading(rng))
    else if (r < 0.65) text(list(rng))
    else segments.push({ kind: 'fence', fence: fenceSpec(rng) })
  }
  if (rng() < 0.65) {
    const blocks = rng() < 0.85 ? 1 : 2
    for (let i = 0; i < blocks; i++) {
      if (i > 0) text(paragraph(rng))
      segments.push({ kind: 'block', block: blockSpec(rng, { big }) })
    }
    if (rng() < 0.25) text(CLOSERS[int(rng, 0, CLOSERS.length - 1)]!)
  }
  return segments
}

/** Write a turn's segments in a format; segments are separated by a blank line. */
export function renderTurn(segments: readonly Segment[], format: TurnFormat = MODEL_FORMAT): string {
  const example = format.example ?? renderBlock
  const parts: string[] = []
  for (const s of segments) {
    if (s.kind === 'text') parts.push(s.text)
    else if (s.kind === 'fence') parts.push(renderFence(s.fence, example))
    else parts.push(format.block(s.block))
  }
  return parts.join('\n\n')
}

/** The calls of a turn's real blocks, in order. */
export function callsOf(segments: readonly Segment[]): ManifestCall[] {
  const calls: ManifestCall[] = []
  for (const s of segments) if (s.kind === 'block') calls.push(...manifestOf(s.block.calls))
  return calls
}

/** Seeded assistant turns adding up to `size` UTF-8 bytes. */
export function generateTurns({ seed, size, big = 0.012 }: TurnsOptions): Turn[] {
  const rng = mulberry32(seed)
  const turns: Turn[] = []
  let bytes = 0
  while (bytes < size) {
    const segments = turnSegments(rng, big)
    const text = renderTurn(segments)
    turns.push({ id: turns.length, segments, text, calls: callsOf(segments) })
    bytes += Buffer.byteLength(text, 'utf8')
  }
  return turns
}

/** One `{"id","text"}` line per turn. */
export function transcriptJsonl(turns: readonly Turn[]): string {
  return turns.map((t) => JSON.stringify({ id: t.id, text: t.text })).join('\n') + '\n'
}

/** One `{"id","calls"}` line per turn. */
export function manifestJsonl(turns: readonly Turn[]): string {
  return turns.map((t) => JSON.stringify({ id: t.id, calls: t.calls })).join('\n') + '\n'
}

/** Parse JSONL into one object per non-empty line. */
export function parseJsonl<T>(jsonl: string): T[] {
  return jsonl
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T)
}

function main(): void {
  const { values } = parseArgs({
    options: {
      mb: { type: 'string', default: '20' },
      seed: { type: 'string', default: '20240601' },
      out: { type: 'string', default: join(tmpdir(), 'toolsieve-transcript') },
    },
  })
  const turns = generateTurns({ seed: Number(values.seed), size: Number(values.mb) * 1024 * 1024 })
  mkdirSync(values.out, { recursive: true })
  writeFileSync(join(values.out, 'transcript.jsonl'), transcriptJsonl(turns))
  writeFileSync(join(values.out, 'manifest.jsonl'), manifestJsonl(turns))
  const calls = turns.reduce((n, t) => n + t.calls.length, 0)
  console.log(`${turns.length} turns, ${calls} calls -> ${values.out}/transcript.jsonl, manifest.jsonl`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
