/**
 * Chunk ends at the places a streaming reader must carry something across:
 * inside fence content and its closer, CDATA and comment ends, a tag's name
 * and attributes, inline code runs, a tag held after an unmatched run. Each
 * gives the events of the whole input, however the chunks fall (the
 * cases a fast path must get exactly right; what they cost to read is
 * bounded in `test/perf/`).
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/types.js'

const block = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'
const call = { name: 'a', input: { p: 'x' } }

/** `chunks` pushed on to a fresh sieve, then its end: all the events. */
function pushed(chunks: readonly string[]): SieveEvent[] {
  const sieve = createSieve()
  return [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
}

/** Each character pushed on its own: the events of each push, the end's last. */
function perCharacter(input: string): SieveEvent[][] {
  const sieve = createSieve()
  return [...[...input].map((c) => sieve.push(c)), sieve.end()]
}

describe('chunk boundaries: fences', () => {
  it('should support fence content with inline backticks and tildes (text) and a closer after it', () => {
    expect(calls(expectChunkInvariant('```sh\ncd ~/src && echo `pwd`\n' + block + '\n  ```\nafter\n' + block))).toEqual([call])
  })

  it('should support a fence closer whose indent and run arrive in separate chunks', () => {
    const events = pushed(['```\n', block, '\n  ', '```', '\n', block])
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('```\n' + block + '\n  ```\n')
  })

  it('should support a line-start run in fence content closing it (a longer run of the same character)', () => {
    expect(calls(expectChunkInvariant('~~~\n' + block + '\n~~~~\n' + block))).toEqual([call])
  })

  it('should support a mid-line backtick run in fence content, and line-start runs that cannot close it', () => {
    expect(calls(expectChunkInvariant('```js\nconst s = `a${b}` + ``\n```\n' + block))).toEqual([call])
    expect(calls(expectChunkInvariant('````md\n``` three is too short\n` one\n~~~~ tildes\n' + block + '\n````\n' + block))).toEqual([call])
    expect(calls(expectChunkInvariant('```js\nconst a = 1\n```\n' + block))).toEqual([call])
  })

  it('should support fences opened and closed inside chunks, tags in them text', () => {
    const chunks = ['Look:\n```ts\nconst', ' a = <tool_calls>;\n', '}\n```\nThen:\n', '~~~\n<tool_calls>\n~~~', '\n', 'done.']
    const events = pushed(chunks)
    expect(textOf(events)).toBe(chunks.join(''))
    expect(calls(events)).toEqual([])
  })

  it.each([
    ['- item\n  ```\n  <tool_calls>\n  ```\n' + block, 1],
    ['> ```\n> x\n> ```\n' + block, 1],
    ['````\n```\n' + block + '\n````\nafter ' + block, 1],
    ['```\na ``` b\n ```` \n' + block, 1],
    // a closer takes no info string: the block stays inside the fence
    ['```js\nx\n```js\n' + block + '\n```\n', 0],
  ])('should support fences in list items and block quotes, and runs that only look like closers (%#)', (input, n) => {
    expect(calls(expectChunkInvariant(input))).toHaveLength(n)
  })
})

describe('chunk boundaries: CDATA and comments in a value', () => {
  it('should support brackets in CDATA content, and `]]>` split anywhere', () => {
    for (const value of ['a[i] = b[[0]] ]] > ] ]>', 'a[i] = b[[0]]]', 'a]']) {
      const input = `<tool_calls>\n  <invoke name="a">\n    <parameter name="p"><![CDATA[${value}]]></parameter>\n  </invoke>\n</tool_calls>`
      expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: value } }])
    }
  })

  it('should support dashes in a comment in a value, and `-->` split anywhere', () => {
    const input = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x<!-- a - b -- c <!-- -- --></parameter>\n  </invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([call])
  })

  it('should not support a comment past the capture limit as a call: it goes out as text, chunks after it too', () => {
    const sieve = createSieve({ captureLimit: 64 })
    const head = '<tool_calls>\n<invoke name="a">\n<parameter name="p"><!-- ' + 'x'.repeat(80)
    const events = sieve.push(head)
    expect(codes(events)).toEqual(['capture-limit'])
    events.push(...['a <!-- ', 'b -- ', 'c <', '!-- d'].flatMap((c) => sieve.push(c)), ...sieve.end())
    expect(textOf(events)).toBe(head + 'a <!-- b -- c <!-- d')
  })
})

describe('chunk boundaries: tags', () => {
  it('should support a whole opening tag name at a chunk end held until its boundary arrives', () => {
    const sieve = createSieve()
    const events = [...sieve.push('x <tool_'), ...sieve.push('calls')]
    expect(textOf(events)).toBe('x ')
    events.push(...sieve.push('>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'), ...sieve.end())
    expect(calls(events)).toEqual([call])
    // a name character instead: no tag started at the `<`, all of it is text
    expect(textOf(pushed(['x <tool_', 'calls', '_list> y']))).toBe('x <tool_calls_list> y')
  })

  it('should support a `<` that starts nothing once the next chunk arrives (`if a <` + ` b`) as text', () => {
    expect(textOf(pushed(['if a <', ' b then', ' <', '= c']))).toBe('if a < b then <= c')
  })

  it('should support a complete opener waiting for its boundary (`<tool_calls` + `>`) opening a block', () => {
    expect(calls(perCharacter('x ' + block).flat())).toEqual([call])
  })

  it('should support indentation between block tags streamed on its own', () => {
    const events = pushed(block.split(/(\s+)/).filter((p) => p.length > 0))
    expect(calls(events)).toEqual([call])
    expect(events.map((e) => (e.type === 'tool-call' ? e.raw : '')).join('')).toBe(block)
  })

  it('should support attributes in one-character chunks, and an opener whose name a chunk end cuts off from them', () => {
    const withAttrs = (attrs: string) => `<tool_calls>\n<invoke name="read_file">\n<parameter ${attrs}>src/main.rs</parameter>\n</invoke>\n</tool_calls>`
    const read = [{ name: 'read_file', input: { path: 'src/main.rs' } }]
    expect(calls(perCharacter(withAttrs('name="path"   string="true"  data-x = \'a b\'  ')).flat())).toEqual(read)
    const input = withAttrs('name="path"')
    const cut = input.indexOf('<parameter') + '<parameter'.length
    expect(calls(pushed([input.slice(0, cut), ' na', 'me="pa', 'th">src', input.slice(cut + ' name="path">src'.length)]))).toEqual(read)
    expect(calls(expectChunkInvariant(withAttrs('name="path" note="a > b < c" alt=\'x "y" z\'')))).toEqual(read)
  })

  it('should support an unquoted `string=true` a chunk end splits (`tru` + `e`) as the whole word: the value stays exact, no parameter comes from inside it', () => {
    // found by a review: the split value was read as `tru`, the value lexed as markup, and its text became a second parameter
    const input = '<|DSML|tool_calls><|DSML|invoke name="f"><|DSML|parameter name=n string=true>v</parameter><parameter name="y">w</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>'
    const whole = [{ name: 'f', input: { n: 'v</parameter><parameter name="y">w' } }]
    expect(calls(pushed([input]))).toEqual(whole)
    // a chunk end in the value, after any first chunk (`<|` alone left the tag's attributes to a lexer run that ended at `tru`)
    for (const at of [input.indexOf('string=') + 8, input.indexOf('string=') + 9, input.indexOf('string=') + 10]) {
      for (let first = 1; first < at; first++) expect(calls(pushed([input.slice(0, first), input.slice(first, at), input.slice(at)]))).toEqual(whole)
    }
    expect(calls(perCharacter(input).flat())).toEqual(whole)
    expect(calls(expectChunkInvariant(input))).toEqual(whole)
  })

  it('should support text from an opener that breaks the block leaving on the push that shows it', () => {
    // a parameter straight in the wrapper: out on the push of the boundary after its name
    const input = '<tool_calls>\n<parameter name="path">x</parameter>\n</tool_calls>'
    const perPush = perCharacter(input)
    const broken = input.indexOf('<parameter') + '<parameter '.length
    expect(textOf(perPush.slice(0, broken - 1).flat())).toBe('')
    expect(textOf(perPush.slice(0, broken).flat())).toBe(input.slice(0, broken))
    expect(textOf(perPush.flat())).toBe(input)
    // a character that breaks the tag: everything up to it out on its own push
    const bad = '<tool_calls>\n<invoke name="read_file" ! broken\nmore'
    const bang = bad.indexOf('!')
    const events = perCharacter(bad)
    expect(textOf(events.slice(0, bang + 1).flat())).toBe(bad.slice(0, bang + 1))
    expect(textOf(events.flat())).toBe(bad)
  })

  it('should support the capture limit cutting a long tag at the same offset in one-character chunks as whole', () => {
    const input = `<tool_calls>\n<invoke name="read_file">\n<parameter name="path" pad="${'x'.repeat(200)}">src/main.rs</parameter>\n</invoke>\n</tool_calls>`
    const sieve = createSieve({ captureLimit: 120 })
    const whole = [...sieve.push(input), ...sieve.end()]
    const one = createSieve({ captureLimit: 120 })
    const split = [...[...input].flatMap((c) => one.push(c)), ...one.end()]
    const at = (es: SieveEvent[]) => es.flatMap((e) => (e.type === 'diagnostic' ? [`${e.code}@${e.span.start}-${e.span.end}`] : []))
    expect(at(split)).toEqual(at(whole))
    expect(at(whole)[0]).toMatch(/^capture-limit@/)
    expect(textOf(split)).toBe(input)
  })

  it('should support a checkpoint taken inside a tag\'s attributes, one character at a time, resumed', () => {
    const input = '<tool_calls>\n<invoke name="read_file">\n<parameter name="path" string="true">src/main.rs</parameter>\n</invoke>\n</tool_calls>'
    const cut = input.indexOf('string')
    const first = createSieve()
    const before = [...input.slice(0, cut)].flatMap((c) => first.push(c))
    const second = createSieve({ resume: JSON.parse(JSON.stringify(first.checkpoint())) })
    const after = [...[...input.slice(cut)].flatMap((c) => second.push(c)), ...second.end()]
    expect(calls([...before, ...after])).toEqual([{ name: 'read_file', input: { path: 'src/main.rs' } }])
  })

  it('should support a JSON invoke body, and should not support text after a tag end in an invoke body', () => {
    expect(calls(expectChunkInvariant('<tool_calls>\n<invoke name="f">{"a": 1}</invoke>\n</tool_calls>'))).toEqual([{ name: 'f', input: { a: 1 } }])
    const junk = '<tool_calls>\n<invoke name="f"> junk </invoke>\n</tool_calls> after'
    const events = expectChunkInvariant(junk)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(junk)
  })

  it('should not support the Kelvin sign for the k of invoke, in any chunking', () => {
    // a closer that a chunk end split must be refused as the whole one is ('\u212A'.toLowerCase() === 'k')
    const input = '<tool_calls><invoke name="x"><parameter name="p">v</parameter></invo\u212Ae></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(calls(expectChunkInvariant(input.replace('invo\u212Ae', 'INVOKE')))).toEqual([{ name: 'x', input: { p: 'v' } }])
  })
})

describe('chunk boundaries: inline code', () => {
  it('should support inline code in prose, runs cut by chunk ends included', () => {
    const chunks = ['Use `', 'npm test', '` or ``a `b` c', '``, ~not a fence~', ' then ', '`x`.']
    expect(textOf(pushed(chunks))).toBe(chunks.join(''))
  })

  it('should support a tag start a chunk end cuts after a run (`` see `<｜DS ``), an example once the run closes', () => {
    const chunks = ['see `<｜DS', 'ML｜tool', '_calls', '` for ', 'the tag.']
    const sieve = createSieve()
    const events = chunks.slice(0, 3).flatMap((c) => sieve.push(c))
    expect(textOf(events)).toBe('see `')
    events.push(...chunks.slice(3).flatMap((c) => sieve.push(c)), ...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(calls(events)).toEqual([])
  })

  it('should support closing tags mentioned in inline code and in prose as text', () => {
    const chunks = ['see `</tool', '_calls>` and </｜DSML｜in', 'voke> here']
    const sieve = createSieve()
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(textOf(events)).toBe(chunks.join(''))
    expect(sieve.sawToolCallSyntax()).toBe(true)
  })

  it('should support a tag held after an unmatched backtick and released by the closing run as text', () => {
    const chunks = ['see `<｜DSML｜in', 'voke name="x', '">', '`. Then ', 'more `＜ＤＳＭＬ＜tool_calls＞', '`', ' ok']
    const sieve = createSieve()
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(textOf(events)).toBe(chunks.join(''))
    expect(sieve.sawToolCallSyntax()).toBe(false)
    expect(textOf(expectChunkInvariant(chunks.join('')))).toBe(chunks.join(''))
    expect(textOf(pushed(['a <｜DSML｜para', 'meter name="p"> b']))).toBe('a <｜DSML｜parameter name="p"> b')
  })

  it.each([
    // a deeper run (``) opens a level inside the span: the tag stays held until the first run closes
    ['`a <tool_calls> ``b`` c` d'],
    ['`a <tool_calls> b\nc` d'],
    ['`a <tool_calls>\n```\nx\n```\n'],
  ])('should not support releasing a held tag before the run that closes its span, a line feed or a fence (%#)', (input) => {
    expect(textOf(expectChunkInvariant(input))).toBe(input)
  })

  it('should support a tag held after an unmatched backtick live once the paragraph ends without a closing run', () => {
    expect(calls(expectChunkInvariant('`a <tool_calls>\n\n' + block))).toEqual([call])
  })

  it('should support a tag inside inline code as an example, and after it a live block', () => {
    const events = expectChunkInvariant('Write `<tool_calls>` or ``<tool_calls>` ``, then:\n' + block)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('Write `<tool_calls>` or ``<tool_calls>` ``, then:\n')
  })

  it('should support a carried run that the next chunk continues, decided where it ends', () => {
    const chunks = ['a `', '`', '`b` `', '`` c ', '```', '`', ' d']
    expect(textOf(pushed(chunks))).toBe(chunks.join(''))
    expect(calls(expectChunkInvariant(chunks.join('') + '\n\n' + block))).toEqual([call])
    // ``` … ``` mid-line is a code span of three; the block after the paragraph is live
    expect(calls(pushed(['a ``', '`', 'b```', ' c', '\n' + block]))).toEqual([call])
  })
})
