/**
 * Inputs built to make a streaming reader hold, re-read or re-parse far more
 * than it should: one path each (lone `<`, mentions, unclosed constructs,
 * tiny blocks, deep values, held tags released at a paragraph's end, raw
 * HTML that holds a block). Each says what a correct reader finds in it, so
 * the behaviour spec (`test/sieve/adversarial-inputs.test.ts`) and the work
 * bounds (`test/perf/`) read the same inputs.
 */
import type { SieveOptions } from '../../src/types.js'

export interface AdversarialCase {
  name: string
  input: string
  /** Calls a correct reader finds (left out where the case is about work, not the answer). */
  calls?: number
  opts?: SieveOptions
  /**
   * A held tail longer than the longest delimiter, by design: a backtick run
   * in an open HTML tag waits for the tag to end, up to the look-ahead that
   * decides it (256 characters: CommonMark's raw HTML has no length limit,
   * the guard stops looking there).
   */
  maxHeld?: number
}

/** How far a backtick run inside an open HTML tag is looked past before the tag is taken as open. */
export const TAG_LOOKAHEAD = 256

const dsml = (l: string, a = '') => `<｜DSML｜${l}${a}>`
const dsmlClose = (l: string) => `</｜DSML｜${l}>`
/** One real call, canonical DSML. */
export const realCall =
  dsml('tool_calls') + dsml('invoke', ' name="read_file"') + dsml('parameter', ' name="path"') + 'src/a.ts' + dsmlClose('parameter') + dsmlClose('invoke') + dsmlClose('tool_calls')
/** Text with every construct character, no blank line and no wrapper closer. */
const noise = (n: number) => 'words < and > `ticks` ~~ ｜ | </invoke> ＜ "q" ]] -- 中文\n'.repeat(Math.ceil(n / 52))
const nested = (depth: number) => '<a><b x="1">'.repeat(depth) + 'leaf' + '</b></a>'.repeat(depth)
const xml = '<tool_calls><invoke name="a"><parameter name="p">x</parameter></invoke></tool_calls>'

/** Inputs built to make a reader lex the same text again and again, or hold it. */
export const ADVERSE: AdversarialCase[] = [
  { name: '10k lone `<`', input: '<'.repeat(10_000), calls: 0 },
  { name: '1.5k `<|DSML|` mentions, then one real call', input: '<|DSML|'.repeat(1500) + realCall, calls: 1 },
  { name: 'an unclosed fence, then 20k of text', input: '```xml\n' + realCall + '\n' + noise(20_000), calls: 0 },
  { name: 'an unclosed CDATA, then 20k of text', input: dsml('tool_calls') + dsml('invoke', ' name="w"') + dsml('parameter', ' name="c"') + '<![CDATA[' + noise(20_000), calls: 0 },
  { name: 'an unclosed attribute quote, then 20k of text', input: '<tool_calls><invoke name="' + noise(20_000), calls: 0 },
  { name: 'an unclosed code span, then 20k of text with tags', input: 'Use ` then ' + realCall + ' ' + noise(20_000), calls: 0 },
  { name: '1k tiny blocks in a row (plain XML)', input: xml.repeat(1000), calls: 1000 },
  { name: '500 tiny blocks in a row (DSML)', input: (dsml('tool_calls') + dsml('invoke', ' name="a"') + dsmlClose('invoke') + dsmlClose('tool_calls')).repeat(500), calls: 500 },
  { name: 'deep nested XML (2k levels) in a parameter value', input: '<tool_calls><invoke name="w"><parameter name="x">' + nested(2000) + '</parameter></invoke></tool_calls>', calls: 1 },
  {
    name: 'unclosed CDATA openers every 70 chars past a 4 KiB capture limit',
    input: ('<tool_calls><invoke name="a"><parameter name="p"><![CDATA[' + 'x'.repeat(12)).repeat(300),
    calls: 0,
    opts: { captureLimit: 4096 },
  },
  { name: 'a backtick in a tag attribute, then 10k of `x (the tag still open)', input: '<a title="' + '`x'.repeat(5000) + '">\n\n' + realCall, calls: 1, maxHeld: TAG_LOOKAHEAD },
  { name: '60 tags left open 300 characters after a backtick', input: ('<a title="`' + 'x'.repeat(300) + '\n').repeat(60) + '\n' + realCall, calls: 1, maxHeld: TAG_LOOKAHEAD },
  { name: '2k tags with a backtick in an attribute', input: '<a href="`">` '.repeat(2000) + '\n\n' + realCall, calls: 1 },
  { name: '1k quoted fences three quotes deep', input: '> > > ```\n> > > x\n'.repeat(1000) + '\n' + realCall, calls: 1 },
  { name: '300 blocks in indented code', input: ('\n\n    ' + realCall).repeat(300), calls: 0 },
  // a hold per paragraph, released at its end: a re-read from the held tag per paragraph
  { name: '5k paragraphs, each a tag held after an unmatched backtick', input: '`x <｜DSML｜tool_calls> y\n\n'.repeat(5000), calls: 0 },
  // every tag waits after a run no later run matches; each halt at the paragraph's end re-reads from the tag it held
  {
    name: 'a staircase of held tags (`` ` <t> `` <t> ``` <t> … ``), one paragraph',
    input: Array.from({ length: 120 }, (_, i) => '`'.repeat(i + 1) + ' <tool_calls> ').join('') + '\n\nend',
    calls: 0,
  },
  // the staircase with a voided fence opener on every other line: each such line halts a hold of its own
  {
    name: 'held tags after unmatched runs, and in voided fence openers\' info strings, in turn, one paragraph',
    input: 'x ' + Array.from({ length: 40 }, (_, i) => 'a ' + '`'.repeat(3 * i + 4) + ' <tool_calls> a\n' + '`'.repeat(3 * i + 5) + ' <tool_calls> ' + '`'.repeat(3 * i + 6) + '\n').join('') + '\n\nend',
    calls: 0,
  },
  // the shortest paragraphs that hold a tag and release it at their end: the most going back per character
  { name: '3k short paragraphs, each two tags held after unmatched runs', input: '`<invoke>``<invoke>\n\n'.repeat(3000), calls: 0 },
  { name: '3k short paragraphs, each a tag in an unclosed comment and one after a backtick', input: 'x<!--<invoke>`<invoke>\n\n'.repeat(3000), calls: 0 },
  // raw HTML that holds a block until its closer or the paragraph's end
  { name: 'paragraphs of a block in an unclosed comment', input: ('x <!-- ' + xml + '\n\n').repeat(400), calls: 400 },
  { name: 'a staircase of unclosed comments in one paragraph', input: ('A <!-- ' + xml + ' ').repeat(100) + '\n\nok' },
  { name: 'a staircase of unclosed <code> in one paragraph', input: ('x <code>' + xml + ' ').repeat(100) + '\n\nok' },
  { name: 'an unclosed <pre> block', input: '<pre>\n' + (xml + '\n- - < <pre </pr\n').repeat(200), calls: 0 },
  { name: 'an unclosed comment block', input: '<!--\n' + (xml + '\n- -- -> <\n').repeat(200), calls: 0 },
  { name: 'a paragraph of unclosed inline <code> lines', input: 'The <code> element, see below\n'.repeat(1000), calls: 0 },
  { name: 'a tight list of unclosed inline <code> items', input: '- The <code> element, see below\n'.repeat(1000), calls: 0 },
  { name: 'unclosed <code> tags with attributes, one line', input: 'x <CODE class="a"> '.repeat(1000), calls: 0 },
]

