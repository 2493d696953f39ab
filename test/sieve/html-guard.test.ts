/**
 * The Markdown guard, raw HTML (CommonMark 4.6 and
 * 6.6). Markup inside an HTML comment (inline, or a comment block at a line
 * start), a `<pre>`, `<script>`, `<style>` or `<textarea>` block, or inline
 * `<code>…</code>` is text. Where the closer has not arrived yet (an inline
 * `<!--` or `<code>`), a block after it is held until the closer comes (an
 * example, text) or the paragraph ends (live), as after an unmatched backtick.
 * Every case runs whole, one character at a time, at every split point and
 * in random chunks (`expectChunkInvariant`).
 */
import { describe, expect, it } from 'vitest'
import { calls, codes, expectChunkInvariant, outline } from '../helpers/chunking.js'
import { SPELLINGS, block } from '../helpers/blocks.js'
import { call, callNamed, example, expectOneCall, expectText, live, liveNamed } from '../helpers/guard.js'


describe('html guard: comment blocks at a line start (CommonMark HTML block 2)', () => {
  it.each([
    ['closed on a later line', '<!--\n' + live + '\n-->\nok'],
    ['closed on the block\'s own line', '<!-- ' + live + ' -->\nok'],
    ['unclosed, running to the end of the stream', 'Notes:\n\n<!--\n' + live],
    ['with blank lines inside', '<!--\n\n' + live + '\n\n-->\n'],
    ['indented three spaces', '   <!--\n' + live + '\n-->'],
    ['interrupting a paragraph', 'Text\n<!--\n' + live + '\n-->\n'],
    ['text after the closer on its line (the line is the block\'s)', '<!--\nx\n--> ' + live + '\nok'],
    ['a DSML example', '<!--\n' + example + '\n-->\n'],
    ['every spelling inside', '<!--\n' + SPELLINGS.map((s) => block(s, [{ name: 'x' }])).join('\n') + '\n-->\n'],
    ['CRLF line endings', '<!--\r\n' + live + '\r\n-->\r\nok'],
    ['after an unmatched backtick in the paragraph it interrupts', 'Use ` then\n<!--\n' + live + '\n-->\nok'],
  ])('should not support (run) a block inside an HTML comment block (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['after the closer\'s line', '<!--\nx\n-->\n' + live],
    ['after `<!-->`, a whole comment', '<!-->\n' + live],
    ['after `<!--->`, a whole comment', '<!--->\n' + live],
    ['after a comment block in one line', '<!-- note -->\n' + live],
    ['indented four spaces after a paragraph line (no block; an inline comment that never closes)', 'x\n    <!--\n' + live],
    ['held after an unmatched backtick, then a comment block interrupting the paragraph', 'Use ` then ' + live + '\n<!--\nx\n-->\n'],
  ])('should support a block outside an HTML comment block (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('html guard: <pre>, <script>, <style> and <textarea> blocks (CommonMark HTML block 1)', () => {
  it.each([
    ['<pre>', '<pre>\n' + live + '\n</pre>\nok'],
    ['<pre><code>', 'See:\n\n<pre><code>\n' + live + '\n</code></pre>\nok'],
    ['<script>', '<script>\n' + live + '\n</script>\n'],
    ['<style>', '<style>\n' + live + '\n</style>\n'],
    ['<textarea>', '<textarea>\n' + live + '\n</textarea>\n'],
    ['upper case and attributes', '<PRE class="xml">\n' + live + '\n</Pre>\n'],
    ['the name at the end of its line', '<script\n' + live + '\n</script>\n'],
    ['the block on the opener\'s line', '<pre>' + live + '</pre>\nok'],
    ['blank lines inside', '<pre>\n\n' + live + '\n\n</pre>\n'],
    ['unclosed, running to the end of the stream', '<textarea>\n' + live],
    ['indented three spaces', '   <pre>\n' + live + '\n</pre>\n'],
    ['interrupting a paragraph', 'Text\n<pre>\n' + live + '\n</pre>\n'],
    ['text after the closer on its line', '<pre>\nx\n</pre> ' + live + '\n'],
    ['a DSML example', '<pre>\n' + example + '\n</pre>\n'],
  ])('should not support (run) a block inside a raw HTML block (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['after the closer\'s line', '<pre>\nx\n</pre>\n' + live],
    ['a closer of another kind ends it too', '<pre>\nx\n</style>\n' + live],
    ['opened and closed on one line', '<script>x</script>\n' + live],
    ['`<prex>` is no such block', '<prex>\n' + live],
    ['`<pre>` mid-line is no block', 'Use <pre> inline: ' + live],
    ['indented four spaces after a paragraph line', 'x\n    <pre>\n' + live],
  ])('should support a block outside a raw HTML block (%s)', (_label, input) => {
    expectOneCall(input)
  })
})

describe('html guard: inline comments', () => {
  it('should not support (run) a block inside an inline comment in prose (the issue\'s example)', () => {
    const input = 'Disabled for now: <!-- ' + liveNamed('delete_path') + ' --> moving on.'
    expectText(input)
  })

  it.each([
    ['over several lines of one paragraph', 'a <!-- x\n' + live + '\n--> b'],
    ['a backtick in the comment before the block', 'a <!-- ` ' + live + ' --> b'],
    ['a backtick in the comment after the block', 'a <!-- ' + live + ' ` --> b'],
    ['inside a code span too', 'a `<!-- ' + live + ' -->` b'],
    ['an unmatched backtick before the comment', 'a ` <!-- ' + live + ' --> b\n\nok'],
    ['a code span that closes around the comment', 'a ` <!-- ' + live + ' ` b'],
    ['two blocks in one comment', 'a <!-- ' + live + ' ' + liveNamed('b') + ' --> b'],
  ])('should not support (run) a block inside an inline comment (%s)', (_label, input) => {
    expectText(input)
  })

  // a `<!--` that never closes is literal text (CommonMark 6.6): the `<code>` after it opens inline code
  it.each([
    ['in a sentence', 'text <!-- c <code>' + live + '</code> end'],
    ['on the next line of the paragraph', 'x <!-- c\n<code>' + live + '</code>\n\nok'],
    ['upper case', 'a <!-- c <CODE>' + live + '</CODE>'],
    ['with attributes', "a <!-- c <code class='x'>" + live + '</code>'],
    ['in a list item', '- a <!-- c <code>' + live + '</code>'],
    ['in a block quote', '> a <!-- c <code>' + live + '</code>\n> b'],
  ])('should not support (run) a block inside inline <code> after an inline comment that never closes (%s)', (_label, input) => {
    expectText(input)
  })

  // a backtick run that is a list item's first content ends the paragraph an open tag or comment began in, so at a
  // chunk's end it is a fence opener's start, not a run held in the tag (every split point: `expectChunkInvariant`)
  it.each([
    ['an ordered item', 'a <!-- c\n1. ```\n   ' + live + '\n   ```\n'],
    ['an unclosed attribute value', 'a <a href="x\n1. ```\n   ' + live + '\n   ```\n'],
    ['a bullet item and a longer run', 'a <!-- c\n+ ````\n  ' + live + '\n  ````\n'],
    ['CRLF line endings', 'a <!-- c\r\n1) ```\r\n   ' + live + '\r\n   ```\r\n'],
  ])('should not support (run) a block in a list item\'s fence after an open inline comment or tag, in any chunking (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a closed inline comment before the block', 'a <!-- x --> ' + live],
    ['a whole comment `<!-->`', 'a <!--> ' + live],
    ['an unclosed comment, then a blank line', 'a <!-- ' + live + '\n\nok'],
    ['an unclosed comment, then the end of the stream', 'a <!-- ' + live],
    ['an unclosed comment, then a fence', 'a <!-- ' + live + '\n```\nx\n```\n'],
    ['a closer after a blank line is in another paragraph', 'a <!-- x\n\n' + live + ' -->'],
    ['`<!--` in a code span is no comment', 'a `<!--` ' + live + ' -->'],
    ['an unclosed comment, then an unclosed <code> and a blank line', 'a <code> <!-- c ' + live + '\n\nz'],
  ])('should support a block after or outside an inline comment (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it('should support a held comment over the capture limit going out as text, with a diagnostic', () => {
    const input = 'a <!-- ' + live + ' and more text -->'
    const events = expectChunkInvariant(input, { captureLimit: 64 })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['capture-limit'])
  })

  it('should support two held blocks of one paragraph going live, and a third after an unclosed comment staying text', () => {
    // as after unmatched backticks: from the second time one paragraph end sends the sieve back, later blocks
    // that would wait stay text, so the paragraph is read at most three times
    const input = 'A <!-- ' + liveNamed('a') + ' B <!-- ' + liveNamed('b') + ' C <!-- ' + liveNamed('c') + '\n\nok'
    expect(outline(expectChunkInvariant(input))).toEqual(['A <!-- ', call, ' B <!-- ', callNamed('b'), ' C <!-- ' + liveNamed('c') + '\n\nok'])
  })
})

describe('html guard: inline <code>', () => {
  it.each([
    ['in a sentence', 'Use <code>' + live + '</code> here.'],
    ['with attributes', 'x <code class="language-xml">' + live + '</code> y'],
    ['upper case', 'x <CODE>' + live + '</Code> y'],
    ['over several lines of one paragraph', 'x <code>\n' + live + '\n</code> y'],
    ['at a line start (a paragraph, not an HTML block)', '<code>' + live + '</code>\nok'],
    ['a closing backtick run inside it', 'x <code>` ' + live + ' `</code>'],
    ['right after a run of `<`', 'x <<<<code>' + live + '<<</code> y'],
    ['nested: one `</code>` of two, then the block', 'x <code> a <code> b </code> ' + live + ' </code> y'],
    ['two opened in a row, the block after the first', 'x <code> ' + live + ' <code> b </code> </code> y'],
  ])('should not support (run) a block inside inline <code> (%s)', (_label, input) => {
    expectText(input)
  })

  it.each([
    ['a closed <code> before the block', 'x <code>a</code> ' + live],
    ['an unclosed <code>, then a blank line', 'x <code> ' + live + '\n\nok'],
    ['an unclosed <code>, then the end of the stream', 'x <code> ' + live],
    ['`<codex>` is another element', 'x <codex> ' + live + ' </codex>'],
    ['`<code>` inside a code span is no tag', 'x `<code>` ' + live],
    ['two opened in a row and both closed', 'x <code> a <code> b </code> c </code> ' + live],
    ['one closed, then a second opened after the block and closed', 'x <code> a </code> ' + live + ' <code> b </code>'],
  ])('should support a block after or outside inline <code> (%s)', (_label, input) => {
    expectOneCall(input)
  })

  it('should support a held <code> over the capture limit going out as text, with a diagnostic', () => {
    const input = 'a <code>' + live + ' and more text</code>'
    const events = expectChunkInvariant(input, { captureLimit: 64 })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['capture-limit'])
  })
})
