/**
 * Deterministic linearity: the adversarial inputs of the benchmark, streamed
 * at 1-char and 4-char chunking, asserted on the sieve's counters, never on
 * times. For each: characters handed to the lexer ≤ 3 × input length, and
 * the undecided tail held outside a capture never longer than the longest
 * grammar delimiter (or, for a backtick run in an open HTML tag, than the
 * look-ahead that decides it).
 *
 * Sizes are scaled down from the (100k `<`, 10k blocks) so the file
 * runs in seconds; the bounds are per character, so they do not depend on
 * the size, and a quadratic path would overshoot them by far.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar } from '../src/index.js'
import { compileLexer } from '../src/lexer/lexer.js'
import { unclosedCdata } from '../bench/adversarial.js'
import { candidateLookahead } from '../src/lexer/line-cursor.js'
import type { SieveOptions, SieveStats } from '../src/types.js'

const TARGET = 3
const maxDelimiter = compileLexer(defaultGrammar).maxDelimiter

const dsml = (l: string, a = '') => `<｜DSML｜${l}${a}>`
const dsmlClose = (l: string) => `</｜DSML｜${l}>`
/** One real call, canonical DSML. */
const realCall =
  dsml('tool_calls') + dsml('invoke', ' name="read_file"') + dsml('parameter', ' name="path"') + 'src/a.ts' + dsmlClose('parameter') + dsmlClose('invoke') + dsmlClose('tool_calls')
/** Text with every construct character, no blank line and no wrapper closer. */
const noise = (n: number) => 'words < and > `ticks` ~~ ｜ | </invoke> ＜ "q" ]] -- 中文\n'.repeat(Math.ceil(n / 52))
const nested = (depth: number) => '<a><b x="1">'.repeat(depth) + 'leaf' + '</b></a>'.repeat(depth)

interface Case {
  name: string
  input: string
  /** Calls a correct sieve finds. */
  calls: number
  opts?: SieveOptions
  /**
   * A held tail longer than the longest delimiter, by design: a backtick run
   * in an open HTML tag waits for the tag to end, up to `candidateLookahead`.
   */
  maxHeld?: number
}

const CASES: Case[] = [
  { name: '10k lone `<`', input: '<'.repeat(10_000), calls: 0 },
  { name: '1.5k `<|DSML|` mentions, then one real call', input: '<|DSML|'.repeat(1500) + realCall, calls: 1 },
  { name: 'an unclosed fence, then 20k of text', input: '```xml\n' + realCall + '\n' + noise(20_000), calls: 0 },
  { name: 'an unclosed CDATA, then 20k of text', input: dsml('tool_calls') + dsml('invoke', ' name="w"') + dsml('parameter', ' name="c"') + '<![CDATA[' + noise(20_000), calls: 0 },
  { name: 'an unclosed attribute quote, then 20k of text', input: '<tool_calls><invoke name="' + noise(20_000), calls: 0 },
  { name: 'an unclosed code span, then 20k of text with tags', input: 'Use ` then ' + realCall + ' ' + noise(20_000), calls: 0 },
  { name: '1k tiny blocks in a row (plain XML)', input: '<tool_calls><invoke name="a"></invoke></tool_calls>'.repeat(1000), calls: 1000 },
  { name: '500 tiny blocks in a row (DSML)', input: (dsml('tool_calls') + dsml('invoke', ' name="a"') + dsmlClose('invoke') + dsmlClose('tool_calls')).repeat(500), calls: 500 },
  { name: 'deep nested XML (2k levels) in a parameter value', input: '<tool_calls><invoke name="w"><parameter name="x">' + nested(2000) + '</parameter></invoke></tool_calls>', calls: 1 },
  // Beyond the list: inputs that make the driver lex the same text again and again.
  {
    name: 'unclosed CDATA openers every 70 chars past a 4 KiB capture limit',
    input: ('<tool_calls><invoke name="a"><parameter name="p"><![CDATA[' + 'x'.repeat(12)).repeat(300),
    calls: 0,
    opts: { captureLimit: 4096 },
  },
  {
    // the benchmark's own input at full size: the capture passes the default limit, and the rescan of the released
    // 256 KiB once re-lexed everything after each paragraph end that sent the driver back (6.7× before windowed restarts)
    name: 'the bench\'s unclosed CDATA: 1 MB of code with tags and backticks past the default capture limit, then a block inside it',
    input: unclosedCdata(1).text,
    calls: 0,
  },
  // The Markdown guard's newer constructs: a run held in an open tag, quoted fences, indented code.
  {
    name: 'a backtick in a tag attribute, then 10k of `x (the tag still open)',
    input: '<a title="' + '`x'.repeat(5000) + '">\n\n' + realCall,
    calls: 1,
    maxHeld: candidateLookahead,
  },
  {
    name: '60 tags left open 300 characters after a backtick',
    input: ('<a title="`' + 'x'.repeat(300) + '\n').repeat(60) + '\n' + realCall,
    calls: 1,
    maxHeld: candidateLookahead,
  },
  { name: '2k tags with a backtick in an attribute', input: '<a href="`">` '.repeat(2000) + '\n\n' + realCall, calls: 1 },
  { name: '1k quoted fences three quotes deep', input: '> > > ```\n> > > x\n'.repeat(1000) + '\n' + realCall, calls: 1 },
  { name: '300 blocks in indented code', input: ('\n\n    ' + realCall).repeat(300), calls: 0 },
  {
    // each paragraph holds a tag after an unmatched backtick and releases it at its end: a restart per paragraph
    name: '20k paragraphs, each a tag held after an unmatched backtick',
    input: '`x <｜DSML｜tool_calls> y\n\n'.repeat(20000),
    calls: 0,
  },
  {
    // every tag waits after a run no later run matches: each halt at the paragraph's end re-lexes from the tag it
    // held, and from the second halt the later tags stay text (3.01× and 3.05× at 1- and 4-char chunks, 4.0× pushed
    // whole, when it was the third)
    name: 'a staircase of held tags (`` ` <t> `` <t> ``` <t> … ``), one paragraph',
    input: Array.from({ length: 120 }, (_, i) => '`'.repeat(i + 1) + ' <tool_calls> ').join('') + '\n\nend',
    calls: 0,
  },
  {
    // the staircase with a voided fence opener on every other line: each such line halts a hold of its own inside
    // the paragraph, and those halts reset the paragraph's count, which then never bounded it (52× its length at
    // 40 units, as here, in any chunking; 212× at 160)
    name: 'held tags after unmatched runs, and in voided fence openers\' info strings, in turn, one paragraph',
    input: 'x ' + Array.from({ length: 40 }, (_, i) => 'a ' + '`'.repeat(3 * i + 4) + ' <tool_calls> a\n' + '`'.repeat(3 * i + 5) + ' <tool_calls> ' + '`'.repeat(3 * i + 6) + '\n').join('') + '\n\nend',
    calls: 0,
  },
]

/** Characters lexed per input character, at most, for an input pushed whole (see the test). */
const WHOLE_CEILING = 6

function stream(input: string, size: number, opts: SieveOptions = {}): { stats: SieveStats; calls: number; text: number } {
  const sieve = createSieve(opts)
  let calls = 0
  let text = 0
  const take = (events: ReturnType<typeof sieve.push>) => {
    for (const e of events) {
      if (e.type === 'tool-call') calls++, (text += e.raw.length)
      else if (e.type === 'text') text += e.text.length
    }
  }
  for (let i = 0; i < input.length; i += size) take(sieve.push(input.slice(i, i + size)))
  take(sieve.end())
  return { stats: sieve.stats(), calls, text }
}

describe('linearity (counters, not times)', () => {
  // a finished response pushed at once: the driver lexes it in windows, and a restart (a hold released, a capture
  // over the limit) lexes again from where it restarts; windows after a restart start small, so what a restart
  // throws away stays near what was lexed since the one before (a restart per paragraph once cost 326×)
  it.each(CASES.map((c) => [c.name, c] as const))(`should support %s pushed whole: lexed ≤ ${WHOLE_CEILING} × length`, (_, c) => {
    const { stats, calls, text } = stream(c.input, c.input.length, c.opts)
    expect(text, 'every character leaves once').toBe(c.input.length)
    expect(calls).toBe(c.calls)
    expect(stats.charsLexed / c.input.length).toBeLessThanOrEqual(WHOLE_CEILING)
  })

  it('should support a positive longest delimiter to bound the held tail', () => {
    expect(maxDelimiter).toBeGreaterThan(0)
  })

  describe.each(CASES)('$name', (c) => {
    it.each([1, 4] as const)('should support %i-char chunks: lexed ≤ 3 × length, held tail ≤ longest delimiter', (size) => {
      const { stats, calls, text } = stream(c.input, size, c.opts)
      expect(text, 'every character leaves once').toBe(c.input.length)
      expect(calls).toBe(c.calls)
      expect(stats.maxHeldTail).toBeLessThanOrEqual(c.maxHeld ?? maxDelimiter)
      expect(stats.charsLexed / c.input.length).toBeLessThanOrEqual(TARGET)
    })
  })
})
