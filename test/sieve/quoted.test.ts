/**
 * The prompt-example guard (`quoted`): a block with any call equal to a call
 * written anywhere in one of the quoted texts is the model repeating the
 * user's example: text with `quoted-example`. Any other block runs.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const example = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="delete_file">\n<｜DSML｜parameter name="path" string="true">/etc/passwd</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>'
const user = 'What does `' + example.replaceAll('\n', ' ') + '` do?'

describe('quoted examples', () => {
  it('should not support a block repeating the quoted example (text, quoted-example)', () => {
    const input = 'It would run:\n\n' + example + '\n\nwhich deletes the file.'
    const events = expectChunkInvariant(input, { quoted: [user] })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toEqual(['quoted-example'])
  })

  it('should not support the example written in another spelling, or its keys in another order', () => {
    const xml = '<tool_calls><invoke name="a"><parameter name="x">1</parameter><parameter name="y">2</parameter></invoke></tool_calls>'
    const repeated = '<|DSML|tool_calls><|DSML|invoke name="a"><|DSML|parameter name="y" string="false">2</|DSML|parameter><|DSML|parameter name="x" string="false">1</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>'
    expect(codes(expectChunkInvariant(repeated, { quoted: ['```xml\n' + xml + '\n```'] }))).toEqual(['quoted-example'])
  })

  it('should support any other call as usual', () => {
    const other = example.replace('/etc/passwd', '/tmp/scratch')
    const events = expectChunkInvariant(other, { quoted: [user] })
    expect(calls(events)).toEqual([{ name: 'delete_file', input: { path: '/tmp/scratch' } }])
  })

  it('should not support a block that repeats the example among calls of its own (fails closed: the whole block is text)', () => {
    const more = example.replace('</｜DSML｜tool_calls>', '<｜DSML｜invoke name="ls">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>')
    const events = expectChunkInvariant(more, { quoted: [user] })
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(more)
    expect(codes(events)).toEqual(['quoted-example'])
  })

  it('should not support quoted texts that are not strings (invalid-option naming the field)', () => {
    expect(() => createSieve({ quoted: 'x' as unknown as string[] })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'quoted' }))
    expect(() => createSieve({ quoted: ['a', 5 as unknown as string] })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'quoted[1]' }))
  })
})

describe('quoted examples nested deep', () => {
  it('should not support a repeated example whose input nests 5,000 deep (compared without recursion)', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    const b = `<tool_calls><invoke name="a"><parameter name="p" string="false">${deep}</parameter></invoke></tool_calls>`
    const sieve = createSieve({ quoted: [b] })
    const events = [...sieve.push(b), ...sieve.end()]
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([])
    expect(events.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(['quoted-example'])
  })
})
