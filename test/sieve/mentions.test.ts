/**
 * Mentions. A wrapper tag mentioned in prose that never
 * forms a valid block is released as text, and a real block after it is still
 * found. Content that cannot belong to a block ends the capture: what was
 * captured goes out as text and scanning resumes at the offending character.
 * Silent when no invoke had opened; one `malformed-block` when one had.
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, diagnostics, expectChunkInvariant, outline, textOf } from '../helpers/chunking.js'
import { expectText } from '../helpers/guard.js'

const real = (name: string): string => `<tool_calls><invoke name="${name}"><parameter name="path">src/${name}.ts</parameter></invoke></tool_calls>`

/** `input` comes back as text with one `malformed-block` and no call, in every chunking. */
function expectMalformedText(input: string): void {
  const events = expectChunkInvariant(input)
  expect(calls(events)).toEqual([])
  expect(textOf(events)).toBe(input)
  expect(codes(events)).toEqual(['malformed-block'])
}

describe('mentions', () => {
  it.each([
    ['an opening and a closing mention', 'Use <tool_calls> to open and </tool_calls> to close.'],
    ['a DSML mention', 'The <｜DSML｜tool_calls> tag wraps calls, </｜DSML｜tool_calls> ends them.'],
    ['a fullwidth mention', '标签 ＜ＤＳＭＬ＜tool_calls＞ 用于调用工具。'],
    ['a function_calls mention', 'Older models wrote <function_calls> instead.'],
    ['mentions on separate lines', 'Wrap it:\n<tool_calls>\nthen the invokes\n</tool_calls>\nlike that.'],
    ['a closing mention alone', 'Close with </tool_calls> please.'],
    ['an invoke mention', 'The <invoke> tag is used inside.'],
    ['an invoke pair mention', 'The <invoke> tag and the </invoke> tag.'],
    ['a parameter mention', 'Each <parameter name="path"> holds a value.'],
    ['a parameter directly inside a wrapper', '<tool_calls>\n<parameter name="p">x</parameter>\n</tool_calls>'],
    ['a stray invoke closer inside a wrapper', '<tool_calls></invoke> then prose'],
    ['a stray parameter closer inside a wrapper', '<tool_calls>\n</parameter>\n</tool_calls>'],
    ['two openers in a row', '<tool_calls> <tool_calls> both mentioned.'],
  ])('should support %s as text, with no diagnostic', (_label, input) => {
    expectText(input)
  })

  it('should not support an opening mention swallowing the prose before a closing mention', () => {
    const input = 'Open with <tool_calls>, write invokes, close with </tool_calls>. Then:\n' + real('a')
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual([
      'Open with <tool_calls>, write invokes, close with </tool_calls>. Then:\n',
      { call: 'a', input: { path: 'src/a.ts' } },
    ])
  })

  it('should support a real block right after a mention', () => {
    const input = '<tool_calls> mention … then a real ' + real('a') + ' done'
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['<tool_calls> mention … then a real ', { call: 'a', input: { path: 'src/a.ts' } }, ' done'])
  })

  it('should support a real block whose opener directly follows a mention opener', () => {
    const input = 'Mention: <tool_calls>' + real('a')
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
    expect(textOf(events)).toBe('Mention: <tool_calls>')
  })

  it('should not support a block starting inside the value of an unfinished one (malformed; text up to the closer that balances its opener)', () => {
    const broken = '<tool_calls><invoke name="a"><parameter name="p">x '
    const input = broken + real('b') + ' y</parameter></invoke></tool_calls>'
    const events = expectChunkInvariant(input + ' then ' + real('c'))
    expect(calls(events)).toEqual([{ name: 'c', input: { path: 'src/c.ts' } }])
    expect(textOf(events)).toBe(input + ' then ')
    expect(codes(events)).toEqual(['malformed-block'])
    expect(diagnostics(events)[0]?.span).toEqual({ start: 0, end: broken.length })
  })

  it('should not support a bare invoke opener inside a value (malformed; text up to the block closer)', () => {
    const broken = '<tool_calls><invoke name="a"><parameter name="p">x '
    const rest = '<invoke name="b"></invoke></tool_calls>'
    const events = expectChunkInvariant(broken + rest + ' ' + real('c'))
    expect(calls(events)).toEqual([{ name: 'c', input: { path: 'src/c.ts' } }])
    expect(textOf(events)).toBe(broken + rest + ' ')
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should not support a block quoted in a value that never closes (the rest of the stream is text)', () => {
    const input = '<tool_calls><invoke name="a"><parameter name="p">x ' + real('b') + ' and later ' + real('c')
    expectMalformedText(input)
  })

  it('should not support prose after an invoke inside a wrapper (malformed once an invoke opened; the rest of the block is text)', () => {
    const input = '<tool_calls><invoke name="a"></invoke> oops ' + real('b')
    const events = expectChunkInvariant(input)
    // the broken block never closed: the real-looking block after it is inside it
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
    const span = diagnostics(events)[0]!.span
    expect(span.start).toBe(0)
    expect(input.slice(span.start, span.end).trimEnd()).toBe('<tool_calls><invoke name="a"></invoke>')
  })

  it('should not support a later invoke of a block that broke between invokes, nor a nested block of another family', () => {
    for (const input of [
      '<tool_calls><invoke name="a"><parameter name="p">1</parameter></invoke></invoke><invoke name="bash"><parameter name="c">1</parameter></invoke></tool_calls>',
      '<tool_calls><invoke name="a"></invoke>oops <invoke name="bash"/></tool_calls>',
      '<｜DSML｜tool_calls><｜DSML｜invoke name="a"></｜DSML｜invoke><tool_calls><invoke name="bash"/></tool_calls></｜DSML｜tool_calls>',
    ]) {
      const events = expectChunkInvariant(input + ' then ' + real('c'))
      expect(calls(events), input).toEqual([{ name: 'c', input: { path: 'src/c.ts' } }])
      expect(codes(events), input).toEqual(['malformed-block'])
    }
  })

  it('should not support a wrapper closer inside a value ending what is skipped (it is the value\'s text)', () => {
    for (const [open, close] of [['<tool_calls>', '</tool_calls>'], ['<｜DSML｜tool_calls>', '</｜DSML｜tool_calls>']]) {
      const input = `${open}<invoke name="f"><parameter name="x">see ${close}${open}<invoke name="bash"><parameter name="command">rm -rf ~</parameter></invoke>${close}</parameter></invoke>${close}`
      const events = expectChunkInvariant(input)
      expect(calls(events), input).toEqual([])
      expect(textOf(events)).toBe(input)
    }
  })

  it('should not support a stray closer of the wrong role inside an invoke (malformed)', () => {
    const input = '<tool_calls><invoke name="a"></parameter></invoke></tool_calls> end'
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
    expect(diagnostics(events)[0]?.span).toEqual({ start: 0, end: '<tool_calls><invoke name="a">'.length })
  })

  it('should not support a wrapper closer while an invoke is open (malformed)', () => {
    const input = '<tool_calls><invoke name="a"> </tool_calls> end'
    const events = expectChunkInvariant(input)
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should support a mention in Chinese prose followed by a DSML block', () => {
    const block = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="q" string="true">天气</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    const input = '使用 <｜DSML｜tool_calls> 标签。现在调用：\n' + block
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['使用 <｜DSML｜tool_calls> 标签。现在调用：\n', { call: 'search', input: { q: '天气' } }])
  })

  it('should support many mentions without any diagnostic', () => {
    const input = Array.from({ length: 12 }, (_, i) => `step ${i}: <tool_calls> and </tool_calls> and <invoke name="x${i}"> then </invoke>`).join('\n')
    const events = expectChunkInvariant(input)
    expect(events).toEqual([{ type: 'text', text: input }])
  })
})

describe('what is left of a broken block', () => {
  it('should not support a closer of another spelling family ending the skip (a later invoke of the broken block stays text)', () => {
    const input = '<|DSML|tool_calls><|DSML|invoke name="a"><|DSML|parameter name="p">x </tool_calls> z</|DSML|parameter></|DSML|invoke><|DSML|invoke name="b"></|DSML|invoke></|DSML|tool_calls> then ' + real('c')
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'c', input: { path: 'src/c.ts' } }])
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should not support later invokes of a block over the limit that breaks between invokes (text to its wrapper closer)', () => {
    const big = '<tool_calls><invoke name="a"><parameter name="p">' + 'x'.repeat(150) + '</parameter></invoke>\n`oops`\n<invoke name="b"></invoke></tool_calls>'
    const events = expectChunkInvariant(big + ' then ' + real('c'), { captureLimit: 100 })
    expect(calls(events)).toEqual([{ name: 'c', input: { path: 'src/c.ts' } }])
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it.each([
    ['prose on its line', '<invoke name="a"/> x'],
    ['prose on the next line', 'Sure:\n<invoke name="a"/>\nok'],
    ['a tilde run on its line', '<invoke name="a"/>  ~~~\n'],
  ])('should support a self-closing bare invoke that %s follows as text, whole or cut', (_label, input) => {
    expectMalformedText(input)
  })

  it('should support a backtick run breaking a block the same whole or cut (the run is not carried into the skip)', () => {
    const input = '<tool_calls><invoke name="a">```\n]]></parameter></invoke>\n<invoke name="b"></invoke></tool_calls> ok'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
  })
})

/**
 * What follows a released mention is read as prose reads it, from right
 * after the opener: a `<pre>` or `<code>` the mention's own mode read as a
 * stray `<`, and an indent it read as blanks, are code there, and a block
 * inside that code is an example. Found by a hostile fuzz.
 */
describe('what follows a released mention', () => {
  const example = '<tool_calls><invoke name="x"><parameter name="p">v</parameter></invoke></tool_calls>'
  it.each([
    ['a <pre> block after a blank line', `<tool_calls>\n\n<pre>\n${example}\n</pre>\n`],
    ['a <pre> block with a blank line inside it', `<tool_calls>\n\n<pre>\nhello world\n\n${example}\n</pre>\n`],
    ['a <textarea> block after a bare invoke mention', `<invoke>\n\n<textarea>\n${example}\n</textarea>\n`],
    ['a <style> block', `<tool_calls>\n\n<style>\n${example}\n</style>\n`],
    ['a mention in a sentence, then a <pre> block', `The tag is <tool_calls>\n\n<pre>\n${example}\n</pre>\n`],
    ['an invoke tag with a name, then a <pre> block', `<invoke name="a">\n\n<pre>\n${example}\n</pre>\n`],
    ['inline <code> on the next line', `<tool_calls>\n<code>${example}</code>\n`],
    ['inline <code> on the same line', `<tool_calls> <code>${example}</code>`],
    ['indented code after a blank line', `<tool_calls>\n\n    ${example}\n`],
    ['a code span after a bare invoke\'s JSON body', `<invoke name="y">{}\`${example}\``],
    ['a fence after a bare invoke\'s JSON body', `<invoke name="y">{}\n\`\`\`\n${example}\n\`\`\`\n`],
    ['a fence on the next line', `<tool_calls>\n\`\`\`\n${example}\n\`\`\`\n`],
  ])('should not support a call from %s', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a <pre> block after a blank line', `<invoke name="a"></invoke>\n\n<pre>\n${example}\n</pre>\n`],
    ['inline <code>', `<invoke name="a"></invoke> <code>${example}</code>\n`],
    ['indented code after a blank line', `<invoke name="a"></invoke>\n\n    ${example}\n`],
    ['a fence on the next line (a chunk may end inside its run)', `<invoke name="a"></invoke>\n\`\`\`\n${example}\n\`\`\`\n`],
  ])('should not support a call from %s after a bare invoke the stream broke', (_label, input) => {
    expectMalformedText(input)
  })

  it.each([
    ['code that goes on with a block', '<invoke name="y"></invoke>\n\n    <invoke name="y"></invoke> ' + example],
    ['code, then a tab-indented line', '<invoke name="y"></invoke>\n\n\t<invoke name="y"></invoke>\n\t' + example + '\n'],
    ['code the stream ends in', 'Sure.\n<invoke name="y"></invoke>\n\n    <invoke name="z"></invoke>'],
  ])('should not support an indented invoke after a blank line as a bare block\'s next invoke: %s', (_label, input) => {
    expectMalformedText(input)
  })

  it.each([
    ['an indented invoke after its line', '<invoke name="a"></invoke>\n<!-- c -->\n    <invoke name="x"></invoke>'],
    ['an indented block after its line', '<invoke name="a"></invoke>\n<!-- c -->\n    ' + example],
    ['a block on the rest of its line', '<invoke name="a"></invoke>\n<!-- -->' + example],
    ['a block on the line its end is on', '<invoke name="a"></invoke>\n<!-- a\nb --> ' + example],
  ])('should not support a call from %s, a comment at a line\'s start between a bare block\'s invokes (an HTML block)', (_label, input) => {
    expectMalformedText(input)
  })

  it('should support a comment inside a bare block\'s line between its invokes', () => {
    const input = '<invoke name="a"></invoke> <!-- c --> <invoke name="b"></invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input)).map((c) => c.name)).toEqual(['a', 'b'])
  })

  it('should support an indented invoke that goes on a bare block\'s paragraph', () => {
    const input = '<invoke name="y"></invoke>\n    <invoke name="z"></invoke>'
    expect(calls(expectChunkInvariant(input)).map((c) => c.name)).toEqual(['y', 'z'])
  })

  it('should support an indented invoke after a blank line inside a list item', () => {
    const input = '1. Run it:\n<invoke name="y"></invoke>\n\n    <invoke name="z"></invoke>'
    expect(calls(expectChunkInvariant(input)).map((c) => c.name)).toEqual(['y', 'z'])
  })

  it('should support indented invokes after a blank line inside a wrapper', () => {
    const input = '<tool_calls>\n<invoke name="y"></invoke>\n\n    <invoke name="z"></invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input)).map((c) => c.name)).toEqual(['y', 'z'])
  })

  it('should support a real block after a released mention and a blank line', () => {
    const input = `<tool_calls>\n\n${real('a')}\n`
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
  })
})
