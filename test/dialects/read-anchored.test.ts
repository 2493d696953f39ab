/**
 * Blocks anchored at the message start (`Grammar.blocks.json.anchored`):
 * Llama 3.1's bare `{"name": "f", "parameters": {…}}` (after
 * `<|python_tag|>` or not, several split by `; `), Llama 3.2's Python list
 * `[f(a=1), g(b='x')]`, xLAM's `[{"name": …, "arguments": …}]` (after
 * `[TOOL_CALLS]` or not). Only a value that opens the message (after blanks
 * and the reasoning) is a block; the same value later in prose, after a
 * fenced example, or after any text is text. Each case runs through every
 * chunking; checkpoints resume anywhere; the capture limit holds.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, formatToolCalls, validateGrammar } from '../../src/index.js'
import type { SieveOptions } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { caught } from '../helpers/grammar-error.js'
import { expectResumesAnywhere, expectStreamedResumesAnywhere } from '../helpers/resume.js'
import { expectStreamedOnce } from '../helpers/streamed.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { otherCall as other, readCall as call, smallestCaptureLimit, trickyCall as tricky } from '../helpers/dialects.js'


/** [pack, layout, its optional opener]. */
const layouts: Array<[string, string, string]> = [
  ['llama3-json', 'json', '<|python_tag|>'],
  ['pythonic', 'list', '<|python_start|>'],
  ['xlam', 'array', '[TOOL_CALLS]'],
]

describe.each(layouts)('reading %s blocks (%s) at the message start', (dialect, variant, opener) => {
  const block = formatToolCalls([call], { dialect, variant })
  const two = formatToolCalls([call, other], { dialect, variant })
  const one = (input: string, opts: SieveOptions = {}) => expectChunkInvariant(input, { dialect, ...opts })

  it('should support a call that opens the message, with text after it', () => {
    const events = one(`${block} I will read it.\nBye.`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe(' I will read it.\nBye.')
    expect(codes(events)).toEqual([])
    const c = events.find((e) => e.type === 'tool-call')!
    expect(c.type === 'tool-call' && c.raw).toBe(block)
  })

  it('should support blanks before it, which stay text', () => {
    const events = one(`\n \t\n  ${block}\n`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('\n \t\n  \n')
  })

  it('should support its optional opener before it, part of the block', () => {
    const events = one(` ${opener}${block} ok`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('  ok')
    expect(codes(events)).toEqual([])
  })

  it('should support two calls, as the pack writes them', () => {
    const input = `${two}\nDone.`
    const events = one(input)
    expect(calls(events)).toEqual([call, other])
    expect(textOf(events)).toBe('\nDone.')
    expect(codes(events)).toEqual([])
    for (const e of events) if (e.type === 'tool-call') expect(input.slice(e.span.start, e.span.end)).toBe(e.raw)
  })

  it('should support brackets and quotes inside strings and nested containers', () => {
    const b = formatToolCalls([tricky], { dialect, variant })
    const events = one(`${b}]} and "text" 'after'`)
    expect(calls(events)).toEqual([tricky])
    expect(textOf(events)).toBe(']} and "text" \'after\'')
  })

  it('should support a call right after the reasoning (the pack\'s, or <think> by default)', () => {
    const events = one(`<think>I should read ${block} first.</think>\n\n${block} done`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('\n\n done')
  })

  it('should not support the same value later in the message: prose, no diagnostic', () => {
    for (const input of [`Here: ${block}`, `I will call\n\n${block}`, `. ${two}`, `${opener}x then ${block}`, `Ok.${opener}${block}`]) {
      expect(one(input), input).toEqual([{ type: 'text', text: input }])
    }
  })

  it('should not support a call after a block that opens the message: only the first is anchored', () => {
    const events = one(`${block}\n\nAnd again: ${block}`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe(`\n\nAnd again: ${block}`)
  })

  it('should not support a fenced example at the start, nor a call after it', () => {
    for (const input of [`\`\`\`\n${block}\n\`\`\`\n\n${block}`, `\`${block}\` ${block}`, `    ${block}\n\n${block}`.replace(/^ {4}/, '\t')]) {
      const events = one(input)
      expect(calls(events), input).toEqual([])
      expect(textOf(events), input).toBe(input)
    }
  })

  it('should not support a call cut off by the end of the stream: text, unterminated-block', () => {
    const input = block.slice(0, block.indexOf('src/a') + 3)
    const events = one(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })

  it('should not support a call that is broken: text, malformed-block', () => {
    const broken = dialect === 'pythonic' ? ["[read_file(path='src/a.ts' limit=40)] after", '[read_file] after', '[f(x=1), 42] after'] : [block.replace('"src/a.ts"', 'src/a.ts') + ' after', `${block.replace('"read_file"', '42')} after`]
    for (const input of broken) {
      const events = one(input)
      expect(calls(events), input).toEqual([])
      expect(textOf(events), input).toBe(input)
      expect(codes(events), input).toEqual(['malformed-block'])
    }
  })

  it('should not support a key written twice in the call or in its arguments: text, malformed-block', () => {
    // JSON.parse keeps the last, other parsers the first or refuse the text (Python refuses a keyword given twice)
    const twice = dialect === 'pythonic'
      ? ["[read_file(path='src/a.ts', path='/')] after"]
      : [block.replace('"name": "read_file"', '"name": "read_file", "name": "delete_file"'), block.replace('"limit": 40', '"limit": 40, "limit": 4000'), block.replace(/"(parameters|arguments)": \{/, '"$1": {"path": "/"}, "$1": {')].map((b) => `${b} after`)
    for (const input of twice) {
      expect(input).not.toBe(`${block} after`)
      const events = one(input)
      expect(calls(events), input).toEqual([])
      expect(textOf(events), input).toBe(input)
      expect(codes(events), input).toEqual(['malformed-block'])
    }
  })

  it('should not support a value that is data, not a call: text, no diagnostic', () => {
    const data = dialect === 'pythonic' ? ['[] then', ' []'] : dialect === 'llama3-json' ? ['{"answer": 42} is it', '{"parameters": {}}', '{}'] : ['[] then', '[{"answer": 42}, {"b": [1]}] ok', '[{}]']
    for (const input of data) {
      const events = one(input)
      expect(events, input).toEqual([{ type: 'text', text: input }])
    }
  })

  it('should not support an opener followed by what is no value: text, read as prose', () => {
    for (const input of [`${opener} hello`, `${opener}`, `${opener.slice(0, 5)}`, `${opener}\`${block}\``]) {
      const events = one(input)
      expect(calls(events), input).toEqual([])
      expect(textOf(events), input).toBe(input)
    }
  })

  it('should support resuming from a checkpoint taken at any point', () => {
    const input = ` ${opener}${two}\nthen ${block} done ${opener} here`
    expect(calls(expectResumesAnywhere(input, { dialect }))).toEqual([call, other])
  })

  it('should support a checkpoint after any chunk of a streamed block', () => {
    expect(calls(expectStreamedResumesAnywhere(`  ${two} ok`.match(/[^]{1,4}/g)!, { dialect }))).toEqual([call, other])
  })

  it('should not support a block over the capture limit: text, with the limit reported', () => {
    const big = formatToolCalls([{ name: 'write', input: { text: 'x'.repeat(400), list: [1, [2, [3]]] } }], { dialect, variant })
    const input = `${big} small ${block} end`
    const events = one(input, { captureLimit: 200 })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['capture-limit'])
    expect(textOf(events)).toBe(input)
  })

  it('should not support a capture limit shorter than the optional opener: refused at creation, naming the field', () => {
    expect(() => createSieve({ dialect, captureLimit: opener.length - 1 })).toThrow(/captureLimit/)
    // the smallest limit accepted: the block is text (over the limit, or no room before its value), in any chunking
    const limit = smallestCaptureLimit(dialect, opener.length)
    const input = `${opener}${block.startsWith(opener) ? block.slice(opener.length) : block} ok`
    const events = one(input, { captureLimit: limit })
    expect(codes(events)).not.toContain('internal-error')
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should support streamed arguments: the call comes out whole, started once', () => {
    expectStreamedOnce(`${block} ok`, { dialect }, call)
  })
})

describe('reading Llama 3.1 calls split by separators', () => {
  const one = (input: string) => expectChunkInvariant(input, { dialect: 'llama3-json' })
  const a = '{"name": "read_file", "parameters": {"path": "src/a.ts", "limit": 40}}'
  const b = '{"name": "list_dir", "arguments": {"path": "."}}'

  it('should support blanks around the separator, and text after the last call', () => {
    // blanks before the separator are text between the calls; the separator and blanks after it open the next block
    for (const [sep, text] of [[';', ' done'], ['; ', ' done'], [' ;\n ', '  done'], [';\t', ' done'], ['\n;\n\n', '\n done']]) {
      const events = one(`${a}${sep}${b} done`)
      expect(calls(events), JSON.stringify(sep)).toEqual([call, other])
      expect(textOf(events), JSON.stringify(sep)).toBe(text)
    }
  })

  it('should not support a value after a separator that follows text, or after no separator', () => {
    for (const [input, text] of [[`${a} and; ${b}`, ` and; ${b}`], [`${a} ${b}`, ` ${b}`], [`${a};x ${b}`, `;x ${b}`], [`${a};`, ';']]) {
      const events = one(input!)
      expect(calls(events), input).toEqual([call])
      expect(textOf(events), input).toBe(text)
    }
  })

  it('should not support a value after a separator that follows a block that is no call', () => {
    const input = `{"answer": 42}; ${b}`
    const events = one(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should not support a bare name with no parameters: text (as likely data as a call)', () => {
    const events = one('{"name": "read_file"} ok')
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['malformed-block'])
  })
})

describe('the blocks.json.anchored grammar field', () => {
  const base = { name: 'g', roles: { wrapper: [], invoke: [], parameter: [] }, frames: [defaultGrammar.frames.find((f) => f.name === 'xml')!] }

  it('should support values, optional openers and separators, with no opener of its own', () => {
    const g = validateGrammar({ ...base, blocks: { open: [], close: [], json: { open: [], anchored: { open: ['<|python_tag|>'], values: ['object', 'object'], separator: [';'] }, python: true } } })
    expect(g.blocks?.json).toEqual({ open: [], anchored: { open: ['<|python_tag|>'], values: ['object'], separator: [';'] }, python: true })
  })

  it('should not support a bad anchored field, naming it', () => {
    const cases: Array<[unknown, string]> = [
      [{ open: [], anchored: { values: [] } }, 'blocks.json.anchored.values'],
      [{ open: [], anchored: { values: ['string'] } }, 'blocks.json.anchored.values[0]'],
      [{ open: [], anchored: { values: ['array'], open: [''] } }, 'blocks.json.anchored.open[0]'],
      [{ open: ['[T]'], anchored: { values: ['array'], open: ['[T]'] } }, 'blocks.json.anchored.open[0]'],
      [{ open: [], anchored: { values: ['array'], separator: [' '] } }, 'blocks.json.anchored.separator[0]'],
      [{ open: [], anchored: { values: ['array'], extra: 1 } }, 'blocks.json.anchored.extra'],
      [{ open: [], anchored: { values: ['array'] }, python: 'yes' }, 'blocks.json.python'],
      [{ open: [] }, 'blocks.json.open'],
    ]
    for (const [json, field] of cases) {
      expect(caught(() => validateGrammar({ ...base, blocks: { open: [], close: [], json } })).field, JSON.stringify(json)).toBe(field)
    }
  })
})

describe('quoted calls in blocks anchored at the message start', () => {
  it('should not support a call the user quoted anywhere, echoed at the message start', () => {
    for (const [dialect, variant] of layouts) {
      const block = formatToolCalls([call], { dialect, variant })
      const quoted = [`Why does \`${block}\` fail? And {not json] or [x, then`]
      const events = expectChunkInvariant(`${block} is what you asked about.`, { dialect, quoted })
      expect(calls(events), dialect).toEqual([])
      expect(codes(events), dialect).toEqual(['quoted-example'])
      // a call the user did not quote is a call
      expect(calls(expectChunkInvariant(formatToolCalls([other], { dialect, variant }), { dialect, quoted })), dialect).toEqual([other])
    }
  })
})

describe('the trailing tokens of blocks anchored at the message start', () => {
  it('should support a trailing token right after the value, part of the block, and a start of one that is not it', () => {
    const cases: Array<[string, string, string]> = [
      ['llama3-json', '{"name": "read_file", "parameters": {"path": "src/a.ts", "limit": 40}}', '<|eom_id|>'],
      ['llama3-json', '<|python_tag|>{"name": "read_file", "parameters": {"path": "src/a.ts", "limit": 40}}', '<|eot_id|>'],
      ['pythonic', "<|python_start|>[read_file(path='src/a.ts', limit=40)]", '<|python_end|>'],
    ]
    for (const [dialect, block, token] of cases) {
      const events = expectChunkInvariant(`${block}${token} ok`, { dialect })
      expect(calls(events), token).toEqual([call])
      expect(textOf(events), token).toBe(' ok')
      const raw = events.find((e) => e.type === 'tool-call')
      expect(raw?.type === 'tool-call' && raw.raw, token).toBe(block + token)
      for (const [input, text] of [[`${block}${token.slice(0, 4)}`, token.slice(0, 4)], [`${block} ${token}`, ` ${token}`]]) {
        const e = expectChunkInvariant(input!, { dialect })
        expect(calls(e), input).toEqual([call])
        expect(textOf(e), input).toBe(text)
      }
    }
  })
})

describe('lists of packs with blocks at the message start', () => {
  it('should support one beside a pack with JSON openers, and beside another at the start', () => {
    const cases: Array<[string[], string, string[], string]> = [
      [['llama3-json', 'mistral'], '{"name": "read_file", "parameters": {"path": "src/a.ts", "limit": 40}} then [TOOL_CALLS][{"name": "list_dir", "arguments": {"path": "."}}] and {"name": "x", "parameters": {}}', ['read_file', 'list_dir'], ' then  and {"name": "x", "parameters": {}}'],
      [['mistral', 'pythonic'], "[read_file(path='src/a.ts', limit=40)] then [TOOL_CALLS][{\"name\": \"list_dir\", \"arguments\": {\"path\": \".\"}}]", ['read_file', 'list_dir'], ' then '],
      [['xlam', 'llama3-json'], '{"name": "read_file", "parameters": {"path": "src/a.ts", "limit": 40}}; {"name": "list_dir", "arguments": {"path": "."}} x', ['read_file', 'list_dir'], ' x'],
      [['pythonic', 'xlam'], '[{"name": "read_file", "arguments": {"path": "src/a.ts", "limit": 40}}] x [list_dir(path=\'.\')]', ['read_file'], " x [list_dir(path='.')]"],
    ]
    for (const [dialect, input, names, text] of cases) {
      const events = expectChunkInvariant(input, { dialect })
      expect(calls(events).map((c) => c.name), dialect.join('+')).toEqual(names)
      expect(textOf(events), dialect.join('+')).toBe(text)
    }
  })
})
