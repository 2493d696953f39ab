/**
 * Drift spellings that real models emit (issue 14, item 6; ds2api accepts
 * them all), recognised by the frames of `grammar/default.json` — data, not
 * code — and the prose they must not make ambiguous. Every case runs through
 * the whole chunking matrix (whole, one character at a time, every split,
 * random splits). Values are plain (no `string` attribute) unless a case says
 * otherwise: a `string` value ends only at its opener's own closer.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, defaultGrammar, parseToolCalls } from '../../src/index.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { callEvents, codes, expectChunkInvariant, outline, textOf } from '../helpers/chunking.js'

/** How one drift writes a tag: opener start and closer start before the local name, and the tag ends. */
interface Tags {
  open(local: string, attrs?: string): string
  close(local: string): string
}

const tags = (open: string, close: string, end = '>', closeEnd = end): Tags => ({
  open: (local, attrs = '') => `${open}${local}${attrs}${end}`,
  close: (local) => `${close}${local}${closeEnd}`,
})

/**
 * One `read_file {path: "a.ts"}` block. `t` is one spelling for every tag,
 * or six, in document order: wrapper, invoke and parameter openers, then the
 * parameter, invoke and wrapper closers.
 */
function readFile(t: Tags | readonly Tags[], wrapper = 'tool_calls'): string {
  const [w, i, p, pc, ic, wc] = Array.isArray(t) ? t : [t, t, t, t, t, t]
  return [
    w!.open(wrapper),
    i!.open('invoke', ' name="read_file"'),
    p!.open('parameter', ' name="path"') + 'a.ts' + pc!.close('parameter'),
    ic!.close('invoke'),
    wc!.close(wrapper),
  ].join('\n')
}

const call = { call: 'read_file', input: { path: 'a.ts' } }

/** The block between two sentences is one call and nothing else: no diagnostic, every character accounted for. */
function expectCall(markup: string): void {
  const events = expectChunkInvariant('Reading it.\n' + markup + '\nDone.')
  expect(outline(events)).toEqual(['Reading it.\n', call, '\nDone.'])
  expect(callEvents(events)[0]?.raw).toBe(markup)
}

describe('drift spellings', () => {
  const cases: [string, Tags | Tags[]][] = [
    ['a lone ASCII bar without DSML (`<|tool_calls>`, `</|tool_calls>`)', tags('<|', '</|')],
    ['a lone fullwidth bar without DSML (`<｜tool_calls>`, `<｜parameter name="path">`)', tags('<｜', '</｜')],
    ['a lone bar between spaces (`< | invoke name="x">`, `</ | invoke >`)', tags('< | ', '</ | ', '>', ' >')],
    ['DSML without bars (`<DSMLinvoke name="x">`, `</DSMLparameter>`)', tags('<DSML', '</DSML')],
    ['DSML written twice (`<DSML|DSML|tool_calls>`)', tags('<DSML|DSML|', '</DSML|DSML|')],
    ['DSML written twice between fullwidth bars (`<｜DSML｜DSML｜invoke …>`)', tags('<｜DSML｜DSML｜', '</｜DSML｜DSML｜')],
    ['spaces and bars between `</` and the name and before `>` (`</ |DSML| parameter >`)', tags('<|DSML|', '</ |DSML| ', '>', ' >')],
    ['spaces around DSML and its bar in closers (`</ DSML | tool_calls >`)', tags('<｜DSML｜', '</ DSML | ', '>', ' >')],
    ['spaces around DSML and its bar in openers (`< DSML | invoke name="x">`)', tags('< DSML | ', '</DSML|')],
    ['a space after `<` on plain tags (`< tool_calls>`, `</tool_calls>`)', tags('< ', '</')],
    ['spaces around `/` in plain closers (`</ parameter >`, `< /invoke>`)', [tags('<', '</'), tags('<', '</'), tags('<', '</'), tags('<', '</ ', '>', ' >'), tags('<', '< /'), tags('<', '<\t/\t', '>', '\t>')]],
    ['repeated leading `<` on plain tags (`<<<tool_calls>`, `<</invoke>`)', tags('<<<', '<</')],
    ['repeated leading `<` on DSML tags (`<<<<｜DSML｜invoke …>`)', tags('<<<<｜DSML｜', '<<</｜DSML｜')],
    ['a trailing bar before `>` (`<|DSML|invoke name="x"|>`, `</|DSML|parameter|>`)', tags('<|DSML|', '</|DSML|', '|>')],
    ['a trailing bar that ends the tag alone (`</|DSML|parameter|`)', tags('<|DSML|', '</|DSML|', '|>', '|')],
  ]
  for (const [what, t] of cases) {
    it(`should support ${what}`, () => expectCall(readFile(t)))
  }

  it('should support a different drift on each tag of one block', () => {
    expectCall(readFile([tags('<|', '</|'), tags('<DSML', '</DSML'), tags('<<<', '</'), tags('<', '</ |DSML| ', '>', ' >'), tags('<', '</DSML'), tags('<', '< /')]))
  })

  it('should support every wrapper name in the drift frames (`<|function_calls>`, `<DSML|DSML|calls>`)', () => {
    expectCall(readFile(tags('<|', '</|'), 'function_calls'))
    expectCall(readFile(tags('<DSML|DSML| ', '</DSML|DSML| '), 'calls'))
  })

  it('should support a `string` value closed by its own drift spelling', () => {
    const markup = '<|tool_calls>\n<|invoke name="read_file">\n<|parameter name="path" string="true">a.ts</|parameter>\n</|invoke>\n</|tool_calls>'
    expectCall(markup)
  })

  /** Tags of `open` / `close` (DSML spellings) with `gap` between each opener's name and its attributes. */
  const gapped = (open: string, close: string, gap: string, end = '>'): Tags => ({ ...tags(open, close, end), open: (local, attrs = '') => `${open}${local}${attrs === '' ? '' : gap + attrs}${end}` })

  it('should support a trailing bar between the name and the attributes (`<|DSML|invoke| name="x">`)', () => {
    expectCall(readFile(gapped('<|DSML|', '</|DSML|', '|')))
  })

  it('should support a trailing fullwidth bar between the name and the attributes (`<｜DSML｜invoke｜ name="x">`)', () => {
    expectCall(readFile(gapped('<｜DSML｜', '</｜DSML｜', '｜')))
  })

  it('should support the bar doubled, mixed with another drift, and on the invoke alone (`<|DSML|invoke|| name="x"|>`)', () => {
    expectCall(readFile(gapped('<|DSML|', '</|DSML|', '||', '|>')))
    expectCall(readFile(gapped('<｜DSML｜', '</｜DSML｜', '|')))
    const dsml = tags('<|DSML|', '</|DSML|')
    expectCall(readFile([dsml, gapped('<|DSML|', '</|DSML|', '|'), dsml, dsml, dsml, dsml]))
    expectCall(readFile([dsml, gapped('<|DSML|', '</|DSML|', '｜\n'), dsml, dsml, tags('<', '</|DSML|', '>', '|>'), dsml]))
  })

  it('should support the bar before a `string` attribute, the value read exactly (`<|DSML|parameter name="x"| string="true">`)', () => {
    const markup = '<|DSML|tool_calls>\n<|DSML|invoke| name="read_file">\n<|DSML|parameter| name="path"| string="true">a.ts</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|tool_calls>'
    expectCall(markup)
  })

  it('should support the grep call that asked for it, in every chunking', () => {
    const markup = '<|DSML|tool_calls><|DSML|invoke| name="grep"><|DSML|parameter| name="pattern">TODO</|DSML|parameter></|DSML|invoke|></|DSML|tool_calls|>'
    for (const input of [markup, markup.replaceAll('|', '｜')]) {
      const events = expectChunkInvariant(input)
      expect(outline(events)).toEqual([{ call: 'grep', input: { pattern: 'TODO' } }])
      expect(callEvents(events)[0]?.raw).toBe(input)
    }
  })

  it('should not support a bar that no attribute follows as a gap: it ends the tag as before (`<|DSML|tool_calls|` then a line)', () => {
    // the wrapper's bar ends its tag; before `<` (no attribute) it is not a gap
    expectCall(readFile([tags('<|DSML|', '</|DSML|', '|'), ...Array<Tags>(5).fill(tags('<|DSML|', '</|DSML|'))]))
    // more blanks than the drift allows: the bar ends the invoke's tag, which then has no name
    const markup = readFile([tags('<|DSML|', '</|DSML|'), gapped('<|DSML|', '</|DSML|', '|    '), ...Array<Tags>(4).fill(tags('<|DSML|', '</|DSML|'))])
    const events = expectChunkInvariant(markup)
    expect(callEvents(events)).toEqual([])
    expect(textOf(events)).toBe(markup)
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should support holding back no more than the longest delimiter', () => {
    const { maxDelimiter } = compileLexer(defaultGrammar)
    // a closer: 4 `<`, 2 spaces, `/`, 4 separators, `DSML|DSML`, 4 separators, `function_calls`, 4 spaces, `||  >`
    expect(maxDelimiter).toBe(47)
    const tail = '<<<< / | |DSML|DSML| \t|function_calls'
    const sieve = createSieve()
    const out = sieve.push('x'.repeat(100) + tail)
    expect(textOf(out)).toBe('x'.repeat(100))
    expect(tail.length).toBeLessThanOrEqual(maxDelimiter)
    expect(textOf(sieve.end())).toBe(tail)
  })
})

describe('prose near the drift spellings', () => {
  const prose: [string, string][] = [
    ['a comparison', 'if a < b and c > d'],
    ['an arrow-ish `<|`', 'x <| y'],
    ['a generic type', 'use List<String> here'],
    ['a chat-template token', '<|im_start|>user\nhi<|im_end|>'],
    ['a Kimi-K2 section token, whose name runs on', '<|tool_calls_section_begin|> and <|tool_call_begin|>'],
    ['`|DSML|` alone', 'the |DSML| prefix and ｜DSML｜ too'],
    ['DSML glued to another word', 'see <DSMLfoo> and <DSML>'],
    ['a shift', 'a << b, c <<< d'],
    ['a bar before a longer name', '<| tool_calls_extra> and < invoker>'],
    ['DeepSeek special tokens', '<｜begin▁of▁sentence｜>hi<｜end▁of▁sentence｜>'],
  ]
  for (const [what, text] of prose) {
    it(`should not support ${what} as tool-call syntax`, () => {
      const events = expectChunkInvariant(text)
      expect(outline(events)).toEqual([text])
      expect(codes(events)).toEqual([])
      expect(parseToolCalls(text).sawToolCallSyntax).toBe(false)
    })
  }
})
