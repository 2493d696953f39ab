/**
 * The `string` attribute is read one way by everything that reads it: the
 * lexer (which closer ends the value), argument streaming (whether the
 * value streams as it arrives) and the decoder (rule 1). XML blanks around
 * the word are ignored, and its case; any other character makes it
 * another word, and the value is read by the other rules.
 */
import { describe, expect, it } from 'vitest'
import { calls, expectChunkInvariant } from '../helpers/chunking.js'
import { expectStreamedOnce } from '../helpers/streamed.js'

const block = (flag: string): string => `<tool_calls><invoke name="f"><parameter name="p" string="${flag}">a &amp; <b>x</b></parameter></invoke></tool_calls>`

describe('the string attribute', () => {
  it.each([
    ['true', 'a &amp; <b>x</b>'],
    [' TRUE\t', 'a &amp; <b>x</b>'],
    ['\u3000true', 'a & <b>x</b>'],
    ['true\u00a0', 'a & <b>x</b>'],
  ])('should support string="%s" read alike with and without streamArguments', (flag, value) => {
    const input = block(flag)
    expect(calls(expectChunkInvariant(input))).toEqual([{ name: 'f', input: { p: value } }])
    // started once, whole, the only call, and no diagnostic (a reading that differed was `streamed-arguments-changed`)
    expectStreamedOnce(input, {}, { name: 'f', input: { p: value } })
  })
})
