/**
 * White-box: the fast path (`src/sieve/fast-path.ts`) skip the lexer for chunks that cannot change
 * anything. They must give exactly what the lexer gives, for every chunking.
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { createSieve } from '../../src/index.js'
import type { Sieve, SieveEvent } from '../../src/types.js'

/** How many lexer runs `chunks` took, pushed on to `sieve` (their events go to `events`). */
function runsFor(sieve: Sieve, chunks: readonly string[], events: SieveEvent[] = []): number {
  const before = sieve.stats().lexerRuns
  for (const c of chunks) events.push(...sieve.push(c))
  return sieve.stats().lexerRuns - before
}

/**
 * Each value of `runs` at most the bound at its place: a tag's span is one lexer run, or none when a run over
 * the same text in the same context made its tokens before (`lexer/token-memo.ts`, shared by the grammar's sieves).
 */
function expectAtMost(runs: readonly number[], bounds: readonly number[]): void {
  expect(runs).toHaveLength(bounds.length)
  runs.forEach((r, i) => expect(r, `chunk ${i}`).toBeLessThanOrEqual(bounds[i]!))
}

/** The lexer runs each of `chunks` took, pushed in turn on to `sieve` (their events go to `events`). */
function runsPerChunk(sieve: Sieve, chunks: readonly string[], events: SieveEvent[] = []): number[] {
  return chunks.map((c) => {
    const before = sieve.stats().lexerRuns
    events.push(...sieve.push(c))
    return sieve.stats().lexerRuns - before
  })
}

const block = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'

describe('fast path', () => {
  it('should support fence content with inline backticks and tildes (text) and a closer after it', () => {
    const input = '```sh\ncd ~/src && echo `pwd`\n' + block + '\n  ```\nafter\n' + block
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support a fence closer whose indent and run arrive in separate chunks', () => {
    const sieve = createSieve()
    const chunks = ['```\n', block, '\n  ', '```', '\n', block]
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(textOf(events)).toBe('```\n' + block + '\n  ```\n')
  })

  it('should support indentation between block tags streamed on its own', () => {
    const sieve = createSieve()
    const pieces = block.split(/(\s+)/).filter((p) => p.length > 0)
    const events = [...pieces.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(events.filter((e) => e.type === 'tool-call').map((e) => (e.type === 'tool-call' ? e.raw : '')).join('')).toBe(block)
  })

  it('should not support a fence opener hidden by the fast path: a line-start run in fence content still closes it', () => {
    const input = '~~~\n' + block + '\n~~~~\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support a mid-line backtick run in fence content cut by a chunk end without the lexer', () => {
    const input = '```js\nconst s = `a${b}` + ``\n```\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
    const sieve = createSieve()
    sieve.push('```js\n')
    expect(runsFor(sieve, ['const s = `', 'a${b}`', ' + ``', '`\n'])).toBe(0)
  })

  it('should support line-start runs in fence content that cannot close it (shorter, or the other character) without the lexer', () => {
    const input = '````md\n``` three is too short\n` one\n~~~~ tildes\n' + block + '\n````\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
    const sieve = createSieve()
    sieve.push('````md\n')
    expect(runsFor(sieve, ['``` three', ' is too short\n', '` one\n', '~~~~ tildes\n'])).toBe(0)
  })

  it('should support a fence closer cut by chunk ends carried, and a line feed closing it, without the lexer', () => {
    const input = '```js\nconst a = 1\n``' + '`\n' + block
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
    const sieve = createSieve()
    const events = sieve.push('```js\n')
    // `` is carried; the chunk that continues it carries it on, and at the edge of the one that decides it (a closer)
    // the run's boundary decides it (`boundary.ts`), as at a lexer run's start
    expect(runsPerChunk(sieve, ['const a = 1\n``', '`', '\n'], events)).toEqual([0, 0, 0])
    events.push(...sieve.push(block), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support brackets in CDATA content without the lexer, and `]]>` split anywhere', () => {
    const value = 'a[i] = b[[0]] ]] > ] ]>'
    const input = `<tool_calls>\n  <invoke name="a">\n    <parameter name="p"><![CDATA[${value}]]></parameter>\n  </invoke>\n</tool_calls>`
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: value } }])
    const sieve = createSieve()
    sieve.push(input.slice(0, input.indexOf('CDATA[') + 6))
    expect(runsFor(sieve, ['a[i] ', '= b[[0]] ', ']] > ', '] ]>'])).toBe(0)
  })

  it('should support `]` and `]]` at a chunk end in CDATA held without the lexer, and `]]>` completed by the next chunk lexed alone, at most', () => {
    const value = 'a[i] = b[[0]]]'
    const input = `<tool_calls>\n  <invoke name="a">\n    <parameter name="p"><![CDATA[${value}]]></parameter>\n  </invoke>\n</tool_calls>`
    const sieve = createSieve()
    const at = input.indexOf('CDATA[') + 6
    const events = sieve.push(input.slice(0, at))
    // the held tails decide without the lexer; `]]>` is lexed over its own span (`tag-spans.ts`)
    expectAtMost(runsPerChunk(sieve, ['a[i', ']', ' = b[[0]', ']', ']]', ']', '>'], events), [0, 0, 0, 0, 0, 0, 1])
    events.push(...sieve.push(input.slice(input.indexOf(']]></parameter>') + 3)), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: value } }])
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: value } }])
  })

  it('should support the end of CDATA inside a chunk (`x]]]>` + more) with at most one lexer run, over `]]>` alone', () => {
    const input = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p"><![CDATA[a]]]></parameter>\n  </invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'a]' } }])
    const sieve = createSieve()
    const at = input.indexOf('CDATA[') + 6
    const events = sieve.push(input.slice(0, at))
    const lexed = sieve.stats().charsLexed
    expect(runsFor(sieve, ['a]]]></par'], events)).toBeLessThanOrEqual(1)
    expect(sieve.stats().charsLexed - lexed).toBeLessThanOrEqual(']]>'.length)
    events.push(...sieve.push(input.slice(at + 'a]]]></par'.length)), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'a]' } }])
  })

  it('should support dashes in a comment in a value without the lexer, and `-->` split anywhere', () => {
    const input = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x<!-- a - b -- c <!-- -- --></parameter>\n  </invoke>\n</tool_calls>'
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'a', input: { p: 'x' } }])
    const sieve = createSieve()
    const events = sieve.push(input.slice(0, input.indexOf('<!--') + 4))
    // a `-` or `--` at a chunk end is held as the lexer's Incomplete token holds it; the next chunk decides it
    expect(runsFor(sieve, [' a - ', 'b -', '- c ', '<!-- -', '-', ' -', '-'], events)).toBe(0)
    events.push(...sieve.push(input.slice(input.indexOf(' --></parameter>') + 2)), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support a comment past the capture limit going out as text without the lexer', () => {
    const sieve = createSieve({ captureLimit: 64 })
    const events = sieve.push('<tool_calls>\n<invoke name="a">\n<parameter name="p"><!-- ' + 'x'.repeat(80))
    expect(codes(events)).toEqual(['capture-limit'])
    expect(runsFor(sieve, ['a <!-- ', 'b -- ', 'c <', '!-- d'], events)).toBe(0)
  })

  it('should support a whole opening tag name at a chunk end held without the lexer until its boundary arrives', () => {
    const sieve = createSieve()
    const events = [...sieve.push('x <tool_'), ...sieve.push('calls')]
    expect(sieve.stats().lexerRuns).toBe(0)
    expect(textOf(events)).toBe('x ')
    events.push(...sieve.push('>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    // a name character instead: no tag started at the `<`, all of it is text
    const other = createSieve()
    const text = [...other.push('x <tool_'), ...other.push('calls'), ...other.push('_list> y'), ...other.end()]
    expect(textOf(text)).toBe('x <tool_calls_list> y')
  })

  it('should support a `<` that starts nothing once the next chunk arrives (`if a <` + ` b`): text without the lexer', () => {
    const sieve = createSieve()
    const events = [...sieve.push('if a <'), ...sieve.push(' b then'), ...sieve.push(' <'), ...sieve.push('= c'), ...sieve.end()]
    expect(textOf(events)).toBe('if a < b then <= c')
    expect(sieve.stats().lexerRuns).toBe(0)
  })

  it('should not support taking a complete opener waiting for its boundary as plain text (`<tool_calls` + `>`)', () => {
    const input = 'x <tool_calls>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'
    const sieve = createSieve()
    const events = [...[...input].flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should support inline code in prose without the lexer, a run cut by a chunk end included', () => {
    const sieve = createSieve()
    const chunks = ['Use `', 'npm test', '` or ``a `b` c', '``, ~not a fence~', ' then ', '`x`.']
    const events: SieveEvent[] = []
    expect(runsPerChunk(sieve, chunks, events)).toEqual([0, 0, 0, 0, 0, 0])
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
  })

  it('should support a run then a tag start the chunk end cuts (`` see `<｜DS ``): the tag start held in the span without the lexer, then lexed with the character that decides it', () => {
    const sieve = createSieve()
    const chunks = ['see `<｜DS', 'ML｜tool', '_calls', '` for ', 'the tag.']
    const events: SieveEvent[] = []
    // the name's boundary decides the tag: the name and that backtick are lexed, and the backtick run the span's end
    // cuts is decided by a lexer run over what follows (`see a carried run`, below)
    expect(runsPerChunk(sieve, chunks.slice(0, 3), events)).toEqual([0, 0, 0])
    expect(textOf(events)).toBe('see `')
    // held until the span decides; the closing run shows it was an example
    expectAtMost(runsPerChunk(sieve, chunks.slice(3), events), [2, 0])
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(calls(events)).toEqual([])
  })

  it('should support closing tags mentioned in inline code and in prose as text, with at most one lexer run per tag, over the tag alone', () => {
    const sieve = createSieve()
    const chunks = ['see `</tool', '_calls>` and </｜DSML｜in', 'voke> here']
    const events: SieveEvent[] = []
    expectAtMost(runsPerChunk(sieve, chunks, events), [0, 1, 1])
    expect(sieve.stats().charsLexed).toBeLessThanOrEqual('</tool_calls>'.length + '</｜DSML｜invoke>'.length)
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(sieve.sawToolCallSyntax()).toBe(true)
  })

  it('should support a tag held after an unmatched backtick and released by the closing run, with at most a lexer run per tag and one for the chunk after a cut run', () => {
    const sieve = createSieve()
    const chunks = ['see `<｜DSML｜in', 'voke name="x', '">', '`. Then ', 'more `＜ＤＳＭＬ＜tool_calls＞', '`', ' ok']
    const events: SieveEvent[] = []
    expectAtMost(runsPerChunk(sieve, chunks, events), [0, 1, 0, 0, 1, 0, 1])
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(sieve.sawToolCallSyntax()).toBe(false)
    expect(textOf(expectChunkInvariant(chunks.join('')))).toBe(chunks.join(''))
  })

  it('should support an opening tag that starts no block mentioned in prose (`<｜DSML｜parameter …>`) as text, with at most one lexer run, over the tag alone', () => {
    const sieve = createSieve()
    const chunks = ['a <｜DSML｜para', 'meter name="p"> b']
    const events = [...chunks.flatMap((c) => sieve.push(c)), ...sieve.end()]
    expect(sieve.stats().lexerRuns).toBeLessThanOrEqual(1)
    expect(sieve.stats().charsLexed).toBeLessThanOrEqual('<｜DSML｜parameter name="p">'.length)
    expect(textOf(events)).toBe(chunks.join(''))
  })

  it('should not support releasing a held tag without the lexer when the run keeps it held, or a line feed or a fence comes first', () => {
    // a deeper run (``) opens a level inside the span: the tag stays held until the first run closes
    for (const input of ['`a <tool_calls> ``b`` c` d', '`a <tool_calls> b\nc` d', '`a <tool_calls>\n```\nx\n```\n', '`a <tool_calls>\n\n' + block]) {
      const events = expectChunkInvariant(input)
      if (input.endsWith(block)) expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
      else expect(textOf(events)).toBe(input)
    }
  })

  it('should support fences opened and closed inside chunks (`Look:\n` + "```ts\nx" … "}\n```\n" + "Then"), and a closer cut by a chunk end, without the lexer', () => {
    const sieve = createSieve()
    const chunks = ['Look:\n```ts\nconst', ' a = <tool_calls>;\n', '}\n```\nThen:\n', '~~~\n<tool_calls>\n~~~', '\n', 'done.']
    const events: SieveEvent[] = []
    // `~~~` at the end of a chunk is carried: the run's boundary at the line feed decides it (a closer)
    expect(runsPerChunk(sieve, chunks, events)).toEqual([0, 0, 0, 0, 0, 0])
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(calls(events)).toEqual([])
  })

  it('should support fences in list items and block quotes, and runs that only look like closers, for every chunking', () => {
    const cases: Array<[string, number]> = [
      ['- item\n  ```\n  <tool_calls>\n  ```\n' + block, 1],
      ['> ```\n> x\n> ```\n' + block, 1],
      ['````\n```\n' + block + '\n````\nafter ' + block, 1],
      ['```\na ``` b\n ```` \n' + block, 1],
      // a closer takes no info string: the block stays inside the fence
      ['```js\nx\n```js\n' + block + '\n```\n', 0],
    ]
    for (const [input, n] of cases) expect(calls(expectChunkInvariant(input))).toHaveLength(n)
  })

  it('should support a tag inside inline code as an example, and after it a live block, for every chunking', () => {
    const input = 'Write `<tool_calls>` or ``<tool_calls>` ``, then:\n' + block
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(textOf(events)).toBe('Write `<tool_calls>` or ``<tool_calls>` ``, then:\n')
  })

  it('should support a carried run that the next chunk continues, decided where it ends, without the lexer', () => {
    const sieve = createSieve()
    const chunks = ['a `', '`', '`b` `', '`` c ', '```', '`', ' d']
    const events: SieveEvent[] = []
    expect(runsPerChunk(sieve, chunks, events)).toEqual([0, 0, 0, 0, 0, 0, 0])
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expect(calls(expectChunkInvariant(chunks.join('') + '\n\n' + block))).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should not support a carried run decided before the chunk that ends it (`a ``` + `` ` `` + ``b``` ``)', () => {
    const sieve = createSieve()
    const events = [...['a ``', '`', 'b```', ' c'].flatMap((c) => sieve.push(c)), ...sieve.push('\n' + block), ...sieve.end()]
    // ``` … ``` mid-line is a code span of three; the block after the paragraph is live
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
  })

  it('should not support the Kelvin sign for the k of invoke, in any chunking (the tag regexes compare by upper case, without the u flag)', () => {
    // found in review: the delimiter DFA compared by lower case ('\u212A'.toLowerCase() === 'k'), so a closer that
    // a chunk end split was taken as </invoke> while the lexer, seeing it whole, refused it
    const input = '<tool_calls><invoke name="x"><parameter name="p">v</parameter></invo\u212Ae></tool_calls>'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    // upper case is the same tag
    expect(calls(expectChunkInvariant(input.replace('invo\u212Ae', 'INVOKE')))).toEqual([{ name: 'x', input: { p: 'v' } }])
  })
  it('should support a closer spelling another opener inside a raw value as its text without the lexer, and the `<` before its own closer (`a<</｜DSML｜parameter>`), in every chunking', () => {
    const open = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="e">\n<｜DSML｜parameter name="s" string="true">'
    const close = '</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
    const value = 'const tag = "</parameter>" // not a closer: a<'
    expect(calls(expectChunkInvariant(open + value + close))).toEqual([{ name: 'e', input: { s: value } }])
    const sieve = createSieve()
    const events = sieve.push(open)
    // found by the differential: the drifting `<<` of `<</｜DSML｜parameter>` spelled no opener, but the lexer reads the
    // first `<` as the value's and the rest as its own closer
    expect(runsPerChunk(sieve, ['const tag = "', '</parameter>"', ' // not a closer: a'], events)).toEqual([0, 0, 0])
    events.push(...sieve.push('<' + close), ...sieve.end())
    expect(calls(events)).toEqual([{ name: 'e', input: { s: value } }])
  })

  it('should support a held line-start prefix (`- `, `  ` in a fence) read on with the next chunk without the lexer', () => {
    const chunks = ['Steps:\n\n', '- ', 'first', '\n', '1. ', 'second', '\n\n```ts\n', '  ', 'const', ' a = 1\n', '```\n']
    const sieve = createSieve()
    const events: SieveEvent[] = []
    expect(runsPerChunk(sieve, chunks, events)).toEqual(chunks.map(() => 0))
    events.push(...sieve.end())
    expect(textOf(events)).toBe(chunks.join(''))
    expectChunkInvariant(chunks.join('') + block)
  })

  it('should support tags met again, each completed by a chunk of its own, without the lexer: a block, and a tag mentioned in inline code (`lexer/token-memo.ts`)', () => {
    const mention = ['See `', '<｜DSML｜', 'invoke', ' name="x">', '` and `', '</｜DSML｜', 'invoke>', '`.\n\n']
    const dsml = ['<｜DSML｜', 'tool_calls>', '\n', '<｜DSML｜', 'invoke', ' name="a">', '\n', '<｜DSML｜', 'parameter', ' name="p"', ' string="true">', 'x', '</｜DSML｜', 'parameter>', '\n', '</｜DSML｜', 'invoke>', '\n', '</｜DSML｜', 'tool_calls>']
    const chunks = [...mention, ...dsml]
    // the first sieves of the grammar may lex each tag twice (a text is kept when it comes again); its tokens are
    // then remembered for every later one
    for (let k = 0; k < 2; k++) {
      const first = createSieve()
      runsPerChunk(first, chunks)
      first.end()
    }
    const sieve = createSieve()
    const events: SieveEvent[] = []
    expect(runsPerChunk(sieve, chunks, events)).toEqual(chunks.map(() => 0))
    events.push(...sieve.end())
    expect(calls(events)).toEqual([{ name: 'a', input: { p: 'x' } }])
    expect(textOf(events)).toBe(mention.join(''))
  })
  it('should not support a raw value growing past the capture limit by closers of another family, each completed by a chunk of its own', () => {
    // found in review: the closer read as the value's text skipped the limit check that plain text in a capture has
    const sieve = createSieve({ captureLimit: 128 })
    const events = sieve.push('<｜DSML｜tool_calls><｜DSML｜invoke name="y"><｜DSML｜parameter name="p" string="true">a<')
    for (let i = 0; i < 2000; i++) events.push(...sieve.push('/parameter><'))
    const state = sieve.checkpoint().state as { capture: { length: number } | null }
    expect(state.capture?.length ?? 0).toBeLessThanOrEqual(128)
    events.push(...sieve.push('/｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'), ...sieve.end())
    expect(calls(events)).toEqual([])
    expect(events.some((e) => e.type === 'diagnostic' && e.code === 'capture-limit')).toBe(true)
  })
})
