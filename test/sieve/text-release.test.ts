/**
 * Text release: text is emitted as early as is safe. Only a tail that
 * could still become a tag is held, never more than the longest delimiter, and
 * a tail that turns out to be text comes out on the next push.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent } from '../../src/types.js'
import { expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { readFile } from '../helpers/blocks.js'

/** The text a push returned; fails if it returned anything but text. */
function released(events: SieveEvent[]): string {
  expect(events.filter((e) => e.type !== 'text')).toEqual([])
  return textOf(events)
}

/** The longest tag prefix the default grammar can leave undecided: `<<<<  /  ||DSML||  function_calls||  >`. */
const LONGEST_DELIMITER = '<<<<  /  ||DSML||  function_calls||  >'.length

function expectAllText(input: string): void {
  const events = expectChunkInvariant(input)
  expect(events).toEqual([{ type: 'text', text: input }])
}

describe('text release', () => {
  it('should support emitting text without construct characters at once', () => {
    const input = 'Hello, world. 你好，世界！ Numbers 1 > 0 and a|b.'
    expect(released(createSieve().push(input))).toBe(input)
    expectAllText(input)
  })

  it('should support holding a lone `<` and releasing what precedes it', () => {
    const sieve = createSieve()
    expect(released(sieve.push('Hello <'))).toBe('Hello ')
    expect(released(sieve.end())).toBe('<')
    expectAllText('Hello <')
  })

  it.each([
    ['ASCII DSML prefix', '<|DS'],
    ['fullwidth DSML prefix', '＜ＤＳ'],
    ['partial plain name', '<tool_ca'],
    ['fullwidth closer prefix', '＜／ＤＳＭＬ＜'],
    ['U+FF5C DSML prefix', '<｜DSML｜'],
    ['closing slash', '</'],
    ['repeated <', '<<|DSML|too'],
    ['spaced prefix', '< |DSML| param'],
    ['partial function_calls', '<function_ca'],
    ['V4.1 spaced name', '<｜DSML｜ cal'],
  ])('should support holding a tail that could still become a tag (%s)', (_label, tail) => {
    const sieve = createSieve()
    expect(released(sieve.push('Hello ' + tail))).toBe('Hello ')
    expect(released(sieve.end())).toBe(tail)
    expectAllText('Hello ' + tail)
  })

  it.each([
    ['a lone <', 'Hello <', 'b> there', '<b> there'],
    ['an ASCII DSML prefix', 'x <|DS', 'X y', '<|DSX y'],
    ['a fullwidth DSML prefix', 'x ＜ＤＳ', 'Ａ y', '＜ＤＳＡ y'],
    ['a partial name', 'x <tool_ca', 'ke y', '<tool_cake y'],
    ['a fullwidth closer prefix', 'x ＜／ＤＳＭＬ＜', 'x y', '＜／ＤＳＭＬ＜x y'],
    ['a longer name', 'x <tool_calls', '_extra> y', '<tool_calls_extra> y'],
    ['a name that is a prefix of no role', 'x <inv', 'entory y', '<inventory y'],
  ])('should support releasing %s that turns out to be text on the next push', (_label, first, second, out) => {
    const sieve = createSieve()
    released(sieve.push(first))
    expect(released(sieve.push(second))).toBe(out)
    expect(released(sieve.end())).toBe('')
    expectAllText(first + second)
  })

  it('should not hold a tag-like run that already failed (`<tool_calls_extra>`, `<tool_call>`, `<invoker>`)', () => {
    for (const input of ['a <tool_calls_extra> b', 'a <tool_call> b', 'a <invoker> b', 'a <b> c']) {
      expect(released(createSieve().push(input))).toBe(input)
      expectAllText(input)
    }
  })

  it('should not hold more than four `<` (at most four belong to one tag)', () => {
    const input = 'a' + '<'.repeat(50)
    const out = released(createSieve().push(input))
    expect(input.startsWith(out)).toBe(true)
    expect(out.length).toBeGreaterThanOrEqual(input.length - 4)
    expectAllText(input)
  })

  it('should not hold a tail longer than the longest delimiter', () => {
    const input =
      'a <b c <<<< d <|DSML e ＜ＤＳＭＬ＜tool f <tool_calls_x g </ h ' +
      '<<<<  /  ||DSML||  function_call i ＜＜＜＜ ｜ＤＳＭＬ｜ j <｜DSML｜ invok k end'
    const sieve = createSieve()
    let emitted = ''
    for (let i = 0; i < input.length; i++) {
      emitted += released(sieve.push(input.charAt(i)))
      expect(input.startsWith(emitted)).toBe(true)
      expect(i + 1 - emitted.length, `held after ${JSON.stringify(input.slice(0, i + 1))}`).toBeLessThanOrEqual(
        LONGEST_DELIMITER,
      )
    }
    expect(emitted, 'nothing held once the last tail was decided').toBe(input)
    expectAllText(input)
  })

  it('should support releasing text before a block as soon as the block opener starts', () => {
    const sieve = createSieve()
    expect(released(sieve.push('Reading the file now. <tool_'))).toBe('Reading the file now. ')
    const rest = readFile().slice('<tool_'.length)
    const events = [...sieve.push(rest), ...sieve.end()]
    expect(events.filter((e) => e.type !== 'text' || e.text !== '').map((e) => e.type)).toEqual(['tool-call'])
    expectChunkInvariant('Reading the file now. ' + readFile())
  })

  it('should not emit anything for an empty push', () => {
    const sieve = createSieve()
    expect(released(sieve.push(''))).toBe('')
    expect(released(sieve.push('abc'))).toBe('abc')
    expect(released(sieve.push(''))).toBe('')
    expect(released(sieve.end())).toBe('')
  })

  it('should support astral characters and lone surrogates in text', () => {
    const input = 'emoji 😀 then \uD800 lone and \uDC00 <'
    expect(released(createSieve().push(input))).toBe(input.slice(0, -1))
    expectAllText(input)
  })
})
