/**
 * Seeded generators shared by the benchmarks and `test/bench-fixtures.test.ts`,
 * so a benchmark never times a path the tests have not checked.
 *
 * Everything here is deterministic for a given seed: same seed, same text,
 * same manifest, same chunking.
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

/** mulberry32: a tiny 32-bit PRNG, good enough for fixtures. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1))
}

function pick<T>(rng: Rng, items: readonly T[]): T {
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

function paragraph(rng: Rng): string {
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

function list(rng: Rng): string {
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
function plainValue(rng: Rng, key: string): string {
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
function fileContent(rng: Rng, targetChars: number): string {
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

/** How each spelling writes the three tags. */
interface Spelling {
  open(local: string, attrs: string): string
  close(local: string): string
  wrapper: string
}

const attrsOf = (a: string): string => (a === '' ? '' : ` ${a}`)

const DSML_FW: Spelling = { open: (l, a) => `<｜DSML｜${l}${attrsOf(a)}>`, close: (l) => `</｜DSML｜${l}>`, wrapper: 'tool_calls' }
const DSML_ASCII: Spelling = { open: (l, a) => `<|DSML|${l}${attrsOf(a)}>`, close: (l) => `</|DSML|${l}>`, wrapper: 'tool_calls' }
const DSML_FUNC: Spelling = { ...DSML_FW, wrapper: 'function_calls' }
const DSML_V41: Spelling = { open: (l, a) => `<｜DSML｜ ${l}${attrsOf(a)}>`, close: (l) => `</｜DSML｜ ${l}>`, wrapper: 'calls' }
const FULLWIDTH: Spelling = { open: (l, a) => `＜ＤＳＭＬ＜${l}${attrsOf(a)}＞`, close: (l) => `＜／ＤＳＭＬ＜／${l}＞`, wrapper: 'tool_calls' }
const FULLWIDTH_BARS: Spelling = { open: (l, a) => `＜｜ＤＳＭＬ｜${l}${attrsOf(a)}＞`, close: (l) => `＜／｜ＤＳＭＬ｜${l}＞`, wrapper: 'tool_calls' }
const PLAIN: Spelling = { open: (l, a) => `<${l}${attrsOf(a)}>`, close: (l) => `</${l}>`, wrapper: 'tool_calls' }
const PLAIN_FUNC: Spelling = { ...PLAIN, wrapper: 'function_calls' }

/** Weighted: the canonical DeepSeek spelling most often. */
const SPELLINGS: ReadonlyArray<[Spelling, number]> = [
  [DSML_FW, 50], [DSML_ASCII, 12], [DSML_FUNC, 6], [DSML_V41, 4],
  [FULLWIDTH, 8], [FULLWIDTH_BARS, 4], [PLAIN, 12], [PLAIN_FUNC, 4],
]
const SPELLING_TOTAL = SPELLINGS.reduce((sum, [, w]) => sum + w, 0)

function spelling(rng: Rng): Spelling {
  let r = rng() * SPELLING_TOTAL
  for (const [s, w] of SPELLINGS) if ((r -= w) < 0) return s
  return DSML_FW
}

function call(rng: Rng, sp: Spelling, isDsml: boolean): { markup: string; call: ManifestCall } {
  const [name, keys] = pick(rng, TOOLS)
  const input: Record<string, string> = {}
  const params: string[] = []
  for (const key of keys) {
    let body: string
    if (key === 'content' || key === 'old_string' || key === 'new_string') {
      // Mostly short snippets, occasionally a multi-KB file.
      const size = key === 'content' && rng() < 0.25 ? int(rng, 2000, 8000) : int(rng, 20, 300)
      const value = fileContent(rng, size)
      input[key] = value
      body = `<![CDATA[${value}]]>`
    } else {
      const value = plainValue(rng, key)
      input[key] = value
      // Parameter text is trimmed, so surrounding newlines are not part of the value.
      body = rng() < 0.2 ? `\n${value}\n` : value
    }
    const attrs = isDsml && rng() < 0.7 ? `name="${key}" string="true"` : `name="${key}"`
    params.push(`${sp.open('parameter', attrs)}${body}${sp.close('parameter')}`)
  }
  const markup = `${sp.open('invoke', `name="${name}"`)}\n${params.join('\n')}\n${sp.close('invoke')}`
  return { markup, call: { name, input } }
}

function block(rng: Rng): { markup: string; calls: ManifestCall[] } {
  const sp = spelling(rng)
  const isDsml = sp !== PLAIN && sp !== PLAIN_FUNC
  const n = rng() < 0.7 ? 1 : int(rng, 2, 3)
  const invokes: string[] = []
  const calls: ManifestCall[] = []
  for (let i = 0; i < n; i++) {
    const c = call(rng, sp, isDsml)
    invokes.push(c.markup)
    calls.push(c.call)
  }
  const markup = `${sp.open(sp.wrapper, '')}\n${invokes.join('\n')}\n${sp.close(sp.wrapper)}`
  return { markup, calls }
}

/** A fenced code block; some hold complete tool-call examples that must stay text. */
function fence(rng: Rng): string {
  const r = rng()
  if (r < 0.4) {
    const example = block(rng).markup
    return rng() < 0.6 ? `\`\`\`xml\n${example}\n\`\`\`` : `~~~\n${example}\n~~~`
  }
  if (r < 0.55) {
    // A ``` run inside a ~~~ fence is content, not a closer.
    return `~~~~markdown\nUse a fence like this:\n\`\`\`\n${block(rng).markup}\n\`\`\`\n~~~~`
  }
  const lang = pick(rng, ['ts', 'python', 'bash', ''])
  return `\`\`\`${lang}\n${fileContent(rng, int(rng, 80, 600))}\n\`\`\``
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
    else if (r < 0.58) piece = (rng() < 0.5 ? '## ' : '### ') + pick(rng, ['Plan', 'Findings', '修改说明', 'Next steps'])
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

export interface ParameterStreamOptions {
  /** Wrap the value in CDATA. Default false (plain text value). */
  cdata?: boolean
}

/**
 * One canonical DSML block whose single `content` parameter value is exactly
 * `length` characters (ASCII, so also `length` bytes). For the doubling table.
 */
export function generateParameterStream(length: number, options: ParameterStreamOptions = {}): Transcript {
  const unit = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; '
  let value = unit.repeat(Math.ceil(length / unit.length) + 1).slice(0, length)
  // Trimming must not change the value: no space at either end.
  if (length > 0) value = `x${value.slice(1, -1)}${length > 1 ? 'x' : ''}`
  const body = options.cdata === true ? `<![CDATA[${value}]]>` : value
  const text =
    'Writing the file now.\n\n' +
    '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="write_file">\n' +
    `<｜DSML｜parameter name="content" string="true">${body}</｜DSML｜parameter>\n` +
    '</｜DSML｜invoke>\n</｜DSML｜tool_calls>\n\nDone.\n'
  return { text, calls: [{ name: 'write_file', input: { content: value } }], blocks: 1 }
}

/** Split `text` into token-sized chunks of 1–12 UTF-16 units, seeded. */
export function tokenChunks(text: string, seed: number): string[] {
  const rng = mulberry32(seed)
  const chunks: string[] = []
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(rng() * 12)
    chunks.push(text.slice(i, i + n))
    i += n
  }
  return chunks
}

/** Split `text` into fixed-size chunks. */
export function fixedChunks(text: string, size: number): string[] {
  const chunks: string[] = []
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size))
  return chunks
}
