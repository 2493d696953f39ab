/**
 * Seeded generators shared by the benchmarks and `test/bench-fixtures.test.ts`,
 * so a benchmark never times a path the tests have not checked.
 *
 * Everything here is deterministic for a given seed: same seed, same text,
 * same manifest; `chunks.ts` likewise gives the same chunking.
 *
 * What the transcript promises (and the fixture test checks):
 * - every real block sits at the start of a line, after a blank line or at the
 *   start of the text, and never in a paragraph with an unmatched backtick;
 * - every backtick run in prose is closed in the same paragraph;
 * - plain parameter values hold no `<`, `>`, `&` or backtick, and never look
 *   like a number, boolean, null or JSON (all values are strings for now);
 * - CDATA bodies are kept verbatim and never contain `]]>`;
 * - tool-call examples inside fences and code spans are text, not calls.
 */
import { CODE_LINES, DIRS, EN, FILES, SPANS, TOOLS, WORDS, ZH } from './corpus.js'
import { spelling } from './spellings.js'
import type { Spelling } from './spellings.js'

/** One expected call, in stream order. */
export interface ManifestCall {
  name: string
  input: Record<string, string>
}

export interface Transcript {
  text: string
  /** The calls a correct sieve finds, in order. */
  calls: ManifestCall[]
  /** Real tool-call blocks in `text`. */
  blocks: number
}

/** mulberry32: a tiny 32-bit PRNG, good enough for fixtures (the command line's chunkings use the same one). */
import { mulberry32 } from '../src/cli/chunk.js'
export { mulberry32 }

export type Rng = () => number

export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1))
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

// ---------------------------------------------------------------------------
// Prose

function sentence(rng: Rng): string {
  const zh = rng() < 0.3
  let s = zh ? pick(rng, ZH) : pick(rng, EN)
  if (rng() < 0.35) s += (zh ? '参见 ' : ' See ') + pick(rng, SPANS) + (zh ? '。' : '.')
  return s
}

export function paragraph(rng: Rng): string {
  const n = int(rng, 1, 5)
  let out = ''
  for (let i = 0; i < n; i++) {
    const s = sentence(rng)
    // Chinese runs on without a space; anything next to English gets one.
    const cjk = /[。：，]$/.test(out) && /^[\u4e00-\u9fff]/.test(s)
    out += out === '' || cjk ? s : ` ${s}`
  }
  return out
}

export function list(rng: Rng): string {
  const n = int(rng, 2, 4)
  const lines: string[] = []
  for (let i = 0; i < n; i++) lines.push(`${rng() < 0.5 ? '-' : `${i + 1}.`} ${sentence(rng)}`)
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// Values

function path(rng: Rng): string {
  return `${pick(rng, DIRS)}/${pick(rng, FILES)}`
}

/** A plain value: no markup characters, no leading/trailing space, never number/boolean/JSON-like. */
export function plainValue(rng: Rng, key: string): string {
  switch (key) {
    case 'path':
    case 'file_path':
      return path(rng)
    case 'command':
      return pick(rng, ['npm test', 'git status --short', 'ls -la src', 'npx tsc --noEmit', 'pytest -q tests'])
    case 'query':
      return rng() < 0.5 ? `how to ${pick(rng, WORDS)} a ${pick(rng, WORDS)}` : `如何配置 ${pick(rng, WORDS)} 缓存`
    case 'pattern':
      return `${pick(rng, WORDS)}\\(.*\\)`
    default:
      return `${pick(rng, WORDS)} ${pick(rng, WORDS)}`
  }
}

/** File contents for CDATA: verbatim, may hold markup, never `]]>`. */
export function fileContent(rng: Rng, targetChars: number): string {
  const lines: string[] = []
  let n = 0
  while (n < targetChars) {
    const line = pick(rng, CODE_LINES)
    lines.push(line)
    n += line.length + 1
  }
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// Blocks

/** One parameter as written: its value, and how the markup wraps it. */
export interface ParamSpec {
  key: string
  value: string
  /** `<![CDATA[value]]>` (verbatim) rather than plain text; never with `stringAttr`, whose value is raw. */
  cdata: boolean
  /**
   * Plain value written on its own line (`\nvalue\n`); trimming gives the
   * value back. Never with `stringAttr`: `string="true"` text is kept exactly.
   */
  padded: boolean
  /** Carries `string="true"` (DSML spellings only). */
  stringAttr: boolean
}

/** One call: the data, independent of any spelling or format. */
export interface CallSpec {
  name: string
  params: ParamSpec[]
}

/** One real block (or one example of a block) and its spelling. */
export interface BlockSpec {
  spelling: Spelling
  calls: CallSpec[]
}

/** How big a `content` value gets; `big` adds the rare 20–200 KB file write. */
export interface ContentSizes {
  /** Probability of a multi-KB `content` (2–8 KB). Default 0.25. */
  medium?: number
  /** Probability of a 20–200 KB `content`. Default 0 (the original transcript has none). */
  big?: number
}

export function callSpec(rng: Rng, isDsml: boolean, sizes: ContentSizes = {}): CallSpec {
  const [name, keys] = pick(rng, TOOLS)
  const params: ParamSpec[] = []
  for (const key of keys) {
    let value: string
    let cdata = false
    let padded = false
    if (key === 'content' || key === 'old_string' || key === 'new_string') {
      // Mostly short snippets, occasionally a multi-KB file, rarely a big one.
      let size: number
      if (key === 'content' && sizes.big !== undefined && sizes.big > 0 && rng() < sizes.big) size = int(rng, 20_000, 200_000)
      else size = key === 'content' && rng() < (sizes.medium ?? 0.25) ? int(rng, 2000, 8000) : int(rng, 20, 300)
      value = fileContent(rng, size)
      cdata = true
    } else {
      value = plainValue(rng, key)
      // Parameter text is trimmed, so surrounding newlines are not part of the value.
      padded = rng() < 0.2
    }
    const stringAttr = isDsml && rng() < 0.7
    // `string="true"` is DeepSeek's own form: the exact text between the tags, written raw (no CDATA, no padding)
    if (stringAttr) {
      padded = false
      cdata = false
    }
    params.push({ key, value, cdata, padded, stringAttr })
  }
  return { name, params }
}

export function blockSpec(rng: Rng, sizes: ContentSizes = {}): BlockSpec {
  const sp = spelling(rng)
  const n = rng() < 0.7 ? 1 : int(rng, 2, 3)
  const calls: CallSpec[] = []
  for (let i = 0; i < n; i++) calls.push(callSpec(rng, sp.dsml, sizes))
  return { spelling: sp, calls }
}

/** The decoded input a correct parser returns for a call. */
export function inputOf(call: CallSpec): Record<string, string> {
  const input: Record<string, string> = {}
  for (const p of call.params) input[p.key] = p.value
  return input
}

export function manifestOf(calls: readonly CallSpec[]): ManifestCall[] {
  return calls.map((c) => ({ name: c.name, input: inputOf(c) }))
}

export function renderCall(sp: Spelling, call: CallSpec): string {
  const params = call.params.map((p) => {
    const body = p.cdata ? `<![CDATA[${p.value}]]>` : p.padded ? `\n${p.value}\n` : p.value
    const attrs = p.stringAttr ? `name="${p.key}" string="true"` : `name="${p.key}"`
    return `${sp.open('parameter', attrs)}${body}${sp.close('parameter')}`
  })
  return `${sp.open('invoke', `name="${call.name}"`)}\n${params.join('\n')}\n${sp.close('invoke')}`
}

/** The block's markup in its own spelling. */
export function renderBlock(block: BlockSpec): string {
  const sp = block.spelling
  return `${sp.open(sp.wrapper, '')}\n${block.calls.map((c) => renderCall(sp, c)).join('\n')}\n${sp.close(sp.wrapper)}`
}

function block(rng: Rng): { markup: string; calls: ManifestCall[] } {
  const spec = blockSpec(rng)
  return { markup: renderBlock(spec), calls: manifestOf(spec.calls) }
}

/**
 * A fenced code block: plain code, or a complete tool-call example that must
 * stay text. `render` writes an example's inner markup (DSML by default; the
 * peer benchmark writes it in the peer's own format to show what a missing
 * Markdown guard does).
 */
export type FenceSpec =
  | { kind: 'code'; text: string }
  | { kind: 'example'; style: 'backticks' | 'tildes' | 'nested'; block: BlockSpec }

export function fenceSpec(rng: Rng): FenceSpec {
  const r = rng()
  if (r < 0.4) {
    const b = blockSpec(rng)
    return { kind: 'example', style: rng() < 0.6 ? 'backticks' : 'tildes', block: b }
  }
  // A ``` run inside a ~~~ fence is content, not a closer.
  if (r < 0.55) return { kind: 'example', style: 'nested', block: blockSpec(rng) }
  const lang = pick(rng, ['ts', 'python', 'bash', ''])
  return { kind: 'code', text: `\`\`\`${lang}\n${fileContent(rng, int(rng, 80, 600))}\n\`\`\`` }
}

export function renderFence(spec: FenceSpec, render: (block: BlockSpec) => string = renderBlock): string {
  if (spec.kind === 'code') return spec.text
  const inner = render(spec.block)
  if (spec.style === 'backticks') return `\`\`\`xml\n${inner}\n\`\`\``
  if (spec.style === 'tildes') return `~~~\n${inner}\n~~~`
  return `~~~~markdown\nUse a fence like this:\n\`\`\`\n${inner}\n\`\`\`\n~~~~`
}

function fence(rng: Rng): string {
  return renderFence(fenceSpec(rng))
}

export function heading(rng: Rng): string {
  return (rng() < 0.5 ? '## ' : '### ') + pick(rng, ['Plan', 'Findings', '修改说明', 'Next steps'])
}

// ---------------------------------------------------------------------------
// Public generators

export interface TranscriptOptions {
  seed: number
  /** Target size in UTF-8 bytes; the text stops at the first piece boundary past it. */
  size: number
}

/** A realistic mixed assistant transcript and the calls it contains. */
export function generateTranscript({ seed, size }: TranscriptOptions): Transcript {
  const rng = mulberry32(seed)
  const pieces: string[] = []
  const calls: ManifestCall[] = []
  let blocks = 0
  let bytes = 0
  const add = (piece: string): void => {
    pieces.push(piece)
    bytes += Buffer.byteLength(piece, 'utf8')
  }
  while (bytes < size) {
    const r = rng()
    let piece: string
    if (r < 0.5) piece = paragraph(rng)
    else if (r < 0.58) piece = heading(rng)
    else if (r < 0.7) piece = list(rng)
    else if (r < 0.8) piece = fence(rng)
    else {
      const b = block(rng)
      piece = b.markup
      calls.push(...b.calls)
      blocks++
    }
    // Every piece starts a line after a blank line (or the start of the text).
    add(pieces.length === 0 ? piece : `\n\n${piece}`)
  }
  add('\n')
  return { text: pieces.join(''), calls, blocks }
}
