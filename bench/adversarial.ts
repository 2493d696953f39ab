/**
 * Adversarial inputs for `npm run bench` and `test/bench-transcripts.test.ts`:
 * streams built to make a sieve hold, re-scan or capture far more than it
 * should. Each states the shape a correct sieve gives it (the calls it finds
 * and the diagnostics it reports), so the benchmark never times a broken path.
 *
 * Sizes are set by `scale` (1 = the sizes the issue names: 100k `<`, 100k
 * mentions, 10k blocks, about 1 MB for the unclosed constructs).
 *
 * Parameter values stay unambiguous strings (paths and prose), so the
 * expected inputs hold whatever JSON-literal decoding values get.
 */
import { EN, ZH } from './corpus.js'
import {
  blockSpec,
  fileContent,
  manifestOf,
  mulberry32,
  renderBlock,
  renderCall,
} from './generate.js'
import type { CallSpec, ManifestCall } from './generate.js'
import { CANONICAL } from './spellings.js'
import type { SieveOptions } from '../src/index.js'

export interface Adversarial {
  id: string
  /** What the input is, for the report. */
  label: string
  text: string
  /** The calls a correct sieve finds, in order. */
  calls: ManifestCall[]
  /** Diagnostic codes a correct sieve reports (as a set; order and count not checked). */
  diagnostics: string[]
  /**
   * Check only the calls' names and parameter keys, not the values (the
   * nested-XML value is decoded differently as value decoding grows).
   */
  namesOnly?: boolean
  /** Sieve options the input is streamed with (default none), for inputs that stress an option. */
  options?: SieveOptions
}

const KB = 1024

/** The one real call most inputs end with: a canonical DSML block. */
const FINAL: CallSpec = {
  name: 'read_file',
  params: [{ key: 'path', value: 'src/after/the-noise.ts', cdata: false, padded: false, stringAttr: true }],
}
const finalBlock = (): string => renderBlock({ spelling: CANONICAL, calls: [FINAL] })

/** Pieces from `next` until they and a `joiner` after each reach `target` characters. */
function fill(target: number, joiner: string, next: () => string): string[] {
  const parts: string[] = []
  for (let n = 0; n < target; ) {
    const piece = next()
    parts.push(piece)
    n += piece.length + joiner.length
  }
  return parts
}

function prose(seed: number, targetChars: number, joiner: string): string {
  const rng = mulberry32(seed)
  return fill(targetChars, joiner, () => (rng() < 0.3 ? ZH[Math.floor(rng() * ZH.length)]! : EN[Math.floor(rng() * EN.length)]!)).join(joiner)
}

/** 100k `<` in prose that never start a tag (`a < b`, `x<y`, `<t` that could begin `<tool_calls`). */
export function loneLessThan(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(100_000 * scale))
  const units = ['a < b ', 'x<y ', 'if n <= 3 ', '<t ', '<｜ ', '<< ', '＜ ', '<|DS ']
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    parts.push(units[i % units.length]!)
    if (i % 12 === 11) parts.push('\n')
  }
  return {
    id: 'lone-lt',
    label: `${count} lone < (a < b, x<y, <t, <|DS …)`,
    text: `${parts.join('')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/** 100k `<` in a row (the grammar allows 1–4 leading `<` on a tag), then one real call. */
export function lessThanRun(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(100_000 * scale))
  return {
    id: 'lt-run',
    label: `${count} < in a row, then one real call`,
    text: `Arrows: ${'<'.repeat(count)}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/** 100k mentions of the DSML prefix in prose (opening tag names among them, with no tag end after them), then one real call. */
export function dsmlMentions(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(100_000 * scale))
  const mentions = ['the <|DSML| prefix', 'a <｜DSML｜ tag', 'writes <|DSML|tool_calls', 'then <｜DSML｜invoke', 'or </|DSML|parameter', 'names <｜DSML｜parameter a']
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    parts.push(mentions[i % mentions.length]!)
    parts.push(i % 8 === 7 ? '.\n' : ', ')
  }
  return {
    id: 'dsml-mentions',
    label: `${count} <|DSML| mentions in prose, then one real call`,
    text: `${parts.join('')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/** A ``` fence that never closes, holding real-looking blocks: all text, no call. */
export function unclosedFence(scale = 1): Adversarial {
  const target = Math.max(2 * KB, Math.round(1024 * KB * scale))
  const rng = mulberry32(11)
  const pieces = fill(target, '\n\n', () => (rng() < 0.3 ? renderBlock(blockSpec(rng)) : fileContent(rng, 400)))
  return {
    id: 'unclosed-fence',
    label: `unclosed \`\`\` fence, ${Math.round(target / KB)} KB of blocks and code inside`,
    text: `Here is the log:\n\n\`\`\`text\n${pieces.join('\n\n')}\n\n`,
    calls: [],
    diagnostics: [],
  }
}

/**
 * A parameter whose `<![CDATA[` never closes: the capture passes the limit
 * and the whole block is text; the block after it is inside that CDATA, so
 * it is text too (the stream never leaves the failed block).
 */
export function unclosedCdata(scale = 1): Adversarial {
  // Always past the default capture limit (256 KiB), so the capture is released.
  const target = Math.max(300 * KB, Math.round(1024 * KB * scale))
  const rng = mulberry32(12)
  const open =
    `${CANONICAL.open('tool_calls', '')}\n${CANONICAL.open('invoke', 'name="write_file"')}\n` +
    `${CANONICAL.open('parameter', 'name="content"')}<![CDATA[`
  return {
    id: 'unclosed-cdata',
    label: `unclosed <![CDATA[ with ${Math.round(target / KB)} KB of code, then a block inside it`,
    text: `Writing it.\n\n${open}${fileContent(rng, target)}\n\n${finalBlock()}\n`,
    calls: [],
    diagnostics: ['capture-limit'],
  }
}

/** An invoke whose `name="` quote never closes, then about 1 MB of prose, then one real call. */
export function unclosedQuote(scale = 1): Adversarial {
  // Always past the default capture limit (256 KiB), so the capture is released.
  const target = Math.max(300 * KB, Math.round(1024 * KB * scale))
  const open = `${CANONICAL.open('tool_calls', '')}\n${CANONICAL.open('invoke', '').slice(0, -1)} name="read_file`
  return {
    id: 'unclosed-quote',
    label: `unclosed attribute quote, then ${Math.round(target / KB)} KB of prose, then a block (inside the failed one)`,
    text: `Calling it.\n\n${open} ${prose(13, target, ' ')}\n\n${finalBlock()}\n`,
    calls: [],
    diagnostics: ['capture-limit'],
  }
}

/**
 * A paragraph opened by an unmatched backtick and run on for about 1 MB
 * (single line breaks, so it never ends), with DSML mentions at line starts:
 * the text held while the backtick is undecided passes the capture limit and
 * is released. Then a blank line and one real call.
 */
export function unclosedCodeSpan(scale = 1): Adversarial {
  // Always past the default capture limit (256 KiB): the held text is released.
  const target = Math.max(300 * KB, Math.round(1024 * KB * scale))
  const rng = mulberry32(14)
  const lines = fill(target, '\n', () => (rng() < 0.2 ? `${CANONICAL.open('tool_calls', '')} is the opener` : prose(Math.floor(rng() * 1e9), 160, ' ')))
  return {
    id: 'unclosed-span',
    label: `unmatched backtick, ${Math.round(target / KB)} KB paragraph with tag mentions, then one real call`,
    text: `Run \`npm test\n${lines.join('\n')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: ['capture-limit'],
  }
}

/** 10k tiny canonical blocks, one per line. */
export function tinyBlocks(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(10_000 * scale))
  const parts: string[] = []
  const calls: CallSpec[] = []
  for (let i = 0; i < count; i++) {
    const call: CallSpec = {
      name: 'list_dir',
      params: [{ key: 'path', value: `src/d${i}`, cdata: false, padded: false, stringAttr: false }],
    }
    calls.push(call)
    parts.push(
      `${CANONICAL.open('tool_calls', '')}${CANONICAL.open('invoke', 'name="list_dir"')}` +
        `${CANONICAL.open('parameter', 'name="path"')}src/d${i}${CANONICAL.close('parameter')}` +
        `${CANONICAL.close('invoke')}${CANONICAL.close('tool_calls')}`,
    )
  }
  return {
    id: 'tiny-blocks',
    label: `${count} tiny blocks in a row`,
    text: `${parts.join('\n')}\n`,
    calls: manifestOf(calls),
    diagnostics: [],
  }
}

/** Blocks whose `content` value is nested XML 10,000 levels deep (about 70 KB each). */
export function deepXml(scale = 1): Adversarial {
  const blocks = Math.max(1, Math.round(15 * scale))
  const depth = 10_000
  const value = `${'<node>'.repeat(depth)}leaf${'</node>'.repeat(depth)}`
  const calls: CallSpec[] = []
  const parts: string[] = []
  for (let i = 0; i < blocks; i++) {
    const call: CallSpec = {
      name: 'write_file',
      params: [
        { key: 'path', value: `data/tree${i}.xml`, cdata: false, padded: false, stringAttr: false },
        { key: 'content', value, cdata: false, padded: false, stringAttr: false },
      ],
    }
    calls.push(call)
    parts.push(`Tree ${i}:\n\n${CANONICAL.open('tool_calls', '')}\n${renderCall(CANONICAL, call)}\n${CANONICAL.close('tool_calls')}`)
  }
  return {
    id: 'deep-xml',
    label: `${blocks} values of nested XML ${depth} deep`,
    text: `${parts.join('\n\n')}\n`,
    calls: manifestOf(calls),
    diagnostics: [],
    namesOnly: true,
  }
}

/**
 * A parameter value of 100k comment openers (`a <!-- b `), never closed: the
 * first opens a comment in the value and the rest are its text; the capture
 * passes the limit and the whole block is text, the block after it too (the
 * stream never leaves the failed block).
 */
export function commentOpeners(scale = 1): Adversarial {
  // past the limit whatever the scale (each piece is at least 5 characters), so the answer is the same at every size
  const count = Math.max(Math.round(100_000 * scale), Math.ceil((300 * KB) / 5))
  const open = `${CANONICAL.open('tool_calls', '')}\n${CANONICAL.open('invoke', 'name="write_file"')}\n${CANONICAL.open('parameter', 'name="content"')}`
  const parts: string[] = []
  for (let i = 0; i < count; i++) parts.push(i % 10 === 9 ? '<!--\n' : 'a <!-- ')
  return {
    id: 'comment-openers',
    label: `${count} <!-- inside one parameter, then a block (inside the failed one)`,
    text: `Writing it.\n\n${open}${parts.join('')}\n\n${finalBlock()}\n`,
    calls: [],
    diagnostics: ['capture-limit'],
  }
}

/** One wrapper holding 40k small invokes (about 2.8 MB): past the capture limit, so the whole block is text; then one real call. */
export function manyInvokes(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(40_000 * scale))
  const invoke = `${CANONICAL.open('invoke', 'name="a"')}${CANONICAL.open('parameter', 'name="p"')}x${CANONICAL.close('parameter')}${CANONICAL.close('invoke')}\n`
  // past the limit whatever the scale, so the answer is the same at every size
  const n = Math.max(count, Math.ceil((300 * KB) / invoke.length))
  return {
    id: 'many-invokes',
    label: `${n} invokes in one wrapper, then one real call`,
    text: `Calling them.\n\n${CANONICAL.open('tool_calls', '')}\n${invoke.repeat(n)}${CANONICAL.close('tool_calls')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: ['capture-limit'],
  }
}

/** 60k bare `<invoke name="a">` openers in prose, each followed by words: mentions, all text; then one real call. */
export function bareInvokes(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(60_000 * scale))
  const parts: string[] = []
  for (let i = 0; i < count; i++) parts.push(i % 8 === 7 ? '<invoke name="a"> opens it.\n' : '<invoke name="a"> then ')
  return {
    id: 'bare-invokes',
    label: `${count} bare <invoke name="a"> in prose, then one real call`,
    text: `${parts.join('')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/**
 * One paragraph of about 1 MB, every line an unclosed inline `<code>` (an
 * element named in prose, never closed): code only if a `</code>` closed it
 * in the paragraph, so each waits for the paragraph's end; then one real call.
 */
export function codeTags(scale = 1): Adversarial {
  const lines = fill(Math.round(1024 * KB * scale), '\n', () => 'The <code> element, see the reference for its attributes.')
  return {
    id: 'code-tags',
    label: `${lines.length} lines of one paragraph, each with an unclosed <code>, then one real call`,
    text: `${lines.join('\n')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/** The same as a tight list: one item per line, each with an unclosed `<code>`; then one real call. */
export function codeTagsList(scale = 1): Adversarial {
  const lines = fill(Math.round(1024 * KB * scale), '\n', () => '- the <code> element and <code>pre</code> too')
  return {
    id: 'code-tags-list',
    label: `${lines.length} items of a tight list, each with an unclosed <code>, then one real call`,
    text: `${lines.join('\n')}\n\n${finalBlock()}\n`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/**
 * About 1 MB with lone-CR line endings: paragraphs, fenced and indented
 * examples of blocks (code: text) and a final real call, all with `\r`.
 */
export function crLines(scale = 1): Adversarial {
  const example = finalBlock().replace(/\n/g, '\r')
  const pieces = fill(Math.round(1024 * KB * scale), '\r\r', (() => {
    let i = 0
    return () => {
      const k = i++ % 3
      if (k === 0) return 'Some prose about the file.\rAnd a second line.'
      if (k === 1) return `~~~\r${example}\r~~~`
      return `***\r${example.split('\r').map((l) => `    ${l}`).join('\r')}`
    }
  })())
  return {
    id: 'cr-lines',
    label: `${pieces.length} paragraphs and examples in code with lone-CR line endings, then one real call`,
    text: `${pieces.join('\r\r')}\r\r${example}\r`,
    calls: manifestOf([FINAL]),
    diagnostics: [],
  }
}

/**
 * One 2 MB block of many small parameters, read with `streamArguments` and
 * a capture limit raised past it: argument deltas for every parameter.
 */
export function streamedParameters(scale = 1): Adversarial {
  const count = Math.max(1, Math.round(40_000 * scale))
  const params: string[] = []
  for (let i = 0; i < count; i++) params.push(`${CANONICAL.open('parameter', `name="p${i}" string="true"`)}value ${i} of the list${CANONICAL.close('parameter')}`)
  const text = `Writing it.\n\n${CANONICAL.open('tool_calls', '')}\n${CANONICAL.open('invoke', 'name="write_many"')}\n${params.join('\n')}\n${CANONICAL.close('invoke')}\n${CANONICAL.close('tool_calls')}\n`
  const input: Record<string, string> = {}
  for (let i = 0; i < count; i++) input[`p${i}`] = `value ${i} of the list`
  return {
    id: 'streamed-parameters',
    label: `one block of ${count} parameters with streamArguments (capture limit raised past it)`,
    text,
    calls: [{ name: 'write_many', input }],
    diagnostics: [],
    options: { streamArguments: true, captureLimit: 8 * 1024 * KB },
  }
}

/** Every adversarial input, in report order. */
export const ADVERSARIAL: ReadonlyArray<(scale?: number) => Adversarial> = [
  loneLessThan,
  lessThanRun,
  dsmlMentions,
  unclosedFence,
  unclosedCdata,
  unclosedQuote,
  unclosedCodeSpan,
  tinyBlocks,
  deepXml,
  commentOpeners,
  manyInvokes,
  bareInvokes,
  codeTags,
  codeTagsList,
  crLines,
  streamedParameters,
]
