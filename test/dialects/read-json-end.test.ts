/**
 * Blocks that end where their JSON ends (`Grammar.blocks.json`): Mistral's
 * `[TOOL_CALLS][{…}]` and `[TOOL_CALLS]f[ARGS]{…}`, Granite's
 * `<tool_call>[…]`, `<|tool_call|>[…]` and `<function_call> {…}`,
 * Phi-4-mini's `functools[…]`, Apertus' `<|tools_prefix|>[…]` with the
 * closer it may leave out. Each keeps the sieve's promises: code is text, a
 * mention of the opener is text, a broken or cut block is text with a
 * diagnostic, any chunking reads as one chunk, checkpoints resume anywhere,
 * the capture limit holds.
 */
import { describe, expect, it } from 'vitest'
import { formatToolCalls, validateGrammar } from '../../src/index.js'
import type { SieveOptions } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { caught } from '../helpers/grammar-error.js'
import { expectResumesAnywhere, expectStreamedResumesAnywhere } from '../helpers/resume.js'
import { expectStreamedOnce } from '../helpers/streamed.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { otherCall as other, readCall as call, smallestCaptureLimit, trickyCall as tricky } from '../helpers/dialects.js'


const families: Array<[string, string, string]> = [
  ['mistral', 'array', '[TOOL_CALLS]'],
  ['mistral', 'v11', '[TOOL_CALLS]'],
  ['granite', 'granite-3.1', '<tool_call>'],
  ['granite', 'granite-3.0', '<|tool_call|>'],
  ['granite', '20b-fc', '<function_call>'],
  ['phi-4-mini', 'functools', 'functools'],
  ['apertus', 'tools', '<|tools_prefix|>'],
]

/** Offset of the value's last bracket in a block written by the pack (before an optional closer). */
function lastBracket(block: string): number {
  return Math.max(block.lastIndexOf('}'), block.lastIndexOf(']'))
}

describe.each(families)('reading %s blocks (%s) that end with their JSON', (dialect, variant, opener) => {
  const block = formatToolCalls([call], { dialect, variant })
  const two = formatToolCalls([call, other], { dialect, variant })
  const one = (input: string, opts: SieveOptions = {}) => expectChunkInvariant(input, { dialect, ...opts })

  it('should support a call written by the pack, with text before and right after it on the same line', () => {
    const events = one(`Let me read it.\n${block} Then I will tell you.\nBye.`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('Let me read it.\n Then I will tell you.\nBye.')
    expect(codes(events)).toEqual([])
    const c = events.find((e) => e.type === 'tool-call')!
    expect(c.type === 'tool-call' && c.raw).toBe(block)
  })

  it('should support two calls, as the pack writes them', () => {
    const input = `Both:\n${two}\nDone.`
    const events = one(input)
    expect(calls(events)).toEqual([call, other])
    expect(codes(events)).toEqual([])
    const found = events.flatMap((e) => (e.type === 'tool-call' ? [e] : []))
    for (const c of found) expect(input.slice(c.span.start, c.span.end)).toBe(c.raw)
  })

  it('should support brackets and quotes inside strings and nested containers', () => {
    const b = formatToolCalls([tricky], { dialect, variant })
    const events = one(`Edit: ${b}]} and "text" after`)
    expect(calls(events)).toEqual([tricky])
    expect(textOf(events)).toBe('Edit: ]} and "text" after')
  })

  it('should not support a call in a fenced code block or a code span', () => {
    for (const input of [`Like this:\n\n\`\`\`\n${block}\n\`\`\`\n`, `Write \`${block}\` to call it.`, `Like this:\n\n    ${block}\n`]) {
      expect(one(input)).toEqual([{ type: 'text', text: input }])
    }
  })

  it('should support a real call after a fenced copy of it', () => {
    const events = one(`For example:\n\n\`\`\`\n${block}\n\`\`\`\n\nNow for real:\n\n${block}`)
    expect(calls(events)).toEqual([call])
  })

  it('should not support a mention of the opener in prose: text, no diagnostic', () => {
    for (const input of [`The ${opener} token starts a call.`, `Say ${opener}, then a list.`, `Ends with ${opener}`, `A ${opener} {maybe} or ${opener} [not json]`]) {
      const events = one(input)
      expect(events).toEqual([{ type: 'text', text: input }])
    }
  })

  it('should not support a call cut off by the end of the stream', () => {
    const input = `Reading:\n${block.slice(0, block.indexOf('src/a') + 3)}`
    const events = one(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })

  it('should not support a block whose JSON breaks: text, malformed-block', () => {
    const end = lastBracket(block)
    const wrong = block[end] === ']' ? '}' : ']'
    for (const broken of [block.slice(0, end) + wrong + block.slice(end + 1), block.replace('"src/a.ts"', 'src/a.ts')]) {
      const input = `Try ${broken} then`
      const events = one(input)
      expect(calls(events)).toEqual([])
      expect(textOf(events)).toBe(input)
      expect(codes(events)).toEqual(['malformed-block'])
    }
  })

  it('should not support a key written twice in the call or in its arguments: text, malformed-block', () => {
    // JSON.parse keeps the last, other parsers the first or refuse the text: the same block could run another call
    const twice = [block.replace('"limit": 40', '"limit": 40, "limit": 4000')]
    if (block.includes('"name": "read_file"')) twice.push(block.replace('"name": "read_file"', '"name": "read_file", "name": "delete_file"'), block.replace('"arguments": {', '"arguments": {"path": "/"}, "arguments": {'))
    else if (block.includes('{"read_file": {')) twice.push(block.replace(/\{"read_file": (\{[^}]*\})\}/, '{"read_file": {"path": "/"}, "read_file": $1}'))
    if (block.includes('"id": "000000000"')) twice.push(block.replace('"id": "000000000"', '"id": "000000000", "id": "111111111"'))
    for (const b of twice) {
      expect(b).not.toBe(block)
      const input = `Try ${b} then`
      const events = one(input)
      expect(calls(events), b).toEqual([])
      expect(textOf(events), b).toBe(input)
      expect(codes(events), b).toEqual(['malformed-block'])
    }
  })

  it('should not support JSON nested past the depth limit: text, malformed-block, and prose after it', () => {
    const deep = `${opener}[{"a": ${'['.repeat(300)}`
    const input = `${deep} and then ${block}`
    const events = one(input)
    expect(codes(events)).toContain('malformed-block')
    expect(calls(events)).toEqual([call])
  })

  it('should support resuming from a checkpoint taken at any point', () => {
    const input = `Look: \`${block}\`\n\n${block}\nthen ${two} done ${opener} here`
    expect(calls(expectResumesAnywhere(input, { dialect }))).toEqual([call, call, other])
  })

  it('should not support a block over the capture limit: text, with the limit reported, and reading goes on after it', () => {
    const big = formatToolCalls([{ name: 'write', input: { text: 'x'.repeat(400), list: [1, [2, [3]]] } }], { dialect, variant })
    const input = `Big ${big} small ${block} end`
    const events = one(input, { captureLimit: 200 })
    expect(calls(events)).toEqual([call])
    expect(codes(events)).toEqual(['capture-limit'])
    expect(textOf(events)).toBe(`Big ${big} small  end`)
  })

  it('should not support a block at the smallest capture limit, which leaves no room before its value: text, in any chunking', () => {
    // the smallest limit the sieve accepts for the pack (the longest delimiter it reads)
    const limit = smallestCaptureLimit(dialect)
    const input = `${opener} x ${block} ${opener}[${opener}{ done`
    const events = one(input, { captureLimit: limit })
    expect(calls(events)).toEqual([])
    expect(codes(events)).not.toContain('internal-error')
    expect(textOf(events)).toBe(input)
  })

  it('should support streamed arguments: the call comes out whole, started once', () => {
    expectStreamedOnce(`Now:\n${block} ok`, { dialect }, call)
  })
})

describe('streamed arguments and checkpoints together', () => {
  it('should support a checkpoint after any chunk of a streamed JSON block', () => {
    for (const [dialect, variant] of families) {
      const input = `Go ${formatToolCalls([call, other], { dialect, variant })} ok`
      expectStreamedResumesAnywhere(input.match(/[^]{1,5}/g)!, { dialect }, `${dialect} ${variant} `)
    }
  })
})

describe('reading Mistral v11 heads', () => {
  const one = (input: string) => expectChunkInvariant(input, { dialect: 'mistral' })

  it('should support a head without its [ARGS] separator', () => {
    const events = one('Ok[TOOL_CALLS]read_file{"path": "src/a.ts", "limit": 40} done')
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('Ok done')
  })

  it('should support blanks between [ARGS] and the value', () => {
    expect(calls(one('[TOOL_CALLS]read_file[ARGS] \n{"path": "src/a.ts", "limit": 40}'))).toEqual([call])
  })

  it('should not support a head that is only a word in prose, or a separator it does not finish', () => {
    for (const input of ['Use [TOOL_CALLS]read_file to call it.', 'Use [TOOL_CALLS]read_file[AR] then', 'Use [TOOL_CALLS]read_file[ARGS] later', 'a [TOOL_CALLS]`code` span']) {
      expect(one(input)).toEqual([{ type: 'text', text: input }])
    }
  })

  it('should support a mention whose rest is read as prose: a code span after it is a code span', () => {
    const input = 'the [TOOL_CALLS]x`[TOOL_CALLS][{"name": "read_file", "arguments": {}}]` token'
    expect(one(input)).toEqual([{ type: 'text', text: input }])
  })
})

describe('reading Apertus blocks and the closer they may leave out', () => {
  const one = (input: string) => expectChunkInvariant(input, { dialect: 'apertus' })
  const body = '<|tools_prefix|>[{"read_file": {"path": "src/a.ts", "limit": 40}}]'

  it('should support the block with its closer, which is part of the block', () => {
    const events = one(`A ${body}<|tools_suffix|> B`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('A  B')
  })

  it('should support the block without its closer, and a start of one that is not it', () => {
    for (const [input, text] of [[`A ${body} B`, 'A  B'], [`A ${body}<|tools_su`, 'A <|tools_su'], [`A ${body}<|tools_x`, 'A <|tools_x'], [`A ${body}`, 'A ']]) {
      const events = one(input!)
      expect(calls(events), input).toEqual([call])
      expect(textOf(events), input).toBe(text)
      expect(codes(events), input).toEqual([])
    }
  })
})

describe('the blocks.json grammar field', () => {
  const base = { name: 'g', roles: { wrapper: [], invoke: [], parameter: [] }, frames: [defaultGrammar.frames.find((f) => f.name === 'xml')!] }

  it('should support openers with head separators and closers', () => {
    const g = validateGrammar({ ...base, blocks: { open: [], close: [], json: { open: ['[TOOL_CALLS]'], head: ['[ARGS]'], close: ['<|end|>'] } } })
    expect(g.blocks?.json).toEqual({ open: ['[TOOL_CALLS]'], head: ['[ARGS]'], close: ['<|end|>'] })
  })

  it('should not support a bad json field, naming it', () => {
    const cases: Array<[unknown, string]> = [
      [{ open: [], close: [], json: { open: [] } }, 'blocks.json.open'],
      [{ open: [], close: [], json: { open: [''] } }, 'blocks.json.open[0]'],
      [{ open: ['<a>'], close: ['</a>'], json: { open: ['<a>'] } }, 'blocks.json.open[0]'],
      [{ open: [], close: [], json: { open: ['x'], close: ['x'] } }, 'blocks.json.close[0]'],
      [{ open: [], close: [], json: { open: ['x'], extra: 1 } }, 'blocks.json.extra'],
      [{ open: [], close: ['</a>'], json: { open: ['x'] } }, 'blocks.open'],
      [{ open: [], close: [] }, 'blocks.open'],
    ]
    for (const [blocks, field] of cases) {
      expect(caught(() => validateGrammar({ ...base, blocks })).field, JSON.stringify(blocks)).toBe(field)
    }
  })
})

describe('quoted calls in blocks that end with their JSON', () => {
  it('should not support a call the user quoted, echoed by the model', () => {
    for (const [dialect, variant] of families) {
      const block = formatToolCalls([call], { dialect, variant })
      const quoted = [`Why does ${block} fail?`]
      const events = expectChunkInvariant(`You asked about ${block} here.`, { dialect, quoted })
      expect(calls(events), `${dialect} ${variant}`).toEqual([])
      expect(codes(events), `${dialect} ${variant}`).toEqual(['quoted-example'])
      // a call the user did not quote is a call
      expect(calls(expectChunkInvariant(formatToolCalls([other], { dialect, variant }), { dialect, quoted })), `${dialect} ${variant}`).toEqual([other])
    }
  })
})
