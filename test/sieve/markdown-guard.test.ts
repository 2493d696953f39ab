/**
 * The Markdown guard. Markup inside fenced code,
 * indented code or an inline code span is text; a block after an unmatched backtick run in the
 * same paragraph is decided when the paragraph ends (live) or a closing run of
 * the same length arrives (an example, text).
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, expectChunkInvariant, outline, runSieve } from '../helpers/chunking.js'
import { SPELLINGS, block } from '../helpers/blocks.js'
import { call, callNamed, example, expectOneCall, expectText, live, liveNamed } from '../helpers/guard.js'


describe('markdown guard: fenced code', () => {
  it.each([
    ['``` with an info string', 'Example:\n```xml\n' + example + '\n```\nThat is all.'],
    ['~~~', 'Example:\n~~~\n' + example + '\n~~~\n'],
    ['an opener indented three spaces', 'Example:\n   ```\n' + example + '\n   ```\n'],
    ['a four-backtick opener', '````markdown\n' + example + '\n````'],
    ['an unclosed fence (runs to end of stream)', 'Partial:\n```\n' + example],
    ['a shorter closer (does not close)', '````\n```\n' + example + '\n````\n'],
    ['a closer with an info string (does not close)', '```\n```js\n' + example + '\n```\n'],
    ['~~~ inside a ``` fence (content)', '```\n~~~\n' + example + '\n~~~\n```\n'],
    ['``` inside a ~~~ fence (content)', '~~~\n```\n' + example + '\n```\n~~~\n'],
    ['CRLF line endings', 'Example:\r\n```\r\n' + example.replace(/\n/g, '\r\n') + '\r\n```\r\nok'],
    ['a fence at the very start', '```\n' + live + '\n```'],
    ['every spelling inside', '```\n' + SPELLINGS.map((s) => block(s, [{ name: 'x' }])).join('\n') + '\n```\n'],
  ])('should support markup inside fenced code as text (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['trailing spaces and tabs', '```\nx\n```  \t\n'],
    ['a CR before the newline', '```\r\nx\r\n```\r\n'],
    ['a longer closer', '```\nx\n`````\n'],
    ['a closer indented three spaces', '```\nx\n   ```\n'],
    ['a tilde closer', '~~~~ info\nx\n~~~~~\n'],
  ])('should support a closer line that ends the fence (%s)', (_label, fence) => {
    const events = expectChunkInvariant(fence + live + '\nbye')
    expect(outline(events)).toEqual([fence, call, '\nbye'])
  })

  it.each([
    ['a closer of the other character', '```\nx\n~~~\n'],
    ['a closer indented four spaces', '```\nx\n    ```\n'],
    ['a closer followed by text', '```\nx\n``` not yet\n'],
  ])('should not support a closer line that does not end the fence (%s)', (_label, fence) => {
    expectText(fence + live + '\nbye')
  })

  it('should not support a fence that is not at line start (a backtick run; live at paragraph end)', () => {
    const input = 'Say ``` here\n' + live + '\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['Say ``` here\n', call, '\n\nok'])
  })

  it('should not support an opener indented four spaces as a fence', () => {
    expectOneCall('    ```\n' + live + '\n\nok')
  })

  it('should support a real block after a closed fence that held an example', () => {
    const input = 'Example:\n```\n' + example + '\n```\nNow for real:\n' + live
    const events = expectChunkInvariant(input)
    expect(outline(events)).toEqual(['Example:\n```\n' + example + '\n```\nNow for real:\n', call])
  })

  it('should support a fence after a block (line start is tracked across the capture)', () => {
    expect(outline(expectChunkInvariant(live + '\n```\n' + example + '\n```\n'))).toEqual([call, '\n```\n' + example + '\n```\n'])
  })

  it('should support fences inside a parameter value as content, not as a fence', () => {
    const input =
      '<tool_calls><invoke name="write"><parameter name="file_path">README.md</parameter>' +
      '<parameter name="content">\n# Title\n```js\nrun()\n```\n</parameter></invoke></tool_calls>\nok'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'write', input: { file_path: 'README.md', content: '# Title\n```js\nrun()\n```' } }])
  })
})

describe('markdown guard: indented code', () => {
  const indentAll = (text: string, by: string) => text.split('\n').map((l) => by + l).join('\n')
  it.each([
    ['four spaces after a blank line', 'Example:\n\n    ' + live + '\n\nok'],
    ['a tab', 'Example:\n\n\t' + live + '\n'],
    ['two spaces and a tab (column 4)', 'Example:\n\n  \t' + live],
    ['at the start of the stream', '    ' + live],
    ['a DSML example over several lines, each indented', 'The model writes:\n\n' + indentAll(example, '    ') + '\n\nThat is all.'],
    ['blank lines inside the code', 'x\n\n    a\n\n    ' + live + '\n'],
    ['after a fence closer (no paragraph to continue)', '```\nx\n```\n    ' + live],
    ['after an ATX heading', '# Title\n    ' + live],
    ['after a list that a paragraph at column 0 closed', '- item\n\nText.\n\n    ' + live],
    ['after a line that only starts with a digit (no list)', '1 < 2\n\n    ' + live],
    ['a backtick run in it (no code span, no fence)', '\n    ``` `' + live + '\n'],
    ['after a thematic break of `*`', '***\n    ' + live],
    ['after a thematic break of `-`', '---\n    ' + live],
    ['after a thematic break of `_` with spaces', 'Text\n _ _ _\n    ' + live],
    ['after a setext heading (`===`)', 'Title\n===\n    ' + live],
    ['after a setext heading (`---`)', 'Title\n---  \n    ' + live],
    ['after a setext heading of one `-`', 'Title\n-\n    ' + live],
    ['after a thematic break in a block quote', '> ***\n    ' + live],
    ['after a thematic break that closes a list', '- a\n\n***\n    ' + live],
    ['after a comment block on one line', '<!-- note -->\n    ' + live],
    ['after a closed <pre> block', '<pre>\nx\n</pre>\n    ' + live],
    ['after a list marker line inside a fence', '```\n- item\n```\n\n    ' + live],
    ['after a list marker line inside a ~~~ fence (an ordered one)', '~~~\n1. item\n~~~\n    ' + live],
    ['after a list marker line inside a comment block', '<!--\n- x\n-->\n\n    ' + live],
    ['after a list marker line inside a <pre> block', '<pre>\n* x\n</pre>\n    ' + live],
    ['after a fence in a block quote that the next line leaves', '> ```\n> - x\n    ' + live],
    ['after a thematic break ending a paragraph with an unmatched backtick', 'Use ` then\n___\n\t' + live],
    ['after a setext heading whose text has an unmatched backtick', 'Use ` then\nText\n=\n     ' + live],
    ['after an ATX heading ending a paragraph with an unmatched backtick', 'Use ` then\n# Title\n    ' + live],
  ])('should support markup in indented code as text (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a paragraph continuation line (indented code cannot interrupt a paragraph)', 'Text\n    ' + live],
    ['three columns only', 'x\n\n   ' + live],
    ['in an ordered list item (the item\'s own paragraph)', '1. Step one\n\n    ' + live],
    ['in a bullet list item', '- a\n\n    ' + live],
    ['after a lazy continuation line in a list item', '- a\nb\n\n    ' + live],
    ['at column 0 after indented code', 'x\n\n    code\n' + live],
    ['after a void backtick fence line (a paragraph line)', '```a`b\n    ' + live],
    ['after `===` with no paragraph before it (a paragraph line)', '===\n    ' + live],
    ['after `= =` (no underline: a paragraph continuation)', 'Title\n= =\n    ' + live],
    ['after `-- x` (a paragraph line)', 'Title\n-- x\n    ' + live],
    ['after two `*` (no break)', '**\n    ' + live],
    ['after an empty list item (`-` after a blank line)', 'x\n\n-\n    ' + live],
    ['after a list item whose fence closed (the list goes on)', '- a\n  ```\n  x\n  ```\n\n    ' + live],
    ['after an HTML block opened on a list item line (still in the list)', '- <!-- x -->\n\n    ' + live],
  ])('should not support an indented line as code where CommonMark makes it a paragraph (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('markdown guard: fences in block quotes', () => {
  const quote = (text: string, q = '> ') => text.split('\n').map((l) => q + l).join('\n')
  it.each([
    ['a fence opened and closed inside a quote', '> Example:\n> ```\n' + quote(live) + '\n> ```\n'],
    ['a DSML example in a quoted fence', '> ```xml\n' + quote(example) + '\n> ```\nok'],
    ['markers without their space', '>```\n>' + live + '\n>```\n'],
    ['nested quotes', '> > ~~~\n' + quote(live, '> > ') + '\n> > ~~~\n'],
    ['an opener indented after the marker', '>    ```\n> ' + live + '\n'],
    ['an unclosed quoted fence running to the end of the stream', '> ```\n> ' + live],
    ['a deeper quote line inside the fence (content)', '> ```\n> > ' + live + '\n> ```\n'],
  ])('should support markup in a fence inside a block quote as text (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a line without the marker ends the quote, and the fence with it', '> ```\n> code\n' + live],
    ['a blank line ends it', '> ```\n> code\n\n' + live],
    ['an empty quoted fence, then a line outside', '> ```\n' + live],
    ['a line that keeps fewer markers', '> > ```\n> ' + live],
    ['after the quoted fence closed', '> ```\n> x\n> ```\n' + live],
    ['a quoted closer does not close a fence outside the quote, but the quote line is content', '```\n> ```\n```\n' + live],
  ])('should support a live block once a quoted fence has ended (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it('should support a line of only markers as a blank line: it ends the paragraph and its open backtick', () => {
    expectOneCall('> Use ` then\n>\n> ' + live)
  })

  it('should not support a marker four columns in as a quote (paragraph text: its run opens no fence)', () => {
    expectOneCall('text\n    > ```\nx\n\n' + live)
  })
})

describe('markdown guard: fences opened on a list item line', () => {
  const item = (text: string, pad: string) => text.split('\n').map((l) => pad + l).join('\n')
  it.each([
    ['a bullet item', '- ```\n' + item(live, '  ') + '\n  ```\n'],
    ['an ordered item', '1. ```xml\n' + item(example, '   ') + '\n   ```\nok'],
    ['a blank line inside the fence', '- ```\n  x\n\n  ' + live + '\n  ```\n'],
    ['a deeper line is content', '- ```\n    ' + live + '\n  ```\n'],
    ['four spaces after the marker', '-    ~~~\n     ' + live + '\n'],
  ])('should support markup in a fence opened on a list marker line as text (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a line less indented ends the item and the fence', '- ```\n  x\n' + live],
    ['a blank line, then a line at column 0', '- ```\n  x\n\n' + live],
    ['after the closer at the item indent', '- ```\n  x\n  ```\n' + live],
    ['after a closer up to 3 columns past it', '1. ```\n   x\n      ```\n' + live],
  ])('should support a live block once a list item fence has ended (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('markdown guard: raw HTML and autolinks before code spans (CommonMark 6.1)', () => {
  it.each([
    ['after an open tag with a backtick in an attribute', '<a href="`">`' + live + '`'],
    ['after an autolink with a backtick in it', 'See <https://x.y/`> and `' + live + '`'],
    ['after a comment with a backtick in it', 'x <!-- ` --> `' + live + '`'],
    ['after a single-quoted attribute and a self-closing tag', "<img alt='`' /> `" + live + '`'],
    ['a span that began before the tag closes inside it, then a later span', '`x <a title="` then `' + live + '` and `">'],
    ['a backtick void opener whose info string holds the tag', '```<!-- ` -->`' + live + '`'],
    ['a tag over two lines of a block quote (the marker is not its `>`)', '> <a title="`"\n> ' + live + '`'],
  ])('should support a block in a code span where a tag or autolink took the backtick before it (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['an open tag holds the backtick, so the one after the block is alone', '<a href="`">x ' + live + ' `'],
    ['an autolink holds it', '<https://x.y/`> ' + live + ' `'],
    ['a comment holds it', 'x <!-- a`b --> ' + live + ' `'],
    ['a span closes inside the would-be tag (the span began first)', '`x <a href="` ' + live + ' `">'],
    ['a `<` that ends one candidate begins the next', '<<b title="`">' + live + '`'],
    ['a tag over two lines, the second starting with its backtick', '<a title="\n`">' + live + '`'],
  ])('should support a live block where a tag or autolink took a backtick (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it.each([
    ['text after a quoted value (no whitespace)', '<a href="`"x> ' + live + ' `'],
    ['an unquoted value cannot hold a backtick', '<a b=`c> ' + live + ' `'],
    ['a one-letter scheme', '<h:`x> ' + live + ' `'],
    ['a blank line inside the tag', '<a href="`\n\n">' + live + ' `'],
    ['a closing tag', '</a `> ' + live + ' `'],
    ['a heading interrupts the paragraph the tag began in', '<a title="\n# `">' + live + '`'],
    ['a list item interrupts it', '<a title="\n- `">' + live + '`'],
    ['longer than the 256 characters read past the backtick', '<a title="`' + 'x'.repeat(300) + '"> ' + live + ' `'],
  ])('should not support a near miss as a tag: its backtick is a run (%s)', (_label, input) => {
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual(input.includes('\n\n') ? [{ name: 'a', input: { path: 'src/a.ts' } }] : [])
  })
})

describe('markdown guard: tags and held runs under a small capture limit', () => {
  it.each([
    ['a run carried over a chunk end from inside a capture, in an unclosed comment', '<!--<invoke``<tool_calls>' + 'a'.repeat(37) + '</tool_calls>\r\n '],
    ['a held fence opener, then a run in an unclosed comment', '```<tool_calls>' + 'a'.repeat(49) + '<!--``<tool_calls '],
  ])('should support chunk invariance where a run in a tag meets the capture limit (%s)', (_label, input) => {
    expectChunkInvariant(input, { captureLimit: 64 })
  })

  it('should support a fence opener\'s held tag given up, then the backtick that voids it inside an autolink, cut by a chunk end', () => {
    // `<ps:`>` is an autolink: its backtick voids the opener (block structure reads the info string raw) but opens
    // no code span, so the later `<invoke` is not in one and is held, and its hold too goes past the limit; carried
    // over the chunk end, the run went out before the autolink was known and opened a span
    // (the smallest capture limit is the longest delimiter: each hold is padded past it)
    const captureLimit = 47
    const input = '```<DSMLtool_calls' + ' y'.repeat(20) + '<ps:`><DSMLinvoke' + ' z'.repeat(20) + '`'
    const events = expectChunkInvariant(input, { captureLimit })
    expect(codes(events)).toEqual(['capture-limit', 'capture-limit'])
    const cut = input.indexOf('<ps:`') + '<ps:`'.length
    expect(runSieve(input, [input.slice(0, cut), input.slice(cut)], { captureLimit })).toEqual(events)
  })

  it('should support a hold given up, then a fence opener on a list item line ending its paragraph, the same in any chunking', () => {
    // the hold is given up before the item's line ends the paragraph; lexed again from there, `~~~` after `- ` is that
    // item's content (as in one pass): the list goes on, so the indented line after the blank one is no indented code
    // (the list bit errs towards live calls) in any chunking
    const input = '`<｜DSML｜invoke ="read_file"></｜DSML｜invoke></｜DSML｜tool_calls> \n- ~~~\n<\n\n    <DSMLcalls\n'
    expect(codes(expectChunkInvariant(input, { captureLimit: 60 }))).toEqual(['capture-limit', 'unterminated-block'])
  })
})

describe('markdown guard: inline code', () => {
  it.each([
    ['a single-backtick span', 'Like `' + live + '` this.'],
    ['a double-backtick span holding a single backtick', 'Like `` ` ' + live + ' ` `` this.'],
    ['a span over several lines of one paragraph', 'Like `\n' + live + '\n` this.'],
    ['a closing run after the block in the same paragraph', 'Use ` then ' + live + ' and ` done'],
    ['a closing run on a later line of the paragraph', 'Use `\n' + live + '\nsee ` there'],
    ['a DSML example', 'The model writes `' + example + '` verbatim.'],
    ['a mention', 'Use `<tool_calls>` to start.'],
  ])('should support markup inside a code span as text (%s)', (_label, input) => {
    expectText(input)
  })

  it('should support a block after an unmatched backtick once a blank line ends the paragraph', () => {
    const input = 'Use ` then ' + live + '\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['Use ` then ', call, '\n\nok'])
  })

  it.each([
    ['a blank line of spaces and tabs', 'Use ` then ' + live + '\n \t\nok'],
    ['a CRLF blank line', 'Use ` then ' + live + '\r\n\r\nok'],
    ['end of stream', 'Use ` then ' + live],
    ['a fence opener line', 'Use ` then ' + live + '\n```\ncode\n```\n'],
    ['a run of another length (does not close)', 'Use ` then ' + live + ' and `` here\n\nok'],
    ['a double run left open', 'Use `` then ' + live + ' and ` here'],
  ])('should support a block after an unmatched backtick that turns out live (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it.each([
    ['a span closed before the block', 'Run `ls` then ' + live],
    ['spans on both sides', '`a` ' + live + ' `b`'],
    ['a lone backtick after the block', live + ' and ` lone'],
    ['an unmatched backtick in an earlier paragraph', 'a ` b\n\n' + live],
    ['a backtick inside a closed fence', '```\n`\n```\n' + live],
  ])('should not support holding a block when no backtick run is open before it (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it('should support two held blocks of one paragraph going live, and a third after unmatched backticks staying text', () => {
    // each held block sends the sieve back from the paragraph's end to lex from it again; from the second time
    // at one end, later blocks waiting after unmatched backticks stay text, so the paragraph is read at most three times
    const input = 'A ` ' + liveNamed('a') + ' B `` ' + liveNamed('b') + ' C ``` ' + liveNamed('c') + '\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['A ` ', call, ' B `` ', callNamed('b'), ' C ``` ' + liveNamed('c') + '\n\nok'])
  })

  it('should support a block in a voided fence opener\'s info string staying text once its paragraph sent the sieve back twice', () => {
    // the third line's ```` opens no fence (a backtick in its info string), so per CommonMark the block on it is
    // live; but it would be a third hold of the paragraph, which the bound leaves as text like the one above
    const input = 'x ` ' + liveNamed('a') + ' y `` ' + liveNamed('b') + '\n```` ' + liveNamed('c') + ' ```\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['x ` ', call, ' y `` ', callNamed('b'), '\n```` ' + liveNamed('c') + ' ```\n\nok'])
  })

  it('should support deciding each paragraph on its own (live, then an example)', () => {
    const input = 'Use ` then ' + live + '\n\nLater ` another ' + liveNamed('b') + ' `.'
    const events = expectChunkInvariant(input)
    expect(calls(events)).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
    expect(codes(events)).toEqual([])
  })
})

describe('markdown guard: a run cut by a chunk end inside an open HTML candidate', () => {
  it.each([
    ['a broken block after a voided fence opener whose info string opens a comment', '```<!--``` <tool_calls><invoke a.b><', 'unterminated-block'],
    ['a broken block after a code span that closes inside an open comment', 'x `` <!-- `` <tool_calls><invoke a.b><', 'unterminated-block'],
  ])('should support the same diagnostic in every chunking once the run closes a span (%s)', (_label, input, code) => {
    expect(codes(expectChunkInvariant(input))).toEqual([code])
  })

  it('should support a block after a voided fence opener whose info string opens a comment, in every chunking', () => {
    expect(outline(expectChunkInvariant('```<!--``` ' + live + '\n\nok'))).toEqual(['```<!--``` ', call, '\n\nok'])
  })
})

describe('markdown guard: a break or heading ends the paragraph of a held tag', () => {
  it.each([
    ['a thematic break', 'Use ` ' + live + '\n***\nx ` y'],
    ['a setext underline', 'Use ` ' + live + '\n---\nx ` y'],
    ['a thematic break in a block quote', '> Use ` ' + live + '\n> ***\n> x ` y'],
  ])('should support a block held after an unmatched backtick going live when %s ends its paragraph (a later run closes nothing)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('markdown guard: CR, LF and CRLF line endings', () => {
  const dsml = (eol: string) => block(SPELLINGS[0]!, [{ name: 'ex', params: { path: 'a' } }], eol)
  /** `doc` (written with LF) with every line ending spelled `eol`: the guard reads it as it reads `doc`. */
  const sameAs = (doc: string, eol: string) => {
    const lf = outline(expectChunkInvariant(doc))
    const spelled = lf.map((o) => (typeof o === 'string' ? o.replace(/\n/g, eol) : o))
    expect(outline(expectChunkInvariant(doc.replace(/\n/g, eol)))).toEqual(spelled)
  }

  it.each([
    ['~~~', (e: string) => `Example:${e}~~~${e}${dsml(e)}${e}~~~${e}Done.`],
    ['```', (e: string) => `Example:${e}\`\`\`xml${e}${dsml(e)}${e}\`\`\`${e}Done.`],
    ['indented code after a blank line', (e: string) => `Example:${e}${e}    ${dsml(e).split(e).join(`${e}    `)}`],
    ['a code span over a line ending', (e: string) => `See \`${e}${dsml(e)}${e}\` there.`],
  ])('should support markup in code ended by CR alone as text (%s)', (_label, doc) => {
    expectText(doc('\r'))
  })

  it('should support the CR examples as their LF forms read them', () => {
    sameAs('Example:\n~~~\n' + dsml('\n') + '\n~~~\nDone.', '\r')
    sameAs('Example:\n\n    ' + dsml('\n'), '\r')
  })

  it.each([
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('should support %s documents as their LF forms read them', (_label, eol) => {
    for (const doc of [
      'Example:\n```\n' + live + '\n```\nNow:\n' + live,
      '```\nx\n```  \t\n' + live + '\nbye',
      'Say `it\n' + live + '\n\nok',
      'Say `it\n\n' + live + '\nok',
      'Say `it\n' + live + '\nstill` here',
      'Text\n\n    ' + live + '\nafter',
      'Text\n    ' + live + '\n\nok',
      '> ```\n> ' + live + '\n' + live,
      '- ```\n  ' + live + '\n  ```\n' + live,
      '<!--\n' + live + '\n-->\n' + live,
      'Say `it\n---\n' + live,
      '~~~ info\n' + live + '\n~~~~~\n' + live,
      '<pre>\n' + live + '\n</pre> tail\n' + live,
      '<!-- a\n' + live + ' --> tail\n    ' + live + '\n\nok',
      'Say `it\nTitle\n===\n' + live,
      '# Title `x\n' + live + '\nstill` here',
      'Say <a title="`\n' + live + '\n">`\n\n' + live,
    ]) sameAs(doc, eol)
  })

  it('should support a blank line of CR CR ending a span\'s paragraph (the block after it is live)', () => {
    expect(outline(expectChunkInvariant('Say `it\r\r' + live + '\rstill` here'))).toEqual(['Say `it\r\r', call, '\rstill` here'])
  })

  it('should not support a CRLF line inside a paragraph as a blank line', () => {
    expectText('Say `it\r\n' + live + '\r\nstill` here')
  })

  it.each([
    ['CR then CRLF', 'Say `it\r\r\n' + live + '\rstill` here'],
    ['CRLF then CR', 'Say `it\r\n\r' + live + '\r\nstill` here'],
    ['CRLF then LF', 'Say `it\r\n\n' + live + '\nstill` here'],
    ['LF then CR', 'Say `it\n\r' + live + '\rstill` here'],
    ['CR then LF then CR', 'Say `it\r\n\r\n' + live + '\rstill` here'],
  ])('should support a blank line of mixed endings ending a span\'s paragraph (%s)', (_label, doc) => {
    expect(calls(expectChunkInvariant(doc))).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
  })

  it.each([
    ['CR', 'Example:\r~~~\r' + live + '\r~~~\rok ' + live],
    ['mixed', 'Example:\r\n~~~\r' + live + '\n~~~\r\nok\r' + live],
    ['CR, a closer with trailing blanks', 'Example:\r~~~\r' + live + '\r~~~ \t\rok ' + live],
  ])('should support a fence closed on a CR line and a live block after it (%s)', (_label, doc) => {
    expect(calls(expectChunkInvariant(doc))).toEqual([{ name: 'a', input: { path: 'src/a.ts' } }])
  })
})
