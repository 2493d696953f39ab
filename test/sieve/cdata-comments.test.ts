/**
 * CDATA and comments in values: CDATA sections and `<!-- -->` comments inside a
 * parameter are opaque. Markup inside them is not structure; a CDATA value is
 * kept verbatim (not trimmed).
 */
import { describe, expect, it } from 'vitest'
import { callEvents, calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { SPELLINGS, block } from '../helpers/blocks.js'
import { createSieve } from '../../src/index.js'

function xmlCall(name: string, param: string, value: string): string {
  return `<tool_calls><invoke name="${name}"><parameter name="${param}">${value}</parameter></invoke></tool_calls>`
}

function expectOneCall(input: string, name: string, value: Record<string, unknown>): void {
  const events = expectChunkInvariant(input)
  expect(calls(events)).toEqual([{ name, input: value }])
  expect(codes(events)).toEqual([])
  expect(textOf(events)).toBe('')
}

describe('CDATA', () => {
  it('should support `</parameter>` inside CDATA without closing the parameter', () => {
    expectOneCall(xmlCall('w', 'code', '<![CDATA[a</parameter>b]]>'), 'w', { code: 'a</parameter>b' })
  })

  it('should support `</invoke></tool_calls>` inside CDATA without closing the block', () => {
    expectOneCall(xmlCall('w', 'code', '<![CDATA[</invoke></tool_calls>]]>'), 'w', { code: '</invoke></tool_calls>' })
  })

  it('should support DSML closers inside CDATA', () => {
    const input =
      '<｜DSML｜tool_calls><｜DSML｜invoke name="w"><｜DSML｜parameter name="code">' +
      '<![CDATA[x</｜DSML｜parameter></｜DSML｜tool_calls>]]></｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'
    expectOneCall(input, 'w', { code: 'x</｜DSML｜parameter></｜DSML｜tool_calls>' })
  })

  it('should support a whole block inside CDATA as content', () => {
    const inner = block(SPELLINGS[0]!, [{ name: 'inner', params: { path: 'a' } }])
    expectOneCall(xmlCall('w', 'content', `<![CDATA[${inner}]]>`), 'w', { content: inner })
  })

  it('should support CDATA content verbatim, not trimmed', () => {
    expectOneCall(xmlCall('w', 'code', '<![CDATA[  x  \n]]>'), 'w', { code: '  x  \n' })
  })

  it('should support whitespace around the CDATA section', () => {
    expectOneCall(xmlCall('w', 'code', '\n  <![CDATA[ keep me ]]>\n'), 'w', { code: ' keep me ' })
  })

  it('should support `]`, `]]` and `>` inside CDATA', () => {
    expectOneCall(xmlCall('w', 'code', '<![CDATA[a]]b]c > d]>]]>'), 'w', { code: 'a]]b]c > d]>' })
  })

  it('should end CDATA at the last `]]>` of a run of brackets (`a]]]>`, `]]]]>`)', () => {
    expectOneCall(xmlCall('w', 'code', '<![CDATA[a]]]>'), 'w', { code: 'a]' })
    expectOneCall(xmlCall('w', 'code', '<![CDATA[]]]]>'), 'w', { code: ']]' })
    expectOneCall(xmlCall('w', 'code', '<![CDATA[x[0]]]]>'), 'w', { code: 'x[0]]' })
  })

  it('should release an unterminated CDATA ending in `]` or `]]` as text', () => {
    for (const tail of [']', ']]', 'a]', 'a]]']) {
      const input = `<tool_calls><invoke name="w"><parameter name="code"><![CDATA[${tail}`
      expect(textOf(expectChunkInvariant(input))).toBe(input)
    }
  })

  it('should support bracketed code in CDATA pushed whole (4,000 brackets that end nothing)', () => {
    // what the brackets cost to read is bounded in test/perf/scaling.test.ts
    const code = 'rows[i][j] = grid[k];\n'.repeat(500)
    const sieve = createSieve()
    const events = [...sieve.push(xmlCall('w', 'code', `<![CDATA[${code}]]>`)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'w', input: { code } }])
  })

  it('should support fences, backticks and blank lines inside CDATA', () => {
    const body = '```\n<tool_calls>\n```\n\n`x` ` lone'
    expectOneCall(xmlCall('w', 'content', `<![CDATA[${body}]]>`), 'w', { content: body })
  })

  it('should support CDATA in every spelling family', () => {
    for (const s of SPELLINGS) {
      const input = block(s, [{ name: 'w', params: { code: `<![CDATA[${s.close('parameter')}]]>` } }])
      expectOneCall(input, 'w', { code: s.close('parameter') })
    }
  })

  it('should not support `]]>` outside CDATA as special', () => {
    expectOneCall(xmlCall('w', 'note', 'a ]]> b'), 'w', { note: 'a ]]> b' })
  })

  it('should support an unclosed CDATA in a block otherwise complete at end of stream (repaired-cdata)', () => {
    const input = 'x ' + xmlCall('w', 'code', '<![CDATA[a')
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'w', input: { code: 'a' } }])
    expect(codes(events)).toEqual(['repaired-cdata'])
  })

  it('should support an unclosed CDATA cut at its closer when text follows the block (the text stays text)', () => {
    const input = 'x ' + xmlCall('w', 'code', '<![CDATA[a') + ' and more'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'w', input: { code: 'a' } }])
    expect(textOf(events)).toBe('x  and more')
    expect(codes(events)).toEqual(['repaired-cdata'])
  })

  it('should not support CDATA in prose as anything but text', () => {
    const input = 'Prose <![CDATA[ x ]]> more.'
    expect(expectChunkInvariant(input)).toEqual([{ type: 'text', text: input }])
  })
})

describe('comments', () => {
  it('should support `</parameter>` inside a comment without closing the parameter', () => {
    const input = xmlCall('w', 'path', 'src/a.ts<!-- </parameter> -->')
    const events = expectChunkInvariant(input)
    expect(calls(events).map((c) => [c.name, Object.keys(c.input)])).toEqual([['w', ['path']]])
    expect(callEvents(events)[0]?.raw).toBe(input)
    expect(codes(events)).toEqual([])
  })

  it('should support block closers inside a comment without closing the block', () => {
    const input = xmlCall('w', 'path', '<!-- </invoke></tool_calls> -->src/a.ts') + ' after'
    const events = expectChunkInvariant(input)
    expect(calls(events).map((c) => c.name)).toEqual(['w'])
    expect(textOf(events)).toBe(' after')
    expect(codes(events)).toEqual([])
  })

  it('should end a comment at the first `-->`, whatever dashes come before it (`a - b`, `x--y`, `--->`)', () => {
    for (const comment of ['<!-- a - b -->', '<!-- x--y -->', '<!-- -- -->', '<!---->', '<!--- a --->', '<!-- <!-- -->']) {
      const input = xmlCall('w', 'path', `src/a.ts${comment}`) + ' after'
      const events = expectChunkInvariant(input)
      expect(calls(events).map((c) => c.name)).toEqual(['w'])
      expect(callEvents(events)[0]?.raw).toBe(xmlCall('w', 'path', `src/a.ts${comment}`))
      expect(textOf(events)).toBe(' after')
    }
  })

  it('should not support `--` or `-` at the end of the stream closing a comment (unterminated)', () => {
    for (const tail of ['-', '--', 'a--', '- -']) {
      const input = xmlCall('w', 'path', 'a<!-- b').replace(/<\/parameter>.*$/, '') + tail
      const events = expectChunkInvariant(input)
      expect(calls(events)).toEqual([])
      expect(textOf(events)).toBe(input)
    }
  })

  it('should support dashes in a comment pushed whole (4,000 dashes that end nothing)', () => {
    // what the dashes cost to read is bounded in test/perf/scaling.test.ts
    const comment = '<!-- ' + 'a - b -- c <!-- d\n'.repeat(1000) + '-->'
    const sieve = createSieve()
    const events = [...sieve.push(xmlCall('w', 'path', `src/a.ts${comment}`)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'w', input: { path: 'src/a.ts' } }])
  })

  it('should not support an unclosed comment ending the block (unterminated)', () => {
    const input = xmlCall('w', 'path', 'a<!-- b')
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['unterminated-block'])
  })
})
